// Periodic skylines: one base skyline over [0, period) that repeats forever. The value at any
// time t is the base's value at t mod period. Periodic reservations keep their allocation in
// this form, and the plan keeps one such skyline per period in use.
//
//   PeriodicRleSparseResourceAllocation daily(86400000);
//   daily.addInterval({3600000, 7200000}, Resource::of(10240, 10));   // 01:00-02:00 each day
//   daily.capacityAtTime(86400000 + 5000000);                          // <10240, 10>
//   RleSparseResourceAllocation days = daily.rangeOverlapping(0, 3 * 86400000);  // unrolled
//
//   // What an agent found for one instance, folded into the period:
//   auto weekly = PeriodicRleSparseResourceAllocation::fold(allocations, 604800000);
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.
// PeriodicRLESparseResourceAllocation (Hadoop 3.x):
//  1. capacityAtTime(t) = base(t mod period) (a floor modulo: negative times wrap as well);
//  2. addInterval / removeInterval take intervals inside [0, period]; anything else is refused
//     (YARN logs and returns false). removeInterval also refuses to take away more than the
//     least value in force over the interval, so the base never goes negative;
//  3. rangeOverlapping(start, end) unrolls the base over [start, end], carrying in the value
//     in force at start and ending with `end -> undefined`, so the result merges with
//     ordinary skylines;
//  4. maximumPeriodicCapacity(tick, p) is the largest of base(tick), base(tick + p), ... inside
//     one period (getMaximumPeriodicCapacity).
// fold() differs from YARN's wrapping constructor on purpose: every part of an interval that
// crosses a period boundary is added at its place modulo the period (an allocation longer than
// a period adds up with itself), where YARN's constructor rewrites the keys past the period
// and can lose or misplace the wrapped part. See docs/compatibility.md.
//
// Not thread-safe; owned by a reservation or by the plan.
#pragma once

#include <cstdint>
#include <string>

#include "reservation/planning_status.h"
#include "reservation/rle_sparse_resource_allocation.h"

namespace spindle::reservation {

class PeriodicRleSparseResourceAllocation {
 public:
  using Points = RleSparseResourceAllocation::Points;

  // periodMs > 0.
  explicit PeriodicRleSparseResourceAllocation(int64_t periodMs);
  // The sum of `allocations` (absolute times) folded modulo periodMs.
  static PeriodicRleSparseResourceAllocation fold(const IntervalAllocations& allocations,
                                                  int64_t periodMs);

  int64_t period() const { return period_; }
  const RleSparseResourceAllocation& base() const { return base_; }
  bool isEmpty() const { return base_.isEmpty(); }

  // `interval` must lie inside [0, period] and be non-empty: kIllegalArgument otherwise.
  PlanStatus addInterval(const ReservationInterval& interval, const Resource& r);
  // As addInterval; also refused when r does not fit in the least value over the interval.
  PlanStatus removeInterval(const ReservationInterval& interval, const Resource& r);
  // Adds / subtracts another skyline's base; `other` must have the same period (the plan keeps
  // one sum per period). O(k log n) for k breakpoints of other.
  void add(const PeriodicRleSparseResourceAllocation& other);
  void subtract(const PeriodicRleSparseResourceAllocation& other);

  Resource capacityAtTime(int64_t t) const;
  // The base unrolled over [start, end] (start <= end): the value in force at start under key
  // start, then every change inside (start, end), equal neighbours folded, and (when
  // end > start) `end -> undefined` as a merge ends its range.
  void unrollInto(int64_t start, int64_t end, Points& out) const;
  RleSparseResourceAllocation rangeOverlapping(int64_t start, int64_t end) const;
  // The largest value (under calc) in force anywhere in [start, end); zero when end <= start.
  Resource maxOverRange(const ResourceCalculator& calc, const Resource& cluster, int64_t start,
                        int64_t end) const;
  // The largest (under calc) of the values at tick, tick + p, tick + 2p, ... within one period
  // from tick; with p >= period, the value at tick.
  Resource maximumPeriodicCapacity(const ResourceCalculator& calc, const Resource& cluster,
                                   int64_t tick, int64_t p) const;

  bool operator==(const PeriodicRleSparseResourceAllocation&) const = default;
  // "Period: p {base}" for test failures.
  std::string toString() const;

 private:
  PlanStatus checkInterval(const ReservationInterval& interval) const;
  int64_t period_;
  RleSparseResourceAllocation base_;
};

// t mod period in [0, period).
inline int64_t floorMod(int64_t t, int64_t period) {
  int64_t m = t % period;
  return m < 0 ? m + period : m;
}

}  // namespace spindle::reservation
