// Delay scheduling state of one Fair Scheduler app (FSAppAttempt.getAllowedLocalityLevel,
// getAllowedLocalityLevelByTime and resetAllowedLocalityLevel; the Hadoop docs' FairScheduler page,
// yarn.scheduler.fair.locality.threshold.*; vectors DS-1, DS-2).
//
//   LocalityDelay d;
//   d.allowedByCount(key, /*numNodes=*/10, 0.5f, 0.6f);     // NODE_LOCAL (first call)
//   d.addOpportunity(key);  ...                              // one per node offered to the key
//   d.allowedByCount(key, 10, 0.5f, 0.6f);                   // RACK_LOCAL after 6 opportunities
//
// Threshold mode (node heartbeats):
//  1. Thresholds are clamped to <= 1.0; either < 0 means no delay: OFF_SWITCH.
//  2. The first call for a key sets and returns NODE_LOCAL.
//  3. Otherwise, when opportunities > numNodes x threshold of the current level (strictly),
//     relax one level (NODE -> RACK -> OFF_SWITCH) and reset the opportunity count.
// Time mode (continuous scheduling): the same with "now - last scheduled > delay of the level";
// the first call records now; relaxing resets the timestamp to now.
// After an allocation better than the allowed level, the level is raised back to the achieved
// one (FSAppAttempt.allocate); Spindle also resets the opportunity count and timestamp there,
// as the user doc defines the threshold as opportunities "since the last container
// assignment" (see docs/compatibility.md).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "app/asks.h"
#include "base/clock.h"
#include "base/hot_path.h"
#include "base/status.h"

namespace spindle::fair {

class LocalityDelay {
 public:
  Locality allowedByCount(const SchedulerKey& key, int numNodes, float nodeThreshold,
                          float rackThreshold);
  Locality allowedByTime(const SchedulerKey& key, int64_t nodeDelayMs, int64_t rackDelayMs,
                         TimeMs now, TimeMs appStart);
  void addOpportunity(const SchedulerKey& key) { ++state(key).opportunities; }
  int64_t opportunities(const SchedulerKey& key) const;
  // resetSchedulingOpportunities(key, now).
  void resetOpportunities(const SchedulerKey& key, TimeMs now);
  // resetAllowedLocalityLevel(key, level).
  void resetAllowedLevel(const SchedulerKey& key, Locality level) { state(key).allowed = level; }
  // Called after a container of `key` was allocated at `achieved`.
  void onAllocated(const SchedulerKey& key, Locality achieved, TimeMs now);
  std::optional<Locality> allowedLevel(const SchedulerKey& key) const;
  // The flat vector's invariants: keys strictly ascending (the binary searches rely on it),
  // opportunity counts non-negative.
  Status check() const;
  // Starts loading the per-key states (a hint).
  void prefetch() const {
    if (!keys_.empty()) prefetchLine(keys_.data());
  }

 private:
  struct KeyState {
    std::optional<Locality> allowed;
    int64_t opportunities = 0;
    std::optional<TimeMs> lastScheduled;
  };
  // The key's state, created when missing.
  KeyState& state(const SchedulerKey& key);
  const KeyState* find(const SchedulerKey& key) const;

  // Sorted by key. An app asks at one or two keys, so a flat vector (one allocation, read
  // with the app's other hot fields) rather than a tree.
  std::vector<std::pair<SchedulerKey, KeyState>> keys_;
};

}  // namespace spindle::fair
