// The Capacity Scheduler's `/ws/v1/cluster/scheduler` schedulerInfo in YARN's JSON shape
// (reference yarn/rest-cli-protocols.md §1.3; YARN's CapacitySchedulerInfo,
// CapacitySchedulerQueueInfo, CapacitySchedulerLeafQueueInfo, UserInfo,
// PartitionQueueCapacitiesInfo, PartitionResourcesInfo).
//
//   nlohmann::json info = capacitySchedulerInfo(cs);   // {"type": "capacityScheduler", ...}
//   info["queues"]["queue"][0]["queuePath"];             // "root.a"
//
// Units as YARN's REST: capacities in percent (floats), resources {memory, vCores}.
#pragma once

#include <nlohmann/json.hpp>

#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {

nlohmann::json capacitySchedulerInfo(const CapacityScheduler& cs);

}  // namespace spindle
