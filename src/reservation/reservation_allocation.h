// One accepted (or candidate) reservation: the contract, who asked, and the skyline the agent
// found for it.
//
//   ReservationAllocation alloc(id, def, "alice", "dedicated", def.arrival, def.deadline,
//                               {{{5000, 15000}, Resource::of(20480, 20)}});
//   alloc.resourcesAtTime(6000);       // <20480, 20>
//   plan.addReservation(std::move(alloc));
//
// Mirrors InMemoryReservationAllocation. Since Hadoop 3.x an agent-made reservation spans the
// contract's [arrival, deadline), not the bounds of its allocation, so it is "current" (and
// its queue exists at capacity 0) from its arrival. Immutable once built, except for the
// acceptance time the plan stamps on it.
#pragma once

#include <cstdint>
#include <string>

#include "reservation/reservation_definition.h"
#include "reservation/rle_sparse_resource_allocation.h"

namespace spindle::reservation {

class ReservationAllocation {
 public:
  ReservationAllocation(ReservationId id, ReservationDefinition definition, std::string user,
                        std::string planName, int64_t startTime, int64_t endTime,
                        IntervalAllocations allocations, int64_t periodicity = 0);

  const ReservationId& id() const { return id_; }
  const ReservationDefinition& definition() const { return definition_; }
  const std::string& user() const { return user_; }
  const std::string& planName() const { return planName_; }
  int64_t startTime() const { return startTime_; }
  int64_t endTime() const { return endTime_; }
  ReservationInterval interval() const { return {startTime_, endTime_}; }
  // The intervals as the agent returned them (zero padding included).
  const IntervalAllocations& allocationRequests() const { return allocations_; }
  const RleSparseResourceAllocation& resourcesOverTime() const { return skyline_; }
  RleSparseResourceAllocation resourcesOverTime(int64_t start, int64_t end) const {
    return skyline_.rangeOverlapping(start, end);
  }
  Resource resourcesAtTime(int64_t t) const;
  // True when a stage asks for gangs (concurrency > 1): the plan follower then caps the
  // reservation queue's maximum capacity at its guaranteed capacity.
  bool containsGangs() const { return containsGangs_; }
  int64_t periodicity() const { return periodicity_; }
  int64_t acceptanceTime() const { return acceptanceTime_; }
  void setAcceptanceTime(int64_t t) { acceptanceTime_ = t; }

 private:
  ReservationId id_;
  ReservationDefinition definition_;
  std::string user_;
  std::string planName_;
  int64_t startTime_;
  int64_t endTime_;
  IntervalAllocations allocations_;
  RleSparseResourceAllocation skyline_;
  bool containsGangs_ = false;
  int64_t periodicity_ = 0;
  int64_t acceptanceTime_ = 0;
};

}  // namespace spindle::reservation
