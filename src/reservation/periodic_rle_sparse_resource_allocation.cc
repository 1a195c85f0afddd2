#include "reservation/periodic_rle_sparse_resource_allocation.h"

#include <algorithm>

namespace spindle::reservation {

namespace {

using Rle = RleSparseResourceAllocation;
using Points = RleSparseResourceAllocation::Points;

// Appends unless the value equals the last one; a repeated time overwrites.
void appendPoint(Points& out, int64_t t, const Resource& v) {
  if (!out.empty()) {
    auto& last = out.back();
    if (last.second && *last.second == v) return;
    if (last.first == t) {
      last.second = v;
      return;
    }
  }
  out.emplace_back(t, v);
}

}  // namespace

PeriodicRleSparseResourceAllocation::PeriodicRleSparseResourceAllocation(int64_t periodMs)
    : period_(periodMs > 0 ? periodMs : 1) {}

PeriodicRleSparseResourceAllocation PeriodicRleSparseResourceAllocation::fold(
    const IntervalAllocations& allocations, int64_t periodMs) {
  PeriodicRleSparseResourceAllocation out(periodMs);
  const int64_t p = out.period_;
  for (const auto& [interval, r] : allocations) {
    if (r.isZero() || interval.end <= interval.start) continue;
    int64_t length = interval.end - interval.start;
    // Whole periods first: each adds r everywhere.
    const int64_t whole = length / p;
    if (whole > 0) out.base_.addInterval({0, p}, r.times(whole));
    length -= whole * p;
    if (length == 0) continue;
    const int64_t s = floorMod(interval.start, p);
    if (s + length <= p) {
      out.base_.addInterval({s, s + length}, r);
    } else {  // wraps around the period's end
      out.base_.addInterval({s, p}, r);
      out.base_.addInterval({0, s + length - p}, r);
    }
  }
  return out;
}

PlanStatus PeriodicRleSparseResourceAllocation::checkInterval(
    const ReservationInterval& interval) const {
  if (interval.start < 0 || interval.end <= interval.start || interval.end > period_) {
    return planError(PlanErrorKind::kIllegalArgument,
                     "Interval [{}, {}) is not inside the period [0, {})", interval.start,
                     interval.end, period_);
  }
  return PlanStatus::ok();
}

PlanStatus PeriodicRleSparseResourceAllocation::addInterval(const ReservationInterval& interval,
                                                            const Resource& r) {
  SPINDLE_PLAN_RETURN_IF_ERROR(checkInterval(interval));
  base_.addInterval(interval, r);
  return PlanStatus::ok();
}

PlanStatus PeriodicRleSparseResourceAllocation::removeInterval(const ReservationInterval& interval,
                                                               const Resource& r) {
  SPINDLE_PLAN_RETURN_IF_ERROR(checkInterval(interval));
  // The least value in force over the interval, componentwise.
  Resource least = base_.capacityAtTime(interval.start);
  const auto& m = base_.cumulative();
  for (auto it = m.upper_bound(interval.start); it != m.end() && it->first < interval.end; ++it) {
    least = Resource::componentwiseMin(least, it->second.value_or(Resource()));
  }
  if (!r.fitsIn(least)) {
    return planError(PlanErrorKind::kIllegalArgument,
                     "Request to remove more resources than what is available: {} from {} over "
                     "[{}, {})",
                     r.toString(), least.toString(), interval.start, interval.end);
  }
  base_.removeInterval(interval, r);
  return PlanStatus::ok();
}

void PeriodicRleSparseResourceAllocation::add(const PeriodicRleSparseResourceAllocation& other) {
  for (const auto& [interval, r] : other.base_.toIntervalMap()) base_.addInterval(interval, r);
}

void PeriodicRleSparseResourceAllocation::subtract(
    const PeriodicRleSparseResourceAllocation& other) {
  for (const auto& [interval, r] : other.base_.toIntervalMap()) base_.removeInterval(interval, r);
}

Resource PeriodicRleSparseResourceAllocation::capacityAtTime(int64_t t) const {
  return base_.capacityAtTime(floorMod(t, period_));
}

void PeriodicRleSparseResourceAllocation::unrollInto(int64_t start, int64_t end,
                                                     Points& out) const {
  out.clear();
  if (end < start) return;
  const auto& m = base_.cumulative();
  appendPoint(out, start, capacityAtTime(start));
  const Resource atZero = base_.capacityAtTime(0);
  int64_t offset = start - floorMod(start, period_);  // the period holding start
  for (; !m.empty() && offset <= end; offset += period_) {
    if (offset > start) appendPoint(out, offset, atZero);
    for (auto it = m.begin(); it != m.end() && it->first < period_; ++it) {
      const int64_t t = offset + it->first;
      if (t <= start) continue;
      if (t > end) break;
      appendPoint(out, t, it->second.value_or(Resource()));
    }
    if (offset > end - period_) break;  // the next period starts after end (no overflow)
  }
  // The range ends as a merge's does, so the unrolled load stops at end (the integral check
  // walks to it).
  if (end > start) {
    if (out.back().first == end) {
      out.back().second.reset();
    } else {
      out.emplace_back(end, std::nullopt);
    }
  }
}

RleSparseResourceAllocation PeriodicRleSparseResourceAllocation::rangeOverlapping(
    int64_t start, int64_t end) const {
  Points p;
  unrollInto(start, end, p);
  return Rle::fromPoints(p);
}

Resource PeriodicRleSparseResourceAllocation::maxOverRange(const ResourceCalculator& calc,
                                                           const Resource& cluster, int64_t start,
                                                           int64_t end) const {
  if (end <= start) return Resource();
  if (end - start >= period_) return base_.maxOverRange(calc, cluster, 0, period_);
  const int64_t s = floorMod(start, period_);
  const int64_t e = s + (end - start);
  if (e <= period_) return base_.maxOverRange(calc, cluster, s, e);
  return calc.max(cluster, base_.maxOverRange(calc, cluster, s, period_),
                  base_.maxOverRange(calc, cluster, 0, e - period_));
}

Resource PeriodicRleSparseResourceAllocation::maximumPeriodicCapacity(
    const ResourceCalculator& calc, const Resource& cluster, int64_t tick, int64_t p) const {
  const int64_t first = floorMod(tick, period_);
  if (p <= 0 || p >= period_) return base_.capacityAtTime(first);
  Resource best = base_.capacityAtTime(first);
  for (int64_t t = first + p; t < period_; t += p) {
    best = calc.max(cluster, best, base_.capacityAtTime(t));
  }
  return best;
}

std::string PeriodicRleSparseResourceAllocation::toString() const {
  return fmt::format("Period: {} {}", period_, base_.toString());
}

}  // namespace spindle::reservation
