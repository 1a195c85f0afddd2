// Run-length-encoded skylines of resources over time: the plan's committed load, each user's
// load, each reservation's allocation, and the temporary availability the agents search.
//
//   RleSparseResourceAllocation load;
//   load.addInterval({100, 200}, Resource::of(10240, 10));     // [100, 200): 10 GB
//   load.capacityAtTime(150);                                  // <10240, 10>
//   auto free = RleSparseResourceAllocation::merge(calc, cap, capacityRle, load,
//                                                  RleOperator::kSubtractTestNonNegative, 0, 500);
//   if (!free) ...;   // PlanningException: the plan is over-committed somewhere in [0, 500]
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.RLESparseResourceAllocation.
// The skyline is a sorted map time -> value; a value holds from its key to the next key. A value
// may be undefined (YARN's null), which marks the end of the defined range: merge() writes one
// at the end of its range. Behaviour kept from YARN on purpose (the vectors depend on it):
//  1. removeInterval() can leave negative values; nothing clamps them.
//  2. merge() with kMin / kMax picks a whole operand through the ResourceCalculator (memory
//     only for the default calculator, dominant share for DRF), not a componentwise min / max.
//  3. merge() clamps breakpoints before its range to the range start, carries in the value in
//     force at the start, drops consecutive equal values and ends with `end -> undefined`. An
//     undefined operand (before its first key, or null) yields the other operand (negated for
//     kSubtract only); both undefined yield undefined.
//  4. An empty first operand makes kSubtract / kSubtractTestNonNegative return the negated
//     second operand (the latter failing when a negated value is <= 0 everywhere and not zero).
//
// Invariant (for skylines built by addInterval / removeInterval): no two consecutive keys carry
// equal values, so the breakpoints are exactly the times where the value changes (the first
// key is kept even when zero, as YARN keeps it). addInterval / removeInterval cost
// O(log n + k) for k breakpoints inside the interval: YARN re-merges the whole map instead.
//
// Not thread-safe; the plan owns its skylines and serialises access.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reservation/planning_status.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle::reservation {

// Half-open [start, end), in ms. Mirrors ReservationInterval (ordered by start, then end).
struct ReservationInterval {
  int64_t start = 0;
  int64_t end = 0;
  auto operator<=>(const ReservationInterval&) const = default;
};

// An allocation as intervals and what each holds; intervals may overlap (they add up).
using IntervalAllocations = std::vector<std::pair<ReservationInterval, Resource>>;

// RLESparseResourceAllocation.RLEOperator.
enum class RleOperator { kAdd, kSubtract, kMin, kMax, kSubtractTestNonNegative };

class RleSparseResourceAllocation {
 public:
  using Value = std::optional<Resource>;  // nullopt: undefined (YARN's null)
  using Map = std::map<int64_t, Value>;

  RleSparseResourceAllocation() = default;
  explicit RleSparseResourceAllocation(Map cumulative) : points_(std::move(cumulative)) {}
  // Sum of every interval of `allocations`.
  static RleSparseResourceAllocation fromIntervals(const IntervalAllocations& allocations);

  // Adds / subtracts r over [interval.start, interval.end). A zero r, or an empty interval, is
  // a no-op. O(log n + k).
  void addInterval(const ReservationInterval& interval, const Resource& r);
  void removeInterval(const ReservationInterval& interval, const Resource& r);

  // The value in force at t (floor entry), zero before the first key or where undefined.
  Resource capacityAtTime(int64_t t) const;
  // No entries, or only a zero first entry (optionally followed by undefined).
  bool isEmpty() const;
  // First key, or -1 when there is none.
  int64_t earliestStartTime() const;
  // The last key, or the one before it when the last value is undefined; -1 when empty.
  int64_t latestNonNullTime() const;
  // Entries from floor(start) up to end inclusive (getRangeOverlapping): the value in force at
  // `start` is carried in under its original key.
  RleSparseResourceAllocation rangeOverlapping(int64_t start, int64_t end) const;
  // [key_i, key_{i+1}) -> value(key_i) for each right key whose value is defined (toIntervalMap);
  // zero-valued intervals are kept, undefined left values skipped.
  IntervalAllocations toIntervalMap() const;
  // The largest value (under calc) in force anywhere in [start, end); zero when nothing is.
  Resource maxOverRange(const ResourceCalculator& calc, const Resource& cluster, int64_t start,
                        int64_t end) const;

  const Map& cumulative() const { return points_; }
  size_t size() const { return points_.size(); }
  bool operator==(const RleSparseResourceAllocation&) const = default;
  // "{t: <memory:m, vCores:v>, ..., t: null}" for test failures.
  std::string toString() const;

  // Combines a and b over [start, end] as described above (RLESparseResourceAllocation.merge).
  // Fails with PlanningException for kSubtractTestNonNegative when b does not fit in a
  // componentwise at some breakpoint.
  // Sorted (time, value) entries: what merge() holds, without the map's nodes. Hot paths chain
  // merges on Points and build a map only where they must edit the result.
  using Points = std::vector<std::pair<int64_t, Value>>;
  static RleSparseResourceAllocation fromPoints(const Points& points) {
    return RleSparseResourceAllocation(Map(points.begin(), points.end()));
  }
  // merge() into `out` (cleared first; it must not be an operand), from skylines or Points.
  static PlanStatus mergeInto(const ResourceCalculator& calc, const Resource& cluster,
                              const RleSparseResourceAllocation& a,
                              const RleSparseResourceAllocation& b, RleOperator op, int64_t start,
                              int64_t end, Points& out);
  static PlanStatus mergeInto(const ResourceCalculator& calc, const Resource& cluster,
                              const Points& a, const RleSparseResourceAllocation& b, RleOperator op,
                              int64_t start, int64_t end, Points& out);
  static PlanStatus mergeInto(const ResourceCalculator& calc, const Resource& cluster,
                              const RleSparseResourceAllocation& a, const Points& b, RleOperator op,
                              int64_t start, int64_t end, Points& out);
  static PlanStatus mergeInto(const ResourceCalculator& calc, const Resource& cluster,
                              const Points& a, const Points& b, RleOperator op, int64_t start,
                              int64_t end, Points& out);

  static PlanResult<RleSparseResourceAllocation> merge(const ResourceCalculator& calc,
                                                       const Resource& cluster,
                                                       const RleSparseResourceAllocation& a,
                                                       const RleSparseResourceAllocation& b,
                                                       RleOperator op, int64_t start, int64_t end);

 private:
  void shiftInterval(const ReservationInterval& interval, const Resource& r, bool add);
  Map points_;
};

}  // namespace spindle::reservation
