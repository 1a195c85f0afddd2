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
//
// A periodic reservation (periodicity > 0, the definition's recurrence) keeps its allocation
// folded into one period (PeriodicRLESparseResourceAllocation): the intervals given, absolute
// or already inside [0, periodicity), add up modulo the period, and allocationRequests() and
// resourcesOverTime() are that base over [0, periodicity), as YARN lists them. It repeats
// every period from its start until it is deleted: resourcesAtTime(t) is the base at
// t mod periodicity for every t >= start, and resourcesOverTime(start, end) unrolls it.
//
//   ReservationAllocation daily(id, def, "alice", "dedicated", arrival, arrival + 3600000,
//                               {{{arrival, arrival + 3600000}, Resource::of(10240, 10)}},
//                               /*periodicity=*/86400000);
//   daily.resourcesAtTime(arrival + 86400000);   // <10240, 10>, the next day
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reservation/periodic_rle_sparse_resource_allocation.h"
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
  // The intervals as the agent returned them (zero padding included); for a periodic
  // reservation, its base over [0, periodicity).
  const IntervalAllocations& allocationRequests() const { return allocations_; }
  // The skyline; for a periodic reservation its base over [0, periodicity).
  const RleSparseResourceAllocation& resourcesOverTime() const {
    return periodic_ ? periodic_->base() : skyline_;
  }
  // The skyline restricted to [start, end] (unrolled when periodic).
  RleSparseResourceAllocation resourcesOverTime(int64_t start, int64_t end) const;
  // The same as sorted points, for merges.
  void resourcesOverTimeInto(int64_t start, int64_t end,
                             RleSparseResourceAllocation::Points& out) const;
  Resource resourcesAtTime(int64_t t) const;
  bool isPeriodic() const { return periodic_.has_value(); }
  // The folded allocation of a periodic reservation; null otherwise.
  const PeriodicRleSparseResourceAllocation* periodicResources() const {
    return periodic_ ? &*periodic_ : nullptr;
  }
  // Whether one of the reservation's instances [start + j*periodicity, end + j*periodicity),
  // j >= 0 (only j = 0 when not periodic), starts at or before interval.end and ends after
  // interval.start (InMemoryPlan.getReservations).
  bool overlaps(const ReservationInterval& interval) const;
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
  std::optional<PeriodicRleSparseResourceAllocation> periodic_;
  bool containsGangs_ = false;
  int64_t periodicity_ = 0;
  int64_t acceptanceTime_ = 0;
};

}  // namespace spindle::reservation
