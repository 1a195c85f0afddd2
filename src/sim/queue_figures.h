// Per-queue figures of the configured schedulers that the simulator's metrics record, read
// through the schedulers' public views (FairScheduler::queues, CapacityScheduler::findQueue).
//
//   if (auto s = queueShares(scheduler, "prod")) w.gauge(s->fairShare);   // Fair only
//   if (auto l = queueLimits(scheduler, "prod")) draw(l->guarantee, l->maximum);
//
// A queue is named by full path ("root.prod"), path without "root." or leaf name.
#pragma once

#include <optional>
#include <string_view>

#include "resource/resource.h"
#include "scheduler/scheduler.h"

namespace spindle::sim {

// What SLS's FairSchedulerMetrics records per queue (FSQueue getDemand, getResourceUsage,
// getMinShare, getMaxShare, getFairShare). maxShare is cut at the cluster's total, as SLS's
// maxshare gauge reports it (an unbounded queue shows the cluster).
struct QueueShares {
  Resource demand, usage, minShare, maxShare, fairShare;
};

// A queue's configured guarantee and maximum in the default partition.
struct QueueLimits {
  Resource guarantee, maximum;
};

// The Fair Scheduler's shares of a queue; nullopt for another scheduler or an unknown queue.
std::optional<QueueShares> queueShares(const Scheduler& scheduler, std::string_view queue);

// Capacity Scheduler: the effective capacity and maximum capacity (CSQueue
// getEffectiveCapacity / getEffectiveMaxCapacity); Fair Scheduler: min and max share (the max
// cut at the cluster); nullopt for FIFO or an unknown queue.
std::optional<QueueLimits> queueLimits(const Scheduler& scheduler, std::string_view queue);

}  // namespace spindle::sim
