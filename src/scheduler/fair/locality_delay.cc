#include "scheduler/fair/locality_delay.h"

#include <algorithm>

namespace spindle::fair {
namespace {

Locality relaxed(Locality l) {
  return l == Locality::kNodeLocal ? Locality::kRackLocal : Locality::kOffSwitch;
}

}  // namespace

Locality LocalityDelay::allowedByCount(const SchedulerKey& key, int numNodes, float nodeThreshold,
                                       float rackThreshold) {
  const double nodeThr = std::min(static_cast<double>(nodeThreshold), 1.0);
  const double rackThr = std::min(static_cast<double>(rackThreshold), 1.0);
  if (nodeThr < 0.0 || rackThr < 0.0) return Locality::kOffSwitch;
  KeyState& s = state(key);
  if (!s.allowed) {
    s.allowed = Locality::kNodeLocal;
    return *s.allowed;
  }
  if (*s.allowed == Locality::kOffSwitch) return *s.allowed;
  const double threshold = *s.allowed == Locality::kNodeLocal ? nodeThr : rackThr;
  if (static_cast<double>(s.opportunities) > numNodes * threshold) {
    s.allowed = relaxed(*s.allowed);
    s.opportunities = 0;
  }
  return *s.allowed;
}

Locality LocalityDelay::allowedByTime(const SchedulerKey& key, int64_t nodeDelayMs,
                                      int64_t rackDelayMs, TimeMs now, TimeMs appStart) {
  if (nodeDelayMs < 0 || rackDelayMs < 0) return Locality::kOffSwitch;
  KeyState& s = state(key);
  if (!s.allowed) {
    s.lastScheduled = now;
    s.allowed = Locality::kNodeLocal;
    return *s.allowed;
  }
  if (*s.allowed == Locality::kOffSwitch) return *s.allowed;
  const int64_t wait = now - s.lastScheduled.value_or(appStart);
  const int64_t threshold = *s.allowed == Locality::kNodeLocal ? nodeDelayMs : rackDelayMs;
  if (wait > threshold) {
    s.allowed = relaxed(*s.allowed);
    resetOpportunities(key, now);
  }
  return *s.allowed;
}

LocalityDelay::KeyState& LocalityDelay::state(const SchedulerKey& key) {
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key,
                             [](const auto& e, const SchedulerKey& k) { return e.first < k; });
  if (it == keys_.end() || it->first != key) it = keys_.insert(it, {key, KeyState{}});
  return it->second;
}

const LocalityDelay::KeyState* LocalityDelay::find(const SchedulerKey& key) const {
  auto it = std::lower_bound(keys_.begin(), keys_.end(), key,
                             [](const auto& e, const SchedulerKey& k) { return e.first < k; });
  return it != keys_.end() && it->first == key ? &it->second : nullptr;
}

int64_t LocalityDelay::opportunities(const SchedulerKey& key) const {
  const KeyState* s = find(key);
  return s == nullptr ? 0 : s->opportunities;
}

void LocalityDelay::resetOpportunities(const SchedulerKey& key, TimeMs now) {
  KeyState& s = state(key);
  s.opportunities = 0;
  s.lastScheduled = now;
}

void LocalityDelay::onAllocated(const SchedulerKey& key, Locality achieved, TimeMs now) {
  KeyState& s = state(key);
  if (s.allowed && achieved < *s.allowed) s.allowed = achieved;
  resetOpportunities(key, now);
}

std::optional<Locality> LocalityDelay::allowedLevel(const SchedulerKey& key) const {
  const KeyState* s = find(key);
  return s == nullptr ? std::nullopt : s->allowed;
}

Status LocalityDelay::check() const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    const SchedulerKey& k = keys_[i].first;
    if (i > 0 && !(keys_[i - 1].first < k)) {
      return internalError("delay-scheduling keys out of order at priority {} (entry {})",
                           k.priority, i);
    }
    if (keys_[i].second.opportunities < 0) {
      return internalError("delay-scheduling opportunities at priority {} are negative",
                           k.priority);
    }
  }
  return Status::ok();
}

}  // namespace spindle::fair
