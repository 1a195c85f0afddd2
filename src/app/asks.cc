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

void AskTable::reindex() {
  index_.clear();
  index_.reserve(keys_.size());
  for (auto& [key, byName] : keys_) {
    auto any = byName.find(kAnyResourceName);
    index_.push_back({key, &byName, any == byName.end() ? nullptr : &any->second});
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
    ByName& byName = keys_[rr.key];
    auto it = byName.find(rr.resourceName);
    const bool isAny = rr.resourceName == kAnyResourceName;
    if (it != byName.end()) {
      if (isAny) addPending(it->second, -1);
      it->second = rr;
    } else {
      byName.emplace(rr.resourceName, rr);
    }
    if (isAny) addPending(rr, +1);
  }
  refreshActive();
  reindex();
  return Status::ok();
}

void AskTable::refreshActive() {
  active_.clear();
  for (const auto& [key, byName] : keys_) {
    auto it = byName.find(kAnyResourceName);
    if (it != byName.end() && it->second.numContainers > 0) active_.push_back(key);
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
  if (e->any != nullptr && e->names->size() == 1) return nullptr;
  auto it = e->names->find(name);
  return it == e->names->end() ? nullptr : &it->second;
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
  int n = 0;
  for (const auto& [name, rr] : *e->names) n += rr.numContainers > 0 ? 1 : 0;
  return n;
}

void AskTable::decrement(ByName& byName, std::string_view name) {
  auto it = byName.find(name);
  if (it != byName.end() && it->second.numContainers > 0) --it->second.numContainers;
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
    --any->numContainers;
    pending_ -= any->capability;
    if (any->numContainers == 0) deactivate(key);
    return any->capability;
  }
  ResourceRequest* any = e->any;
  if (any == nullptr || any->numContainers <= 0) {
    return failedPrecondition("nothing outstanding at priority {}", key.priority);
  }
  if (locality == Locality::kNodeLocal) decrement(*e->names, host);
  decrement(*e->names, rack);
  --any->numContainers;
  pending_ -= any->capability;
  if (any->numContainers == 0) deactivate(key);
  return any->capability;
}

void AskTable::restore(const ResourceRequest& any, std::string_view host, std::string_view rack) {
  ByName& byName = keys_[any.key];
  auto it = byName.find(kAnyResourceName);
  if (it == byName.end()) {
    ResourceRequest rr = any;
    rr.resourceName = std::string(kAnyResourceName);
    rr.numContainers = 0;
    it = byName.emplace(rr.resourceName, rr).first;
  }
  if (it->second.numContainers++ == 0) {
    active_.insert(std::lower_bound(active_.begin(), active_.end(), any.key), any.key);
  }
  pending_ += it->second.capability;
  for (std::string_view name : {host, rack}) {
    auto local = byName.find(name);
    if (local != byName.end()) ++local->second.numContainers;
  }
  reindex();
}

void AskTable::clear() {
  keys_.clear();
  active_.clear();
  pending_ = Resource();
  index_.clear();
}

std::vector<ResourceRequest> AskTable::all() const {
  std::vector<ResourceRequest> out;
  for (const auto& [key, byName] : keys_) {
    for (const auto& [name, rr] : byName) out.push_back(rr);
  }
  return out;
}

// Each kept value against the requests themselves (keys_):
//  - pending_: rule 3 recomputed;
//  - active_ (activeKeys): exactly the keys whose ANY count is > 0, ascending;
//  - the cached ANY request and its key's name map (anyCache_), checked through the lookups it
//    serves, so that the check holds whatever form the cache takes: find() must answer every
//    (key, name) with the table's own entry (the same object, not a copy) and uniqueLocations()
//    must count the key's positive entries. The non-ANY lookups and uniqueLocations() go first:
//    they read a cached name map without replacing it, so the map cached when the check starts
//    is the one checked. The ANY lookups follow, twice per key (the second one is served by the
//    cache the first one may have filled).
// Linear in the number of requests (a map lookup each).
Status AskTable::checkInvariants() const {
  Resource pending;
  std::vector<SchedulerKey> active;
  for (const auto& [key, byName] : keys_) {
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
  if (index_.size() != keys_.size()) {
    return internalError("key index: {} entries kept, {} keys", index_.size(), keys_.size());
  }
  size_t i = 0;
  for (const auto& [key, byName] : keys_) {
    auto any = byName.find(kAnyResourceName);
    const ResourceRequest* anyRequest = any == byName.end() ? nullptr : &any->second;
    const KeyEntry& e = index_[i++];
    if (e.key != key || e.names != &byName || e.any != anyRequest) {
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
