#include "reservation/plan_follower_step.h"

#include <algorithm>

#include "reservation/sharing_policy.h"
#include "reservation/stage_allocator.h"

namespace spindle::reservation {

namespace {

// Resource.compareTo: memory, then vcores.
int compareTo(const Resource& a, const Resource& b) {
  if (a.memoryMb() != b.memoryMb()) return a.memoryMb() < b.memoryMb() ? -1 : 1;
  if (a.vcores() != b.vcores()) return a.vcores() < b.vcores() ? -1 : 1;
  return 0;
}

}  // namespace

PlanFollowerStep planFollowerStep(const InMemoryPlan& plan, const PlanFollowerInput& in) {
  const ResourceCalculator& calc = plan.calculator();
  PlanFollowerStep step;
  step.nowMs = stepRoundUp(in.clockNowMs, plan.stepMs());
  step.defaultQueue = plan.queueName() + kDefaultQueueSuffix;

  std::vector<const ReservationAllocation*> current = plan.reservationsAtTime(step.nowMs);
  for (const ReservationAllocation* r : current) step.reserved += r->resourcesAtTime(step.nowMs);
  const bool overcommitted = calc.greaterThan(in.clusterResource, step.reserved, in.planResources);
  step.replan = overcommitted;

  std::map<std::string, const ReservationAllocation*> byQueue;
  for (const ReservationAllocation* r : current) byQueue[r->id().toString()] = r;
  for (const auto& [queue, resources] : in.existingQueues) {
    if (!byQueue.contains(queue)) step.expired.push_back(queue);
  }

  auto delta = [&](const ReservationAllocation* r) {
    Resource d = r->resourcesAtTime(step.nowMs);
    auto it = in.existingQueues.find(r->id().toString());
    if (it != in.existingQueues.end()) d -= it->second;
    return d;
  };
  std::stable_sort(current.begin(), current.end(), [&](const auto* a, const auto* b) {
    int c = compareTo(delta(a), delta(b));
    return c != 0 ? c < 0 : a->id() < b->id();
  });

  const bool planHasRoom = in.planResources.memoryMb() > 0 && in.planResources.vcores() > 0;
  float total = 0;
  for (const ReservationAllocation* r : current) {
    ReservationQueueEntitlement e;
    e.id = r->id();
    e.queue = r->id().toString();
    e.create = !in.existingQueues.contains(e.queue);
    Resource cap = r->resourcesAtTime(step.nowMs);
    if (planHasRoom) {
      if (overcommitted) {
        cap = multiplyTruncating(in.planResources, calc.ratio(cap, step.reserved));
      }
      e.capacity = static_cast<float>(calc.divide(in.clusterResource, cap, in.planResources));
    }
    e.maxCapacity = r->containsGangs() ? e.capacity : 1.0f;
    total += e.capacity;
    step.entitlements.push_back(e);
  }
  step.defaultQueueCapacity = 1.0f - total;
  return step;
}

}  // namespace spindle::reservation
