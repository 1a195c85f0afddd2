// Stage allocators: place one stage (ReservationRequest) of a reservation inside a window of
// the plan, on top of the tentative allocations of the stages already placed.
//
//   StageAllocatorGreedyRle greedy(/*allocateLeft=*/true);
//   StageContext ctx{plan, planLoads, planModifications, "alice", std::nullopt};
//   auto placed = greedy.computeStageAllocation(ctx, stage, 5000, 20000);
//   if (placed && *placed) ...   // intervals -> resources; planModifications now includes them
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.{StageAllocator,
// StageAllocatorGreedy, StageAllocatorGreedyRLE, StageAllocatorLowCostAligned}. Common terms:
// G = capability * concurrency (one gang), k = numContainers / concurrency gangs, D = the
// duration rounded up to the plan step, net = the plan's availability for the user over the
// window minus planModifications; "how many gangs fit" is floor(calc.divide(capacity, net, G)),
// memory only under the default calculator. On success an allocator adds its intervals to
// planModifications; on failure it leaves planModifications as it found it and returns nullopt.
// An error is a PlanningException from the plan (e.g. the plan is already over-committed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reservation/in_memory_plan.h"
#include "reservation/reservation_definition.h"
#include "reservation/rle_sparse_resource_allocation.h"

namespace spindle::reservation {

// What every stage of one planning call shares.
struct StageContext {
  const InMemoryPlan& plan;
  // The plan's committed load over the job's window, minus the replaced version (LowCost's
  // costs); empty for allocators that do not need it.
  const RleSparseResourceAllocation& planLoads;
  // Tentative allocations of the stages placed so far in this call.
  RleSparseResourceAllocation& planModifications;
  const std::string& user;
  std::optional<ReservationId> oldId;
  // The reservation's recurrence (0: not periodic): availability is then what is free in
  // every one of its periods (getAvailableResourceOverTime with a period).
  int64_t period = 0;
};

using StageAllocation = std::optional<IntervalAllocations>;

class StageAllocator {
 public:
  virtual ~StageAllocator() = default;
  virtual const char* name() const = 0;
  virtual bool needsPlanLoads() const { return false; }
  virtual PlanResult<StageAllocation> computeStageAllocation(StageContext& ctx,
                                                             const ReservationRequest& stage,
                                                             int64_t stageArrival,
                                                             int64_t stageDeadline) const = 0;
};

// The original GREE allocator (right only), one plan step at a time:
//  while k > 0 and sd - D >= sa:
//   1. scan t = sd - step down to sd - D for the fewest gangs that fit (capped at k), keeping
//      the latest such slot;
//   2. place that many gangs on [sd - D, sd);
//   3. sd = min(that slot, sd - step).
class StageAllocatorGreedy : public StageAllocator {
 public:
  const char* name() const override { return "StageAllocatorGreedy"; }
  PlanResult<StageAllocation> computeStageAllocation(StageContext& ctx,
                                                     const ReservationRequest& stage,
                                                     int64_t stageArrival,
                                                     int64_t stageDeadline) const override;
};

// GREE over the RLE breakpoints (the greedy agent's allocator and the aligned agent's fallback):
//  1. fail fast when sa + rawDuration > sd;
//  2. left mode, while k > 0 and sa + D <= sd: m = the fewest gangs that fit at any breakpoint
//     of net in [sa, sa + D) (capped at k; the last breakpoint reaching it is the constraint);
//     place m gangs on [sa, sa + D) (taking them out of net); sa = min(the breakpoint after the
//     constraint, sa + D);
//  3. right mode mirrors it from the deadline: windows [sd - D, sd), breakpoints scanned from
//     the latest (the earliest breakpoint reaching the minimum is the constraint), and
//     sd = max(constraint, sd - D);
//  4. success when k reaches 0: the placed windows (they may overlap and add up).
class StageAllocatorGreedyRle : public StageAllocator {
 public:
  explicit StageAllocatorGreedyRle(bool allocateLeft) : allocateLeft_(allocateLeft) {}
  const char* name() const override { return "StageAllocatorGreedyRLE"; }
  PlanResult<StageAllocation> computeStageAllocation(StageContext& ctx,
                                                     const ReservationRequest& stage,
                                                     int64_t stageArrival,
                                                     int64_t stageDeadline) const override;

 private:
  bool allocateLeft_;
};

// LowCost: spread the stage over non-overlapping D-long blocks aligned to sd (right) or sa
// (left), cheapest block first.
//  1. blocks = floor((sd - sa) / D); none: fail;
//  2. maxGangsPerUnit = max(max(k / blocks, 1) / smoothness, 1) (integer division);
//  3. a block's cost is the sum over its steps of calc.ratio(planLoads + planModifications,
//     capacity); its fit the fewest gangs that fit in net - planModifications over it;
//  4. blocks with fit > 0, ordered by cost, ties to the latest end (right) / earliest (left);
//  5. take the cheapest, place min(maxGangsPerUnit, remaining, fit) gangs, re-cost it, and put
//     it back while it still fits; fail if the blocks run out first.
// The cost of a block is summed per RLE run (count of steps times the run's ratio) rather than
// step by step: the same value except for the last bits of very long sums.
class StageAllocatorLowCostAligned : public StageAllocator {
 public:
  StageAllocatorLowCostAligned(int smoothnessFactor, bool allocateLeft)
      : smoothness_(smoothnessFactor < 1 ? 1 : smoothnessFactor), allocateLeft_(allocateLeft) {}
  const char* name() const override { return "StageAllocatorLowCostAligned"; }
  bool needsPlanLoads() const override { return true; }
  PlanResult<StageAllocation> computeStageAllocation(StageContext& ctx,
                                                     const ReservationRequest& stage,
                                                     int64_t stageArrival,
                                                     int64_t stageDeadline) const override;

 private:
  int smoothness_;
  bool allocateLeft_;
};

// ceil(t / step) * step and floor(t / step) * step (PlanningAlgorithm.stepRoundUp / Down).
int64_t stepRoundUp(int64_t t, int64_t step);
int64_t stepRoundDown(int64_t t, int64_t step);
// floor(calc.divide(capacity, available, gang)) as a Java int: NaN is 0, infinities saturate.
int64_t gangsThatFit(const ResourceCalculator& calc, const Resource& capacity,
                     const Resource& available, const Resource& gang);

}  // namespace spindle::reservation
