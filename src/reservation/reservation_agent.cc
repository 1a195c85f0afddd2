#include "reservation/reservation_agent.h"

#include <algorithm>
#include <set>

namespace spindle::reservation {

namespace {

using Rle = RleSparseResourceAllocation;

constexpr std::string_view kPlanningPackage =
    "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.";

PlanStatus cannotBeSatisfied() {
  return PlanStatus(PlanErrorKind::kPlanning, "The request cannot be satisfied");
}

PlanStatus validateStage(const InMemoryPlan& plan, const ReservationRequest& rr) {
  if (rr.concurrency < 1) {
    return PlanStatus(PlanErrorKind::kContractValidation, "Gang Size should be >= 1");
  }
  if (rr.numContainers <= 0) {
    return PlanStatus(PlanErrorKind::kContractValidation, "Num containers should be > 0");
  }
  if (rr.numContainers % rr.concurrency != 0) {
    return PlanStatus(PlanErrorKind::kContractValidation,
                      "Parallelism must be an exact multiple of gang size");
  }
  if (plan.calculator().greaterThan(plan.totalCapacity(), rr.capability,
                                    plan.maximumAllocation())) {
    return PlanStatus(PlanErrorKind::kContractValidation,
                      "Individual capability requests should not exceed cluster's maxAlloc");
  }
  return PlanStatus::ok();
}

// R_ORDER_NO_GAP: the stage touches the allocation so far and is one contiguous block.
PlanStatus validateOrderNoGap(const Rle& placed, const IntervalAllocations& stage,
                              bool allocateLeft) {
  int64_t earliest = std::numeric_limits<int64_t>::max();
  int64_t latest = std::numeric_limits<int64_t>::min();
  std::set<int64_t> endpoints;
  auto toggle = [&](int64_t t) {
    if (!endpoints.erase(t)) endpoints.insert(t);
  };
  for (const auto& [interval, r] : stage) {
    if (r.isZero()) continue;
    earliest = std::min(earliest, interval.start);
    latest = std::max(latest, interval.end);
    toggle(interval.start);
    toggle(interval.end);
  }
  bool touches = true;
  if (!placed.isEmpty()) {
    touches = allocateLeft ? earliest <= placed.latestNonNullTime()
                           : latest >= placed.earliestStartTime();
  }
  if (!touches || endpoints.size() != 2) {
    return PlanStatus(PlanErrorKind::kPlanning,
                      "The allocation found for this stage does not respect ORDER_NO_GAP");
  }
  return PlanStatus::ok();
}

}  // namespace

IterativePlanner::IterativePlanner(std::unique_ptr<StageExecutionInterval> sei,
                                   std::unique_ptr<StageAllocator> allocator, bool allocateLeft)
    : sei_(std::move(sei)), allocator_(std::move(allocator)), allocateLeft_(allocateLeft) {}

PlanResult<Rle> IterativePlanner::computeJobAllocation(const InMemoryPlan& plan,
                                                       const ReservationId& id,
                                                       const ReservationDefinition& def,
                                                       const std::string& user) const {
  const int64_t step = plan.stepMs();
  const int64_t jobArrival = stepRoundUp(def.arrival, step);
  const int64_t jobDeadline = stepRoundDown(def.deadline, step);
  const ReservationAllocation* old = plan.reservationById(id);
  Result<int64_t> period = def.period();
  if (!period) return PlanStatus(PlanErrorKind::kContractValidation, period.status().message());
  Rle planLoads;
  if (allocator_->needsPlanLoads()) {
    SPINDLE_PLAN_ASSIGN_OR_RETURN(planLoads, plan.cumulativeLoadOverTime(jobArrival, jobDeadline));
    if (old != nullptr) {
      SPINDLE_PLAN_ASSIGN_OR_RETURN(planLoads,
                                    Rle::merge(plan.calculator(), plan.totalCapacity(), planLoads,
                                               old->resourcesOverTime(jobArrival, jobDeadline),
                                               RleOperator::kSubtract, jobArrival, jobDeadline));
    }
  }
  Rle planModifications;
  StageContext ctx{plan,
                   planLoads,
                   planModifications,
                   user,
                   old != nullptr ? std::optional<ReservationId>(id) : std::nullopt,
                   *period};
  Rle allocations;
  const size_t n = def.stages.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t s = allocateLeft_ ? i : n - 1 - i;
    const ReservationRequest& rr = def.stages[s];
    SPINDLE_PLAN_RETURN_IF_ERROR(validateStage(plan, rr));
    ReservationInterval w =
        sei_->computeExecutionInterval(plan, def, s, allocateLeft_, allocations);
    SPINDLE_PLAN_ASSIGN_OR_RETURN(StageAllocation stage,
                                  allocator_->computeStageAllocation(ctx, rr, w.start, w.end));
    if (!stage) {
      if (def.interpreter == Interpreter::kAny) continue;
      return cannotBeSatisfied();
    }
    if (def.interpreter == Interpreter::kOrderNoGap) {
      SPINDLE_PLAN_RETURN_IF_ERROR(validateOrderNoGap(allocations, *stage, allocateLeft_));
    }
    for (const auto& [interval, r] : *stage) allocations.addInterval(interval, r);
    if (def.interpreter == Interpreter::kAny) break;
  }
  if (allocations.isEmpty()) return cannotBeSatisfied();
  return allocations;
}

PlanResult<ReservationAllocation> IterativePlanner::allocate(
    const ReservationId& id, const std::string& user, const InMemoryPlan& plan,
    const ReservationDefinition& def) const {
  SPINDLE_PLAN_ASSIGN_OR_RETURN(Rle job, computeJobAllocation(plan, id, def, user));
  IntervalAllocations intervals = job.toIntervalMap();
  if (intervals.empty()) {
    return PlanStatus(PlanErrorKind::kPlanning,
                      "The planning algorithm could not find a valid allocation for your request");
  }
  // Pad to the contract's span with zero intervals, as the reservation spans it.
  if (def.arrival < intervals.front().first.start) {
    intervals.insert(intervals.begin(),
                     {ReservationInterval{def.arrival, intervals.front().first.start}, Resource()});
  }
  if (intervals.back().first.end < def.deadline) {
    intervals.push_back(
        {ReservationInterval{intervals.back().first.end, def.deadline}, Resource()});
  }
  // A periodic reservation keeps this allocation folded into its period (PlanningAlgorithm
  // wraps it in a PeriodicRLESparseResourceAllocation).
  // (computeJobAllocation has refused a recurrence that does not parse.)
  Result<int64_t> period = def.period();
  return ReservationAllocation(id, def, user, plan.queueName(), def.arrival, def.deadline,
                               std::move(intervals), period ? *period : 0);
}

PlanStatus IterativePlanner::createReservation(const ReservationId& id, const std::string& user,
                                               InMemoryPlan& plan,
                                               const ReservationDefinition& def) {
  SPINDLE_PLAN_ASSIGN_OR_RETURN(ReservationAllocation alloc, allocate(id, user, plan, def));
  return plan.addReservation(std::move(alloc));
}

PlanStatus IterativePlanner::updateReservation(const ReservationId& id, const std::string& user,
                                               InMemoryPlan& plan,
                                               const ReservationDefinition& def) {
  SPINDLE_PLAN_ASSIGN_OR_RETURN(ReservationAllocation alloc, allocate(id, user, plan, def));
  return plan.updateReservation(std::move(alloc));
}

PlanStatus TryManyReservationAgents::createReservation(const ReservationId& id,
                                                       const std::string& user, InMemoryPlan& plan,
                                                       const ReservationDefinition& def) {
  PlanStatus last = cannotBeSatisfied();
  for (auto& agent : agents_) {
    PlanStatus s = agent->createReservation(id, user, plan, def);
    if (s) return s;
    if (!s.isPlanningException()) return s;
    last = s;
  }
  return last;
}

PlanStatus TryManyReservationAgents::updateReservation(const ReservationId& id,
                                                       const std::string& user, InMemoryPlan& plan,
                                                       const ReservationDefinition& def) {
  PlanStatus last = cannotBeSatisfied();
  for (auto& agent : agents_) {
    PlanStatus s = agent->updateReservation(id, user, plan, def);
    if (s) return s;
    if (!s.isPlanningException()) return s;
    last = s;
  }
  return last;
}

GreedyReservationAgent::GreedyReservationAgent(const AgentSettings& settings)
    : IterativePlanner(std::make_unique<StageExecutionIntervalUnconstrained>(),
                       std::make_unique<StageAllocatorGreedyRle>(settings.favorEarlyAllocation),
                       settings.favorEarlyAllocation) {}

namespace {

std::vector<std::unique_ptr<ReservationAgent>> alignedThenGreedy(const AgentSettings& s) {
  std::vector<std::unique_ptr<ReservationAgent>> agents;
  agents.push_back(std::make_unique<IterativePlanner>(
      std::make_unique<StageExecutionIntervalByDemand>(),
      std::make_unique<StageAllocatorLowCostAligned>(s.smoothnessFactor, s.favorEarlyAllocation),
      s.favorEarlyAllocation));
  agents.push_back(std::make_unique<IterativePlanner>(
      std::make_unique<StageExecutionIntervalUnconstrained>(),
      std::make_unique<StageAllocatorGreedyRle>(s.favorEarlyAllocation), s.favorEarlyAllocation));
  return agents;
}

std::string_view simpleName(std::string_view className) {
  while (!className.empty() && std::isspace(static_cast<unsigned char>(className.front()))) {
    className.remove_prefix(1);
  }
  while (!className.empty() && std::isspace(static_cast<unsigned char>(className.back()))) {
    className.remove_suffix(1);
  }
  if (className.starts_with(kPlanningPackage)) className.remove_prefix(kPlanningPackage.size());
  return className;
}

}  // namespace

AlignedPlannerWithGreedy::AlignedPlannerWithGreedy(const AgentSettings& settings)
    : TryManyReservationAgents(alignedThenGreedy(settings)) {}

Result<std::unique_ptr<ReservationAgent>> makeReservationAgent(std::string_view className,
                                                               const AgentSettings& settings) {
  std::string_view name = simpleName(className);
  if (name == "GreedyReservationAgent") {
    return std::unique_ptr<ReservationAgent>(std::make_unique<GreedyReservationAgent>(settings));
  }
  if (name == "AlignedPlannerWithGreedy") {
    return std::unique_ptr<ReservationAgent>(std::make_unique<AlignedPlannerWithGreedy>(settings));
  }
  return invalidArgument("unknown reservation-agent '{}': expected {} or {}", className,
                         kGreedyReservationAgentClass, kAlignedPlannerWithGreedyClass);
}

}  // namespace spindle::reservation
