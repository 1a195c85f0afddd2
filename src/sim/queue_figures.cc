#include "sim/queue_figures.h"

#include <string>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/fair_scheduler.h"

namespace spindle::sim {

namespace {

// By full path, by path without "root.", else the leaf of that name (FairScheduler's own
// fairShare lookup).
const fair::FsQueue* fairQueue(const FairScheduler& fs, std::string_view queue) {
  const std::string name(queue);
  const fair::FsQueueTree& tree = fs.queues();
  if (const fair::FsQueue* q = tree.find(name)) return q;
  if (const fair::FsQueue* q = tree.find("root." + name)) return q;
  for (const fair::FsQueue* q : tree.preorder()) {
    if (q->isLeaf() && q->name() == name) return q;
  }
  return nullptr;
}

}  // namespace

// SLS's FairSchedulerMetrics: the maxshare gauge is min(maxShare, cluster total).
std::optional<QueueShares> queueShares(const Scheduler& scheduler, std::string_view queue) {
  const auto* fs = dynamic_cast<const FairScheduler*>(&scheduler);
  if (fs == nullptr) return std::nullopt;
  const fair::FsQueue* q = fairQueue(*fs, queue);
  if (q == nullptr) return std::nullopt;
  return QueueShares{q->demand, q->usage, q->minShare,
                     q->maxShare.clamp(scheduler.cluster().total()), q->fairShare};
}

std::optional<QueueLimits> queueLimits(const Scheduler& scheduler, std::string_view queue) {
  if (const auto* fs = dynamic_cast<const FairScheduler*>(&scheduler)) {
    const fair::FsQueue* q = fairQueue(*fs, queue);
    if (q == nullptr) return std::nullopt;
    return QueueLimits{q->minShare, q->maxShare.clamp(scheduler.cluster().total())};
  }
  if (const auto* cs = dynamic_cast<const CapacityScheduler*>(&scheduler)) {
    const CsQueue* q = cs->findQueue(std::string(queue));
    if (q == nullptr) return std::nullopt;
    const ResolvedCapacity& c = q->cap("");  // the default partition
    return QueueLimits{c.effectiveMin, c.effectiveMax};
  }
  return std::nullopt;
}

}  // namespace spindle::sim
