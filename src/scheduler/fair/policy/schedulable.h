// The read-only view of a queue or an application that the Fair Scheduler's policies work on
// (YARN's Schedulable interface: FSQueue and FSAppAttempt both implement it).
//
//   Schedulable q = Schedulable::queue("root.a").withWeight(2.0f).withMinShare(Resource::of(1024,
//   1)); Schedulable app = Schedulable::app("application_1_0001", /*startTime=*/5)
//                         .withUsage(Resource::of(2048, 2)).withDemand(Resource::of(4096, 4));
//
// Weights are Java floats in YARN (Schedulable.getWeight returns float); they stay float here so
// that weight x ratio rounds exactly as YARN's `float * double` does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/hot_path.h"
#include "resource/resource.h"
#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {

struct Schedulable {
  // The comparators' scalars first, then the resources whose memory they read: few cache lines.
  bool isQueue = false;         // only queues can be inactive (instantaneous shares)
  bool isActive = true;         // queue: getNumRunnableApps() > 0 (including subqueues)
  int32_t numRunnableApps = 0;  // FairSharePolicy's demand stage (see fair_share_policy.h)
  float weight = 1.0f;
  int32_t priority = 1;   // FS fixes app priority at 1
  int64_t startTime = 0;  // queues: 0
  // The rank of `name` among a fixed set of schedulables compared with one another (the
  // Fair Scheduler's kept policy orders), or -1. See compareNames below.
  int64_t nameRank = -1;
  Resource usage;
  Resource demand;    // usage plus outstanding asks, capped at maxShare
  Resource minShare;  // apps: 0
  ResourceLimit maxShare = ResourceLimit::unbounded();  // apps: unbounded
  std::string name;  // app id string or full queue name; the last tie-break

  static Schedulable queue(std::string name) {
    Schedulable s;
    s.name = std::move(name);
    s.isQueue = true;
    return s;
  }
  static Schedulable app(std::string name, int64_t startTime) {
    Schedulable s;
    s.name = std::move(name);
    s.startTime = startTime;
    return s;
  }
  Schedulable& withWeight(float w) {
    weight = w;
    return *this;
  }
  Schedulable& withMinShare(const Resource& r) {
    minShare = r;
    return *this;
  }
  Schedulable& withMaxShare(const ResourceLimit& r) {
    maxShare = r;
    return *this;
  }
  Schedulable& withDemand(const Resource& r) {
    demand = r;
    return *this;
  }
  Schedulable& withUsage(const Resource& r) {
    usage = r;
    return *this;
  }
  Schedulable& withActive(bool a) {
    isActive = a;
    return *this;
  }
  Schedulable& withRunnableApps(int32_t n) {
    numRunnableApps = n;
    return *this;
  }
  Schedulable& withStartTime(int64_t t) {
    startTime = t;
    return *this;
  }
  Schedulable& withPriority(int32_t p) {
    priority = p;
    return *this;
  }
};
// The comparators' scalars are in the first cache line.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(Schedulable, usage) <= kCacheLineSize);
#pragma GCC diagnostic pop

// The comparators' last tie-break, String.compareTo on the names. Two views ranked within the same
// set (both nameRank >= 0) compare their ranks, which give the same answer without reading the
// strings; a view with no rank compares names.
inline int compareNames(const Schedulable& s1, const Schedulable& s2) {
  if (s1.nameRank >= 0 && s2.nameRank >= 0) return signum(s1.nameRank, s2.nameRank);
  return compareNames(s1.name, s2.name);
}

}  // namespace spindle::fair
