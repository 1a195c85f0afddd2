// What the plan follower must do to the scheduler's queues this step, as a pure function of the
// plan: which reservation queues expire, which appear, the entitlement of each, the default
// queue's share, and whether to run the replanner. The scheduler integration applies it.
//
//   PlanFollowerInput in{.clockNowMs = clock.nowMs(),
//                        .clusterResource = cluster,
//                        .planResources = cluster * planQueueAbsoluteCapacity,
//                        .existingQueues = {{"reservation_1_0001", currentGuaranteed}}};
//   plan.setTotalCapacity(in.planResources);
//   PlanFollowerStep step = planFollowerStep(plan, in);
//   if (step.replan) replanner->plan(plan);
//   for (auto& q : step.expired) ...;           // entitlement (0, 0); move or kill its apps
//   setEntitlement(step.defaultQueue, 0, 1);     // release first, as YARN does
//   for (auto& e : step.entitlements) ...;      // create if e.create; set (capacity, max)
//   setEntitlement(step.defaultQueue, step.defaultQueueCapacity, 1);
//   plan.archiveCompletedReservations(step.nowMs);
//
// Mirrors AbstractSchedulerPlanFollower.synchronizePlan with the Capacity Scheduler's arithmetic
// (CapacitySchedulerPlanFollower): the follower's steps, in order,
//  1. now = the clock rounded up to the plan step;
//  2. current = the reservations whose [start, end) holds now (zero-sized ones included);
//     reserved = the sum of their resources at now;
//  3. replan when reserved > planResources (calculator comparison); the entitlements below still
//     use `current` as it was before the replanner ran, as YARN does;
//  4. an existing reservation queue whose reservation is not current expires;
//  5. the current reservations sorted by (resources at now - the queue's current resources)
//     ascending, compared memory then vcores (Resource.compareTo), ties by id: queues that
//     shrink first, so that the parent never goes over 100 %;
//  6. each one's capacity = calc.divide(cluster, resources at now, planResources) as a float
//     (0 when the plan has no memory or no vcores); when reserved > planResources its resources
//     are first scaled by planResources * ratio(resources, reserved); maximum = 1, or the
//     capacity itself when the reservation has gangs;
//  7. the default queue `<plan>-default` gets 1 - the sum of the capacities (float).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reservation/in_memory_plan.h"

namespace spindle::reservation {

// ReservationConstants.DEFAULT_QUEUE_SUFFIX.
inline constexpr const char* kDefaultQueueSuffix = "-default";

struct PlanFollowerInput {
  int64_t clockNowMs = 0;
  Resource clusterResource;
  // Capacity Scheduler: cluster * the plan queue's absolute capacity.
  Resource planResources;
  // Reservation queues that exist under the plan queue (named by reservation id, default queue
  // excluded) with the resources they are guaranteed now.
  std::map<std::string, Resource> existingQueues;
};

struct ReservationQueueEntitlement {
  ReservationId id;
  std::string queue;    // the reservation id's string, YARN's Capacity Scheduler queue name
  bool create = false;  // the queue does not exist yet
  float capacity = 0;   // of the plan queue
  float maxCapacity = 1;
};

struct PlanFollowerStep {
  int64_t nowMs = 0;
  bool replan = false;
  Resource reserved;
  std::vector<std::string> expired;                       // queue names, sorted
  std::vector<ReservationQueueEntitlement> entitlements;  // in the order to apply
  std::string defaultQueue;                               // "<plan>-default"
  float defaultQueueCapacity = 1;
};

PlanFollowerStep planFollowerStep(const InMemoryPlan& plan, const PlanFollowerInput& in);

}  // namespace spindle::reservation
