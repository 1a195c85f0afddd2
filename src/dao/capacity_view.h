// The Capacity Scheduler's `/ws/v1/cluster/scheduler` schedulerInfo in YARN's JSON shape (the
// Hadoop docs' ResourceManager REST API page, 'Cluster Scheduler API'; YARN's
// CapacitySchedulerInfo, CapacitySchedulerQueueInfo, CapacitySchedulerLeafQueueInfo, UserInfo,
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
