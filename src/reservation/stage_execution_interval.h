// Where a stage may run: the window [arrival, deadline) handed to the stage allocator.
//
//   StageExecutionIntervalUnconstrained sei;
//   ReservationInterval w = sei.computeExecutionInterval(plan, def, /*stage=*/1,
//                                                        /*allocateLeft=*/true, placedSoFar);
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.{
// StageExecutionInterval, StageExecutionIntervalUnconstrained, StageExecutionIntervalByDemand}
// (Hadoop 2.x called them StageEarliestStartByJobArrival / StageEarliestStartByDemand).
#pragma once

#include <cstddef>

#include "reservation/in_memory_plan.h"
#include "reservation/reservation_definition.h"
#include "reservation/rle_sparse_resource_allocation.h"

namespace spindle::reservation {

class StageExecutionInterval {
 public:
  virtual ~StageExecutionInterval() = default;
  // `placed` is the job's allocation from the stages already placed in this call.
  virtual ReservationInterval computeExecutionInterval(
      const InMemoryPlan& plan, const ReservationDefinition& def, size_t stage, bool allocateLeft,
      const RleSparseResourceAllocation& placed) const = 0;
};

// R_ANY / R_ALL: the contract's raw [arrival, deadline) (not rounded to the step). R_ORDER and
// R_ORDER_NO_GAP: left mode starts where the allocation so far ends; right mode ends where it
// starts.
class StageExecutionIntervalUnconstrained : public StageExecutionInterval {
 public:
  ReservationInterval computeExecutionInterval(
      const InMemoryPlan& plan, const ReservationDefinition& def, size_t stage, bool allocateLeft,
      const RleSparseResourceAllocation& placed) const override;
};

// As Unconstrained for R_ANY / R_ALL. For the ordered interpreters it gives the stage a share of
// the slack in proportion to its demand:
//  1. W = the Unconstrained window;
//  2. rem = |W| - the sum of the rounded durations of the stages not yet placed (this one
//     included); ratio = weight(this) / sum of their weights, weight = duration * memory *
//     numContainers;
//  3. right mode: [roundUp(W.end - D - rem * ratio), W.end); left mode:
//     [W.start, roundDown(W.start + D + rem * ratio)).
class StageExecutionIntervalByDemand : public StageExecutionInterval {
 public:
  ReservationInterval computeExecutionInterval(
      const InMemoryPlan& plan, const ReservationDefinition& def, size_t stage, bool allocateLeft,
      const RleSparseResourceAllocation& placed) const override;
};

}  // namespace spindle::reservation
