#include "app/asks.h"

#include <algorithm>

namespace spindle {

const char* toString(Locality l) {
  switch (l) {
    case Locality::kNodeLocal: return "NODE_LOCAL";
    case Locality::kRackLocal: return "RACK_LOCAL";
    case Locality::kOffSwitch: return "OFF_SWITCH";
  }
  return "?";
}

AskTable::AskTable(const AskTable& o) : keys_(o.keys_), active_(o.active_), pending_(o.pending_) {
  reindex();
}

AskTable& AskTable::operator=(const AskTable& o) {
  if (this != &o) {
    keys_ = o.keys_;
    active_ = o.active_;
    pending_ = o.pending_;
    reindex();
  }
  return *this;
}

AskTable::AskTable(AskTable&& o) noexcept
    : keys_(std::move(o.keys_)),
      active_(std::move(o.active_)),
      pending_(o.pending_),
      first_(o.first_),
      more_(std::move(o.more_)) {
  o.clear();
}

AskTable& AskTable::operator=(AskTable&& o) noexcept {
  if (this != &o) {
    keys_ = std::move(o.keys_);
    active_ = std::move(o.active_);
    pending_ = o.pending_;
    first_ = o.first_;
    more_ = std::move(o.more_);
    o.clear();
  }
  return *this;
}

void AskTable::reindex() {
  first_ = KeyEntry{};
  more_.clear();
  for (auto& [key, asks] : keys_) {
    auto any = asks.names.find(kAnyResourceName);
    const KeyEntry e{key, &asks, any == asks.names.end() ? nullptr : &any->second};
    if (first_.asks == nullptr) {
      first_ = e;
    } else {
      more_.push_back(e);
    }
  }
}

void AskTable::addPending(const ResourceRequest& any, int sign) {
  Resource r = any.capability.times(any.numContainers);
  if (sign > 0) {
    pending_ += r;
  } else {
    pending_ -= r;
  }
}

Status AskTable::update(const std::vector<ResourceRequest>& requests) {
  for (const auto& rr : requests) {
    if (rr.numContainers < 0) {
      return invalidArgument("ask '{}' at priority {}: negative container count {}",
                             rr.resourceName, rr.key.priority, rr.numContainers);
    }
    if (!rr.capability.isNonNegative()) {
      return invalidArgument("ask '{}' at priority {}: negative capability {}", rr.resourceName,
                             rr.key.priority, rr.capability.toString());
    }
    if (rr.resourceName.empty()) return invalidArgument("ask with an empty resource name");
  }
  for (const auto& rr : requests) {
    KeyAsks& asks = keys_[rr.key];
    auto it = asks.names.find(rr.resourceName);
    const bool isAny = rr.resourceName == kAnyResourceName;
    if (it != asks.names.end()) {
      if (isAny) addPending(it->second, -1);
      asks.positive -= it->second.numContainers > 0 ? 1 : 0;
      it->second = rr;
    } else {
      asks.names.emplace(rr.resourceName, rr);
    }
    asks.positive += rr.numContainers > 0 ? 1 : 0;
    if (isAny) addPending(rr, +1);
  }
  refreshActive();
  reindex();
  return Status::ok();
}

void AskTable::refreshActive() {
  active_.clear();
  for (const auto& [key, asks] : keys_) {
    auto it = asks.names.find(kAnyResourceName);
    if (it != asks.names.end() && it->second.numContainers > 0) active_.push_back(key);
  }
}

void AskTable::deactivate(const SchedulerKey& key) {
  auto it = std::lower_bound(active_.begin(), active_.end(), key);
  if (it != active_.end() && *it == key) active_.erase(it);
}

const ResourceRequest* AskTable::find(const SchedulerKey& key, std::string_view name) const {
  const KeyEntry* e = entry(key);
  if (e == nullptr) return nullptr;
  if (name == kAnyResourceName) return e->any;
  // The key holds its ANY request only (an off-switch ask): no other name is there.
  const ByName& names = e->asks->names;
  if (e->any != nullptr && names.size() == 1) return nullptr;
  auto it = names.find(name);
  return it == names.end() ? nullptr : &it->second;
}

int32_t AskTable::count(const SchedulerKey& key, std::string_view name) const {
  const ResourceRequest* rr = find(key, name);
  return rr ? rr->numContainers : 0;
}

bool AskTable::canDelayTo(const SchedulerKey& key, std::string_view name) const {
  const ResourceRequest* rr = find(key, name);
  return rr == nullptr || rr->relaxLocality;
}

int AskTable::uniqueLocations(const SchedulerKey& key) const {
  const KeyEntry* e = entry(key);
  if (e == nullptr) return 0;
  return e->asks->positive;
}

void AskTable::setCount(KeyAsks& asks, ResourceRequest& r, int32_t count) {
  asks.positive += (count > 0 ? 1 : 0) - (r.numContainers > 0 ? 1 : 0);
  r.numContainers = count;
}

void AskTable::decrement(KeyAsks& asks, std::string_view name) {
  auto it = asks.names.find(name);
  if (it != asks.names.end() && it->second.numContainers > 0) {
    setCount(asks, it->second, it->second.numContainers - 1);
  }
}

Result<Resource> AskTable::allocate(const SchedulerKey& key, Locality locality,
                                    std::string_view host, std::string_view rack) {
  const KeyEntry* e = entry(key);
  if (e == nullptr) return failedPrecondition("no asks at priority {}", key.priority);
  if (locality == Locality::kOffSwitch) {
    // Off-switch touches ANY only.
    ResourceRequest* any = e->any;
    if (any == nullptr || any->numContainers <= 0) {
      return failedPrecondition("nothing outstanding at priority {}", key.priority);
    }
    setCount(*e->asks, *any, any->numContainers - 1);
    pending_ -= any->capability;
    if (any->numContainers == 0) deactivate(key);
    return any->capability;
  }
  ResourceRequest* any = e->any;
  if (any == nullptr || any->numContainers <= 0) {
    return failedPrecondition("nothing outstanding at priority {}", key.priority);
  }
  if (locality == Locality::kNodeLocal) decrement(*e->asks, host);
  decrement(*e->asks, rack);
  setCount(*e->asks, *any, any->numContainers - 1);
  pending_ -= any->capability;
  if (any->numContainers == 0) deactivate(key);
  return any->capability;
}

void AskTable::restore(const ResourceRequest& any, std::string_view host, std::string_view rack) {
  KeyAsks& asks = keys_[any.key];
  auto it = asks.names.find(kAnyResourceName);
  if (it == asks.names.end()) {
    ResourceRequest rr = any;
    rr.resourceName = std::string(kAnyResourceName);
    rr.numContainers = 0;
    it = asks.names.emplace(rr.resourceName, rr).first;
  }
  if (it->second.numContainers == 0) {
    active_.insert(std::lower_bound(active_.begin(), active_.end(), any.key), any.key);
  }
  setCount(asks, it->second, it->second.numContainers + 1);
  pending_ += it->second.capability;
  for (std::string_view name : {host, rack}) {
    auto local = asks.names.find(name);
    if (local != asks.names.end()) setCount(asks, local->second, local->second.numContainers + 1);
  }
  reindex();
}

void AskTable::clear() {
  keys_.clear();
  active_.clear();
  pending_ = Resource();
  first_ = KeyEntry{};
  more_.clear();
}

std::vector<ResourceRequest> AskTable::all() const {
  std::vector<ResourceRequest> out;
  for (const auto& [key, asks] : keys_) {
    for (const auto& [name, rr] : asks.names) out.push_back(rr);
  }
  return out;
}

// Each kept value against the requests themselves (keys_):
//  - pending_: rule 3 recomputed;
//  - active_ (activeKeys): exactly the keys whose ANY count is > 0, ascending;
//  - each key's positive-entry count (uniqueLocations) recounted;
//  - the key index (first_, more_): one entry per key, ascending, pointing at the key's own
//    requests and ANY request, and find() answering every (key, name) with the table's own entry
//    (the same object, not a copy).
// Linear in the number of requests (a map lookup each).
Status AskTable::checkInvariants() const {
  Resource pending;
  std::vector<SchedulerKey> active;
  for (const auto& [key, asks] : keys_) {
    const ByName& byName = asks.names;
    int positive = 0;
    for (const auto& [name, rr] : byName) {
      if (rr.numContainers < 0) return internalError("ask {} has a negative count", name);
      positive += rr.numContainers > 0 ? 1 : 0;
      if (name == kAnyResourceName) continue;
      if (find(key, name) != &rr) {
        return internalError("ask lookup (priority {}, '{}') does not find the kept request",
                             key.priority, name);
      }
    }
    if (uniqueLocations(key) != positive) {
      return internalError("unique locations at priority {}: {} answered, {} asks are positive",
                           key.priority, uniqueLocations(key), positive);
    }
    auto it = byName.find(kAnyResourceName);
    if (it != byName.end()) pending += it->second.capability.times(it->second.numContainers);
    if (it != byName.end() && it->second.numContainers > 0) active.push_back(key);
  }
  if (active != active_) {
    return internalError("active keys: {} kept, {} keys have ANY asks", active_.size(),
                         active.size());
  }
  const size_t indexed = (first_.asks != nullptr ? 1 : 0) + more_.size();
  if (indexed != keys_.size() || (first_.asks == nullptr && !more_.empty())) {
    return internalError("key index: {} entries kept, {} keys", indexed, keys_.size());
  }
  size_t i = 0;
  for (const auto& [key, asks] : keys_) {
    auto any = asks.names.find(kAnyResourceName);
    const ResourceRequest* anyRequest = any == asks.names.end() ? nullptr : &any->second;
    const KeyEntry& e = i == 0 ? first_ : more_[i - 1];
    ++i;
    if (e.key != key || e.asks != &asks || e.any != anyRequest) {
      return internalError("key index: entry {} is not priority {}'s key, requests and ANY ask",
                           i - 1, key.priority);
    }
    if (find(key, kAnyResourceName) != anyRequest) {
      return internalError("ANY lookup at priority {} does not find the kept request",
                           key.priority);
    }
  }
  if (pending != pending_) {
    return internalError("pending {} != sum of ANY asks {}", pending_.toString(),
                         pending.toString());
  }
  return Status::ok();
}

}  // namespace spindle
