#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {

Result<std::unique_ptr<FifoScheduler>> FifoScheduler::create(const Configuration& conf,
                                                             const Clock& clock, Rng& rng) {
  SPINDLE_ASSIGN_OR_RETURN(
      SchedulerSettings s,
      schedulerSettingsFromConfig(conf, "DefaultResourceCalculator", /*fairIncrements=*/false));
  return std::make_unique<FifoScheduler>(std::move(s), clock, rng);
}

FifoScheduler::FifoScheduler(SchedulerSettings settings, const Clock& clock, Rng& rng)
    : Scheduler(std::move(settings), clock, rng) {}

std::optional<std::vector<AppId>> FifoScheduler::appsInQueue(std::string_view queue) const {
  if (queue != kQueueName) return std::nullopt;
  std::vector<AppId> ids;
  for (const auto& [id, a] : apps()) ids.push_back(id);
  return ids;
}

Resource FifoScheduler::headroom() const { return cluster().total() - cluster().allocated(); }

Status FifoScheduler::admitApp(Application& app) {
  // FifoScheduler accepts any queue name and files every app under "default".
  app.setQueue(std::string(kQueueName));
  return Status::ok();
}

void FifoScheduler::onAppRemoved(Application& app) { pendingApps_.erase(app.id()); }

void FifoScheduler::onAsksChanged(Application& app) { refreshPendingIndex(app); }

void FifoScheduler::onContainerAllocated(Application& app, const Container&) {
  refreshPendingIndex(app);
}

void FifoScheduler::onContainerFinished(Application&, const Container&) {}

void FifoScheduler::refreshPendingIndex(const Application& app) {
  if (app.asks().hasPending()) {
    pendingApps_.insert(app.id());
  } else {
    pendingApps_.erase(app.id());
  }
}

bool FifoScheduler::belowMinimum(const Resource& free) const {
  return calculator().lessThan(cluster().total(), free, settings().bounds.minimum);
}

bool FifoScheduler::emptyHeartbeatIsNoop(NodeId node) const {
  return pendingApps_.empty() || belowMinimum(cluster().node(node).unallocated());
}

void FifoScheduler::schedule(NodeId nodeId) {
  if (belowMinimum(cluster().node(nodeId).unallocated())) return;
  for (auto it = pendingApps_.begin(); it != pendingApps_.end();) {
    Application& a = app(*it);
    ++it;  // scheduleApp may drop this app from the index
    scheduleApp(a, nodeId);
    if (belowMinimum(cluster().node(nodeId).unallocated())) break;
  }
}

void FifoScheduler::scheduleApp(Application& a, NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  const NodeFilter& filter = nodeFilter();
  if (const SkipReason why = filter.checkBlacklist(a, node); why != SkipReason::kNone) {
    recordSkip(a, nodeId, {}, why,
               fmt::format("node {} or its rack {} is blacklisted", node.name(), node.rack()));
    return;
  }
  // A copy: allocating changes the app's active keys.
  const std::vector<SchedulerKey> keys = a.asks().activeKeys();
  for (const SchedulerKey& key : keys) {
    if (maxAllocatable(a, key, nodeId, Locality::kOffSwitch) <= 0) continue;
    // A key the node may not take gets nothing, like one that does not fit: stop here too.
    if (const SkipReason why = filter.checkConstraints(a, key, node); why != SkipReason::kNone) {
      recordSkip(a, nodeId, key, why, filter.explainConstraints(a, key, node));
      break;
    }
    if (assignOnNode(a, key, nodeId) == 0) {
      explainNoAssignment(a, key, nodeId);
      break;  // do not assign out of order w.r.t. priorities
    }
  }
}

int FifoScheduler::maxAllocatable(const Application& a, const SchedulerKey& key, NodeId nodeId,
                                  Locality locality) const {
  const Node& node = cluster().node(nodeId);
  int max = a.asks().count(key, kAnyResourceName);
  if (locality == Locality::kOffSwitch) return max;
  if (locality == Locality::kRackLocal) {
    int rack = a.asks().count(key, node.rack());
    return rack <= 0 ? max : std::min(max, rack);
  }
  int host = a.asks().count(key, node.name());
  return host > 0 ? std::min(max, host) : max;
}

int FifoScheduler::assignOnNode(Application& a, const SchedulerKey& key, NodeId nodeId) {
  int assigned = assignNodeLocal(a, key, nodeId);
  assigned += assignRackLocal(a, key, nodeId);
  assigned += assignOffSwitch(a, key, nodeId);
  return assigned;
}

int FifoScheduler::assignNodeLocal(Application& a, const SchedulerKey& key, NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  const int host = a.asks().count(key, node.name());
  if (host <= 0) return 0;
  // Don't allocate on this node if the app needs no containers on its rack.
  if (a.asks().count(key, node.rack()) <= 0) return 0;
  const int assignable = std::min(maxAllocatable(a, key, nodeId, Locality::kNodeLocal), host);
  return assignContainers(a, key, nodeId, assignable, Locality::kNodeLocal);
}

int FifoScheduler::assignRackLocal(Application& a, const SchedulerKey& key, NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  const int rack = a.asks().count(key, node.rack());
  if (rack <= 0) return 0;
  if (a.asks().count(key, kAnyResourceName) <= 0) return 0;
  if (nodeFilter().checkRelaxLocality(a.asks(), key, node, Locality::kRackLocal) !=
      SkipReason::kNone) {
    return 0;
  }
  const int assignable = std::min(maxAllocatable(a, key, nodeId, Locality::kRackLocal), rack);
  return assignContainers(a, key, nodeId, assignable, Locality::kRackLocal);
}

int FifoScheduler::assignOffSwitch(Application& a, const SchedulerKey& key, NodeId nodeId) {
  const int any = a.asks().count(key, kAnyResourceName);
  if (any <= 0 || nodeFilter().checkRelaxLocality(a.asks(), key, cluster().node(nodeId),
                                                  Locality::kOffSwitch) != SkipReason::kNone) {
    return 0;
  }
  return assignContainers(a, key, nodeId, any, Locality::kOffSwitch);
}

int FifoScheduler::assignContainers(Application& a, const SchedulerKey& key, NodeId nodeId,
                                    int assignable, Locality locality) {
  if (assignable <= 0) return 0;
  const Resource capability = a.asks().find(key, kAnyResourceName)->capability;
  const int64_t fit =
      calculator().computeAvailableContainers(cluster().node(nodeId).unallocated(), capability);
  const int n = static_cast<int>(std::min<int64_t>(assignable, std::max<int64_t>(fit, 0)));
  for (int i = 0; i < n; ++i) {
    allocate(a, key, nodeId, locality,
             Reason::format("{} ask at priority {} on {}", toString(locality), key.priority,
                            cluster().nodeName(nodeId)));
  }
  return n;
}

void FifoScheduler::explainNoAssignment(const Application& a, const SchedulerKey& key,
                                        NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  const Resource capability = a.asks().find(key, kAnyResourceName)->capability;
  const Resource free = node.unallocated();
  if (calculator().computeAvailableContainers(free, capability) <= 0) {
    recordSkip(a, nodeId, key, SkipReason::kNoNodeFits,
               fmt::format("ask {} does not fit in {} free on {}", capability.toString(),
                           free.toString(), node.name()),
               {{"askMemoryMb", double(capability.memoryMb())},
                {"freeMemoryMb", double(free.memoryMb())}});
    return;
  }
  recordSkip(a, nodeId, key, SkipReason::kRelaxLocality,
             fmt::format("relaxLocality forbids placing priority {} on {} (rack {})", key.priority,
                         node.name(), node.rack()));
}

// The one cache: pendingApps_ holds exactly the live apps with pending asks.
Status FifoScheduler::checkSchedulerInvariants() const {
  size_t pending = 0;
  for (const auto& [id, a] : apps()) {
    const bool has = a->asks().hasPending();
    pending += has ? 1 : 0;
    if (has != (pendingApps_.count(id) == 1)) {
      return internalError("FIFO pending index: {} {} but its asks say {}", appIdString(id),
                           has ? "missing" : "listed", has ? "pending" : "none pending");
    }
  }
  if (pendingApps_.size() != pending) {
    return internalError("FIFO pending index holds {} apps, {} live apps have pending asks",
                         pendingApps_.size(), pending);
  }
  return Status::ok();
}

std::optional<Resource> FifoScheduler::headroom(AppId id) const {
  const Application* a = findApp(id);
  if (a == nullptr || isFinal(a->state())) return std::nullopt;
  return headroom();
}

}  // namespace spindle
