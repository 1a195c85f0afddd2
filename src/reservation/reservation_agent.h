// Reservation agents: find an allocation for a reservation's definition in a plan, then add it
// (the plan's sharing policy has the last word).
//
//   auto agent = makeReservationAgent(kAlignedPlannerWithGreedyClass,
//                                     AgentSettings{.favorEarlyAllocation = true}).value();
//   PlanStatus s = agent->createReservation(id, "alice", plan, definition);
//   // s.kind(): kNone (accepted), kPlanning ("The request cannot be satisfied"),
//   //           kPlanningQuota / kResourceOverCommit (the policy refused), ...
//
// Mirrors org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.{ReservationAgent,
// PlanningAlgorithm, IterativePlanner, GreedyReservationAgent, AlignedPlannerWithGreedy,
// TryManyReservationAgents} (Hadoop 3.x). A refused create or update leaves the plan exactly as
// it was. Agents keep no state between calls beyond their settings. A periodic definition
// (recurrence > 0) is planned in its first window against what is free in every period, and
// its allocation is folded into the period (PlanningAlgorithm.allocateUser).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reservation/in_memory_plan.h"
#include "reservation/reservation_definition.h"
#include "reservation/stage_allocator.h"
#include "reservation/stage_execution_interval.h"

namespace spindle::reservation {

inline constexpr const char* kGreedyReservationAgentClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.GreedyReservationAgent";
inline constexpr const char* kAlignedPlannerWithGreedyClass =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.AlignedPlannerWithGreedy";

struct AgentSettings {
  bool favorEarlyAllocation =
      true;                   // yarn.resourcemanager.reservation-system.favor-early-allocation
  int smoothnessFactor = 10;  // yarn.resourcemanager.reservation-system.smoothness-factor
};

class ReservationAgent {
 public:
  virtual ~ReservationAgent() = default;
  virtual const char* className() const = 0;
  virtual PlanStatus createReservation(const ReservationId& id, const std::string& user,
                                       InMemoryPlan& plan, const ReservationDefinition& def) = 0;
  virtual PlanStatus updateReservation(const ReservationId& id, const std::string& user,
                                       InMemoryPlan& plan, const ReservationDefinition& def) = 0;
  virtual PlanStatus deleteReservation(const ReservationId& id, const std::string& user,
                                       InMemoryPlan& plan) {
    (void)user;
    return plan.deleteReservation(id);
  }
};

// PlanningAlgorithm + IterativePlanner: one stage at a time, no backtracking.
//  1. planModifications starts empty; planLoads = committed load over
//     [roundUp(arrival), roundDown(deadline)] minus the replaced version;
//  2. stages forward when allocating left, backward otherwise;
//  3. each stage: validate it (ContractValidationException: "Gang Size should be >= 1",
//     "Parallelism must be an exact multiple of gang size", containers > 0, capability within
//     the maximum allocation), take its window from the StageExecutionInterval, ask the
//     StageAllocator; no allocation: R_ANY tries the next stage, the others fail with
//     "The request cannot be satisfied"; R_ORDER_NO_GAP also requires the stage to be one block
//     touching the allocation so far ("... does not respect ORDER_NO_GAP");
//  4. R_ANY stops at its first placed stage; an empty allocation fails;
//  5. the reservation spans the contract's [arrival, deadline) and is added to (or replaces
//     its version in) the plan; with a recurrence, the stages see the availability of every
//     period (StageContext::period) and the allocation is folded into the period.
class IterativePlanner : public ReservationAgent {
 public:
  IterativePlanner(std::unique_ptr<StageExecutionInterval> sei,
                   std::unique_ptr<StageAllocator> allocator, bool allocateLeft);
  const char* className() const override { return "IterativePlanner"; }
  PlanStatus createReservation(const ReservationId& id, const std::string& user, InMemoryPlan& plan,
                               const ReservationDefinition& def) override;
  PlanStatus updateReservation(const ReservationId& id, const std::string& user, InMemoryPlan& plan,
                               const ReservationDefinition& def) override;
  // The job's allocation, without touching the plan.
  PlanResult<RleSparseResourceAllocation> computeJobAllocation(const InMemoryPlan& plan,
                                                               const ReservationId& id,
                                                               const ReservationDefinition& def,
                                                               const std::string& user) const;

 private:
  PlanResult<ReservationAllocation> allocate(const ReservationId& id, const std::string& user,
                                             const InMemoryPlan& plan,
                                             const ReservationDefinition& def) const;
  std::unique_ptr<StageExecutionInterval> sei_;
  std::unique_ptr<StageAllocator> allocator_;
  bool allocateLeft_;
};

// Tries each agent in order; the first success wins. If every one failed with a
// PlanningException, the last one's is returned; any other error is returned at once.
class TryManyReservationAgents : public ReservationAgent {
 public:
  explicit TryManyReservationAgents(std::vector<std::unique_ptr<ReservationAgent>> agents)
      : agents_(std::move(agents)) {}
  const char* className() const override { return "TryManyReservationAgents"; }
  PlanStatus createReservation(const ReservationId& id, const std::string& user, InMemoryPlan& plan,
                               const ReservationDefinition& def) override;
  PlanStatus updateReservation(const ReservationId& id, const std::string& user, InMemoryPlan& plan,
                               const ReservationDefinition& def) override;

 private:
  std::vector<std::unique_ptr<ReservationAgent>> agents_;
};

// GREE: IterativePlanner(Unconstrained, StageAllocatorGreedyRLE). Early placement by default
// (favor-early-allocation = true); the paper's "as late as possible" GREE is allocateLeft false.
class GreedyReservationAgent : public IterativePlanner {
 public:
  explicit GreedyReservationAgent(const AgentSettings& settings);
  const char* className() const override { return kGreedyReservationAgentClass; }
};

// YARN's default agent: LowCost (IterativePlanner(ByDemand, StageAllocatorLowCostAligned))
// first, GREE (IterativePlanner(Unconstrained, StageAllocatorGreedyRLE)) as the fallback.
class AlignedPlannerWithGreedy : public TryManyReservationAgents {
 public:
  explicit AlignedPlannerWithGreedy(const AgentSettings& settings);
  const char* className() const override { return kAlignedPlannerWithGreedyClass; }
};

// By Hadoop class name, full or simple ("GreedyReservationAgent", "AlignedPlannerWithGreedy");
// InvalidArgument naming the value otherwise.
Result<std::unique_ptr<ReservationAgent>> makeReservationAgent(std::string_view className,
                                                               const AgentSettings& settings);

}  // namespace spindle::reservation
