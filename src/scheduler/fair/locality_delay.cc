#include "scheduler/fair/locality_delay.h"

#include <algorithm>

namespace spindle::fair {
namespace {

Locality relaxed(Locality l) {
  return l == Locality::kNodeLocal ? Locality::kRackLocal : Locality::kOffSwitch;
}

}  // namespace

Locality LocalityDelay::allowedByCount(const SchedulerKey& key, int numNodes,
                                       float nodeThreshold, float rackThreshold) {
  const double nodeThr = std::min(static_cast<double>(nodeThreshold), 1.0);
  const double rackThr = std::min(static_cast<double>(rackThreshold), 1.0);
  if (nodeThr < 0.0 || rackThr < 0.0) return Locality::kOffSwitch;
  KeyState& s = keys_[key];
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
  KeyState& s = keys_[key];
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

int64_t LocalityDelay::opportunities(const SchedulerKey& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? 0 : it->second.opportunities;
}

void LocalityDelay::resetOpportunities(const SchedulerKey& key, TimeMs now) {
  KeyState& s = keys_[key];
  s.opportunities = 0;
  s.lastScheduled = now;
}

void LocalityDelay::onAllocated(const SchedulerKey& key, Locality achieved, TimeMs now) {
  KeyState& s = keys_[key];
  if (s.allowed && achieved < *s.allowed) s.allowed = achieved;
  resetOpportunities(key, now);
}

std::optional<Locality> LocalityDelay::allowedLevel(const SchedulerKey& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? std::nullopt : it->second.allowed;
}

}  // namespace spindle::fair
