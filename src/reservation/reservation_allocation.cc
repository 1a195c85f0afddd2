#include "reservation/reservation_allocation.h"

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
      allocations_(std::move(allocations)),
      skyline_(RleSparseResourceAllocation::fromIntervals(allocations_)),
      periodicity_(periodicity) {
  for (const ReservationRequest& r : definition_.stages) containsGangs_ |= r.concurrency > 1;
}

Resource ReservationAllocation::resourcesAtTime(int64_t t) const {
  if (t < startTime_ || t >= endTime_) return Resource();
  return skyline_.capacityAtTime(t);
}

}  // namespace spindle::reservation
