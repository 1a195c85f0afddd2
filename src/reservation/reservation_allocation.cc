#include "reservation/reservation_allocation.h"

#include <limits>

namespace spindle::reservation {

ReservationAllocation::ReservationAllocation(ReservationId id, ReservationDefinition definition,
                                             std::string user, std::string planName,
                                             int64_t startTime, int64_t endTime,
                                             IntervalAllocations allocations, int64_t periodicity)
    : id_(id),
      definition_(std::move(definition)),
      user_(std::move(user)),
      planName_(std::move(planName)),
      startTime_(startTime),
      endTime_(endTime),
      periodicity_(periodicity > 0 ? periodicity : 0) {
  if (periodicity_ > 0) {
    periodic_ = PeriodicRleSparseResourceAllocation::fold(allocations, periodicity_);
    allocations_ = periodic_->base().toIntervalMap();
  } else {
    allocations_ = std::move(allocations);
    skyline_ = RleSparseResourceAllocation::fromIntervals(allocations_);
  }
  for (const ReservationRequest& r : definition_.stages) containsGangs_ |= r.concurrency > 1;
}

Resource ReservationAllocation::resourcesAtTime(int64_t t) const {
  if (t < startTime_) return Resource();
  if (periodic_) return periodic_->capacityAtTime(t);
  if (t >= endTime_) return Resource();
  return skyline_.capacityAtTime(t);
}

RleSparseResourceAllocation ReservationAllocation::resourcesOverTime(int64_t start,
                                                                     int64_t end) const {
  if (periodic_) return periodic_->rangeOverlapping(start, end);
  return skyline_.rangeOverlapping(start, end);
}

void ReservationAllocation::resourcesOverTimeInto(int64_t start, int64_t end,
                                                  RleSparseResourceAllocation::Points& out) const {
  if (periodic_) {
    periodic_->unrollInto(start, end, out);
    return;
  }
  const RleSparseResourceAllocation range = skyline_.rangeOverlapping(start, end);
  out.assign(range.cumulative().begin(), range.cumulative().end());
}

bool ReservationAllocation::overlaps(const ReservationInterval& interval) const {
  if (startTime_ > interval.end) return false;
  if (!periodic_) return endTime_ > interval.start;
  const int64_t length = endTime_ - startTime_;
  if (length <= 0) return false;
  if (length >= periodicity_) return true;  // the instances tile time from the start
  // The first instance ending after interval.start must start by interval.end.
  int64_t first = startTime_;
  if (interval.start >= startTime_ + length) {
    const int64_t k = (interval.start - startTime_ - length) / periodicity_ + 1;
    if (k > (std::numeric_limits<int64_t>::max() - startTime_) / periodicity_) return false;
    first += k * periodicity_;
  }
  return first <= interval.end;
}

}  // namespace spindle::reservation
