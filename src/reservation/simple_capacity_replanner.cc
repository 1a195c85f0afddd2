#include "reservation/simple_capacity_replanner.h"

#include <algorithm>
#include <limits>

namespace spindle::reservation {

PlanResult<std::vector<ReservationId>> SimpleCapacityReplanner::plan(InMemoryPlan& plan) {
  const ResourceCalculator& calc = plan.calculator();
  const int64_t now = plan.clock().nowMs();
  std::vector<ReservationId> deleted;
  // Periodic reservations have no last end: with any, the whole window is checked (YARN's
  // loop stops at the end of the non-periodic load).
  const int64_t horizon =
      plan.hasPeriodicReservations() ? std::numeric_limits<int64_t>::max() : plan.lastEndTime();
  for (int64_t t = now; t < horizon && t < now + windowMs_; t += plan.stepMs()) {
    const Resource& cap = plan.totalCapacity();
    Resource excess = plan.totalCommittedResources(t) - cap;
    if (!calc.greaterThan(cap, excess, Resource())) continue;
    std::vector<const ReservationAllocation*> active = plan.reservationsAtTime(t);
    std::sort(active.begin(), active.end(), [](const auto* a, const auto* b) {
      if (a->acceptanceTime() != b->acceptanceTime()) {
        return a->acceptanceTime() > b->acceptanceTime();
      }
      return a->id() > b->id();
    });
    for (const ReservationAllocation* r : active) {
      if (!calc.greaterThan(cap, excess, Resource())) break;
      excess -= r->resourcesAtTime(t);
      ReservationId id = r->id();
      SPINDLE_PLAN_RETURN_IF_ERROR(plan.deleteReservation(id));
      deleted.push_back(id);
    }
  }
  return deleted;
}

Result<std::unique_ptr<Planner>> makeReplanner(std::string_view className,
                                               int64_t enforcementWindowMs) {
  std::string_view name = className;
  constexpr std::string_view kPackage =
      "org.apache.hadoop.yarn.server.resourcemanager.reservation.planning.";
  if (name.starts_with(kPackage)) name.remove_prefix(kPackage.size());
  if (name == "SimpleCapacityReplanner") {
    return std::unique_ptr<Planner>(std::make_unique<SimpleCapacityReplanner>(enforcementWindowMs));
  }
  return invalidArgument("unknown reservation-planner '{}': expected {}", className,
                         kSimpleCapacityReplannerClass);
}

}  // namespace spindle::reservation
