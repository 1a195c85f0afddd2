// The Fair Scheduler's REST view: /ws/v1/cluster/scheduler for a FairScheduler (YARN's
// FairSchedulerInfo, FairSchedulerQueueInfo and FairSchedulerLeafQueueInfo; the Hadoop
// docs' ResourceManager REST API page, 'Cluster Scheduler API').
//
//   nlohmann::json info = fairSchedulerInfo(fs);   // {"type": "fairScheduler", "rootQueue": {...}}
//
// Each queue: queueName (full path), schedulingPolicy, maxApps, weight, preemptable, and the
// resources minResources, maxResources (capped at the cluster, as YARN does), usedResources,
// amUsedResources, amMaxResources, demandResources, steadyFairResources, fairResources,
// clusterResources, reservedResources; parents add childQueues.queue[]; leaves add
// type "fairSchedulerLeafQueueInfo", numActiveApps and numPendingApps (waiting apps plus
// runnable apps whose AM has not started).
#pragma once

#include <nlohmann/json.hpp>

#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

nlohmann::json fairSchedulerInfo(const FairScheduler& s);

}  // namespace spindle
