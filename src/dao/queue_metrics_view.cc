#include "dao/queue_metrics_view.h"

#include <string>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {

using nlohmann::json;

namespace {

// The queue's full path and the resources available to it, as each scheduler sets QueueMetrics'
// availableMB / availableVCores:
//  - Capacity (CSQueueUtils.getMaxAvailableResourceToQueuePartition, default partition): the
//    guarantee less the queue's usage (reservations included) when the guarantee is larger,
//    else nothing;
//  - Fair (FairScheduler.updateRootQueueMetrics): the root only, the cluster less its usage;
//    other queues' available is never set (0);
//  - FIFO (FifoScheduler.updateAvailableResourcesMetrics): the cluster less what is allocated.
struct QueueInfo {
  std::string path;
  Resource available;
};

std::optional<QueueInfo> capacityQueue(const CapacityScheduler& cs, std::string_view name) {
  const CsQueue* q = cs.findQueue(std::string(name));
  if (q == nullptr) return std::nullopt;
  const Resource cluster = cs.partitionResource(kDefaultPartition);
  const Resource& guaranteed = q->cap(kDefaultPartition).effectiveMin;
  const Resource& used = q->usage(kDefaultPartition).used;
  Resource available;
  if (cs.calculator().greaterThan(cluster, guaranteed, used)) {
    available = Resource::componentwiseMax(guaranteed - used, Resource());
  }
  return QueueInfo{q->path(), available};
}

std::optional<QueueInfo> fairQueue(const FairScheduler& fs, std::string_view name) {
  std::string path(name);
  if (path != "root" && !path.starts_with("root.")) path = "root." + path;
  const fair::FsQueue* q = fs.queues().find(path);
  if (q == nullptr) return std::nullopt;
  Resource available;
  if (q->path() == "root") {
    available = Resource::componentwiseMax(fs.cluster().total() - q->usage, Resource());
  }
  return QueueInfo{q->path(), available};
}

std::optional<QueueInfo> fifoQueue(const Scheduler& s, std::string_view name) {
  if (name != FifoScheduler::kQueueName && name != "root" && name != "root.default") {
    return std::nullopt;
  }
  const Cluster& c = s.cluster();
  return QueueInfo{std::string(FifoScheduler::kQueueName),
                   Resource::componentwiseMax(c.total() - c.allocated(), Resource())};
}

bool inQueue(const std::string& appQueue, const std::string& path) {
  return appQueue == path || (appQueue.size() > path.size() && appQueue.starts_with(path) &&
                              appQueue[path.size()] == '.');
}

}  // namespace

std::optional<json> queueMetricsView(const Scheduler& s, std::string_view queue) {
  std::optional<QueueInfo> info;
  if (const auto* cs = dynamic_cast<const CapacityScheduler*>(&s)) {
    info = capacityQueue(*cs, queue);
  } else if (const auto* fs = dynamic_cast<const FairScheduler*>(&s)) {
    info = fairQueue(*fs, queue);
  } else if (dynamic_cast<const FifoScheduler*>(&s) != nullptr) {
    info = fifoQueue(s, queue);
  }
  if (!info) return std::nullopt;
  // The root queue holds every app (FIFO's one queue is "default").
  const bool all = info->path == "root" || info->path == FifoScheduler::kQueueName;
  int64_t submitted = 0, running = 0, pending = 0, completed = 0, failed = 0, killed = 0;
  int64_t allocatedContainers = 0, pendingContainers = 0, reservedContainers = 0;
  Resource allocated, reserved, pendingResource;
  for (const auto& [id, a] : s.apps()) {
    if (!all && !inQueue(a->queue(), info->path)) continue;
    ++submitted;
    ++(a->state() == AppState::RUNNING ? running : pending);
    allocated += a->used();
    reserved += a->reserved();
    pendingResource += a->asks().pending();
    allocatedContainers += static_cast<int64_t>(a->liveContainers().size());
    for (const SchedulerKey& k : a->asks().activeKeys()) {
      pendingContainers += a->asks().count(k, kAnyResourceName);
    }
  }
  for (const AppId id : s.finishedAppIds()) {
    const Application* a = s.findApp(id);
    if (!all && !inQueue(a->queue(), info->path)) continue;
    ++submitted;
    if (a->state() == AppState::FINISHED) ++completed;
    if (a->state() == AppState::FAILED) ++failed;
    if (a->state() == AppState::KILLED) ++killed;
  }
  for (NodeId n : s.cluster().nodeIds()) {
    const auto& r = s.cluster().node(n).reservation();
    if (!r) continue;
    const Application* a = s.findApp(r->container.app());
    if (a != nullptr && (all || inQueue(a->queue(), info->path))) ++reservedContainers;
  }
  return json{{"queuePath", info->path},
              {"appsSubmitted", submitted},
              {"appsRunning", running},
              {"appsPending", pending},
              {"appsCompleted", completed},
              {"appsKilled", killed},
              {"appsFailed", failed},
              {"allocatedMB", allocated.memoryMb()},
              {"allocatedVirtualCores", allocated.vcores()},
              {"allocatedContainers", allocatedContainers},
              {"availableMB", info->available.memoryMb()},
              {"availableVirtualCores", info->available.vcores()},
              {"pendingMB", pendingResource.memoryMb()},
              {"pendingVirtualCores", pendingResource.vcores()},
              {"pendingContainers", pendingContainers},
              {"reservedMB", reserved.memoryMb()},
              {"reservedVirtualCores", reserved.vcores()},
              {"reservedContainers", reservedContainers}};
}

}  // namespace spindle
