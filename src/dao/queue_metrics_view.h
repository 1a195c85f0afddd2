// A queue's metrics in the names of YARN's QueueMetrics (the figures the Hadoop docs'
// ResourceManager REST API page gives for the cluster in clusterMetrics, which are the root
// queue's): apps by state, allocated / pending / reserved resources and containers, and the
// resources available to the queue. The scenario runner's `queueMetrics:` view reads it.
//
//   std::optional<nlohmann::json> m = queueMetricsView(sched, "root.a");   // or "a"
//   (*m)["availableMB"];       // CS: max(0, guaranteed - used), as CSQueueUtils sets it
//   (*m)["appsPending"];       // apps in the queue (or below it) not yet RUNNING
//
// Figures are derived from the scheduler's state when asked, as metricsView does for the
// cluster: for the root queue they equal clusterMetrics' (apps, allocated, reserved, pending).
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "scheduler/scheduler.h"

namespace spindle {

// nullopt when the scheduler has no queue of that name (full path or unique short name).
std::optional<nlohmann::json> queueMetricsView(const Scheduler& s, std::string_view queue);

}  // namespace spindle
