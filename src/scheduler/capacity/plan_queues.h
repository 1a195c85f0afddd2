// Plan queues of the Capacity Scheduler: a leaf marked `reservable` runs as a parent of its
// reservation queues (YARN's PlanQueue and ReservationQueue), which the reservation system
// creates, resizes and removes at run time. The configuration keeps the plan queue a leaf; this
// rewrites a parsed configuration into the tree the scheduler runs.
//
//   std::map<std::string, std::vector<QueueEntitlement>> children;  // by plan path
//   children["root.dedicated"] = {{"dedicated-default", 0.8f, 1}, {"reservation_0_0001", 0.2f, 1}};
//   expandPlanQueues(config, children);  // root.dedicated.dedicated-default, ...reservation_0_0001
//
// Rules (CapacitySchedulerQueueManager, PlanQueue, ReservationQueue):
//  1. a plan queue without an entry gets its default queue `<plan>-default` at entitlement
//     (1, 1), as YARN creates it with the plan;
//  2. each reservation queue copies the plan queue's leaf settings (user limit, user limit
//     factor, ordering policy, ACLs; PlanQueue's maxAppsForReservation and the per-user
//     maximum derived from it) and takes its entitlement on the default partition:
//     capacity and maximum capacity as fractions of the plan, absolute values as the plan's
//     times them in float (ReservationQueue.setEntitlement); other partitions are derived
//     (capacity 0);
//  3. the queues follow the plan queue in pre-order, in the order given.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scheduler/capacity/config/capacity_config.h"
#include "scheduler/scheduler.h"

namespace spindle {

// ReservationConstants.DEFAULT_QUEUE_SUFFIX.
inline constexpr const char* kDefaultReservationQueueSuffix = "-default";

void expandPlanQueues(CapacityConfig& cfg,
                      const std::map<std::string, std::vector<QueueEntitlement>>& children);

// Rule 2: the configuration of the reservation queue `e` of `plan`, and its default partition's
// entitlement alone (what a resize changes).
QueueConfig reservationQueueConfig(const QueueConfig& plan, const QueueEntitlement& e);
PartitionConfig reservationEntitlement(const QueueConfig& plan, const QueueEntitlement& e);

}  // namespace spindle
