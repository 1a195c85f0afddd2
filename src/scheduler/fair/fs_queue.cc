#include "scheduler/fair/fs_queue.h"

#include <algorithm>
#include <functional>

namespace spindle::fair {

FsQueue& FsQueue::addChild(FairQueueConfig cfg, bool dynamic) {
  orderStale = true;
  membersChanged = true;
  children_.push_back(std::make_unique<FsQueue>(std::move(cfg), this, dynamic));
  return *children_.back();
}

void FsQueue::removeChild(const FsQueue* child) {
  orderStale = true;
  membersChanged = true;
  children_.erase(std::remove_if(children_.begin(), children_.end(),
                                 [&](const auto& c) { return c.get() == child; }),
                  children_.end());
}

bool FsQueue::sharesFollowCluster() const {
  return (cfg_.minResources && cfg_.minResources->isPercentage()) ||
         (cfg_.maxResources && cfg_.maxResources->isPercentage());
}

bool FsQueue::fitsInMaxShare(const Resource& additional) const {
  for (const FsQueue* q = this; q != nullptr; q = q->parent_) {
    if (!q->maxShare.allows(q->usage + additional)) return false;
  }
  return true;
}

void FsQueue::ordersChanged() {
  for (FsQueue* q = this; q != nullptr; q = q->parent_) q->orderStale = true;
}

void FsQueue::addUsage(const Resource& delta, int sign) {
  for (FsQueue* q = this; q != nullptr; q = q->parent_) {
    q->orderStale = true;
    if (sign > 0) {
      q->usage += delta;
    } else {
      q->usage -= delta;
    }
  }
}

void FsQueue::addRunnable(int delta) {
  membersChanged = true;
  for (FsQueue* q = this; q != nullptr; q = q->parent_) {
    q->orderStale = true;
    q->numRunnable += delta;
  }
}

FsQueueTree FsQueueTree::build(std::shared_ptr<const AllocationConfig> config) {
  FsQueueTree t;
  t.config_ = std::move(config);
  t.root_ = std::make_unique<FsQueue>(t.config_->queue("root"), nullptr, false);
  t.byPath_["root"] = t.root_.get();
  t.noteCreated(*t.root_);
  std::function<void(FsQueue&)> addChildren = [&](FsQueue& q) {
    for (const std::string& child : q.config().children) {
      const FairQueueConfig& c = t.config_->queue(child);
      if (!c.policyAllowed) continue;  // YARN does not create it (nor its subtree)
      FairQueueConfig runs = c;
      // AllocationFileQueueParser: a reservable queue is configured as a PARENT.
      runs.isParent = runs.isParent || runs.reservation;
      FsQueue& added = q.addChild(std::move(runs), /*dynamic=*/false);
      t.byPath_[child] = &added;
      t.noteCreated(added);
      addChildren(added);
      if (c.reservation) t.addReservationQueue(added, added.name() + "-default");
    }
  };
  addChildren(*t.root_);
  return t;
}

FsQueue* FsQueueTree::find(const std::string& path) const {
  auto it = byPath_.find(path);
  return it == byPath_.end() ? nullptr : it->second;
}

QueueCatalog FsQueueTree::existing() const {
  QueueCatalog c;
  for (const auto& [path, q] : byPath_) (q->isLeaf() ? c.leaves : c.parents).insert(path);
  return c;
}

std::vector<FsQueue*> FsQueueTree::preorder() const {
  std::vector<FsQueue*> out;
  std::function<void(FsQueue&)> walk = [&](FsQueue& q) {
    out.push_back(&q);
    for (const auto& c : q.children()) walk(*c);
  };
  walk(*root_);
  return out;
}

FairQueueConfig FsQueueTree::dynamicConfig(const FsQueue& parent, const std::string& name,
                                           bool leaf) const {
  // AllocationConfiguration.initFSQueue for a queue the file does not name: the file's
  // defaults, max share from the parent's maxChildResources, preemption settings inherited.
  const AllocationConfig& a = *config_;
  FairQueueConfig c;
  c.name = name;
  c.path = parent.path() + "." + name;
  c.parent = parent.path();
  c.isParent = !leaf;
  c.maxResources = parent.config().maxChildResources;
  if (!c.maxResources) c.maxResources = a.queueMaxResourcesDefault;
  c.maxContainerAllocation = parent.config().maxContainerAllocation;
  c.maxRunningApps = a.queueMaxAppsDefault;
  c.maxAMShare = a.queueMaxAMShareDefault;
  c.policy = a.defaultSchedulingPolicy;
  c.minSharePreemptionTimeoutMs = parent.config().minSharePreemptionTimeoutMs;
  c.fairSharePreemptionTimeoutMs = parent.config().fairSharePreemptionTimeoutMs;
  c.fairSharePreemptionThreshold = parent.config().fairSharePreemptionThreshold;
  c.allowPreemptionFrom = parent.config().allowPreemptionFrom;
  return c;
}

Result<FsQueue*> FsQueueTree::leafForPlacement(const std::string& path) {
  // An existing leaf (the common case) is classified as kExistingLeaf below; finding it directly
  // saves building the catalog of every queue on each submission.
  if (FsQueue* q = find(path); q != nullptr && q->isLeaf() && q != root_.get()) return q;
  switch (classifyPlacementTarget(path, existing())) {
    case PlacementTarget::kExistingLeaf: return find(path);
    case PlacementTarget::kParentQueue:
      return invalidArgument("queue {} is a parent queue; apps run only in leaf queues", path);
    case PlacementTarget::kUnderLeaf:
      return invalidArgument("queue {} cannot be created under a leaf queue", path);
    case PlacementTarget::kInvalidName: return invalidArgument("invalid queue name '{}'", path);
    case PlacementTarget::kNewLeaf: break;
  }
  if (path.rfind("root.", 0) != 0) return invalidArgument("queue {} is not under root", path);
  FsQueue* q = root_.get();
  size_t pos = 5;
  while (true) {
    const size_t dot = path.find('.', pos);
    const bool last = dot == std::string::npos;
    const std::string name = path.substr(pos, last ? std::string::npos : dot - pos);
    const std::string sub = path.substr(0, last ? std::string::npos : dot);
    FsQueue* next = find(sub);
    if (next == nullptr) {
      FairQueueConfig cfg = dynamicConfig(*q, name, last);
      // QueueManager.createNewQueues: a policy the parent does not allow creates nothing (only
      // the first new queue can fail: the ones below it share its default policy).
      if (!isChildPolicyAllowed(q->policy(), cfg.policy)) {
        return invalidArgument("cannot create queue {}: policy {} is not allowed under {} ({})",
                               sub, policyName(cfg.policy), q->path(), policyName(q->policy()));
      }
      next = &q->addChild(std::move(cfg), /*dynamic=*/true);
      byPath_[sub] = next;
      noteCreated(*next);
      if (next->parent() != nullptr) resolveOne(*next);
    }
    if (last) return next;
    q = next;
    pos = dot + 1;
  }
}

void FsQueueTree::resolveOne(FsQueue& q) {
  q.minShare = q.config().minShare(cluster_, typeCount_);
  q.maxShare = q.config().maxShare(cluster_, typeCount_);
}

void FsQueueTree::noteCreated(FsQueue& q) {
  if (q.sharesFollowCluster()) followCluster_.push_back(&q);
}

void FsQueueTree::resolveShares(const Resource& cluster, int typeCount) {
  const bool all = !resolved_ || typeCount != typeCount_;
  cluster_ = cluster;
  typeCount_ = typeCount;
  resolved_ = true;
  if (!all) {
    for (FsQueue* q : followCluster_) resolveOne(*q);
    return;
  }
  for (FsQueue* q : preorder()) resolveOne(*q);
}

bool FsQueueTree::removeEmptyDynamicQueues() {
  bool removed = false;
  std::function<void(FsQueue&)> prune = [&](FsQueue& q) {
    std::vector<FsQueue*> children;
    for (const auto& c : q.children()) children.push_back(c.get());
    for (FsQueue* c : children) {
      prune(*c);
      const bool empty =
          c->isLeaf() ? c->numApps() == 0 && c->usage.isZero() : c->children().empty();
      if (c->isDynamic() && empty) {
        byPath_.erase(c->path());
        followCluster_.erase(std::remove(followCluster_.begin(), followCluster_.end(), c),
                             followCluster_.end());
        q.removeChild(c);
        removed = true;
      }
    }
  };
  prune(*root_);
  return removed;
}

FsQueue& FsQueueTree::addReservationQueue(FsQueue& plan, const std::string& name) {
  FsQueue& q = plan.addChild(dynamicConfig(plan, name, /*leaf=*/true), /*dynamic=*/false);
  byPath_[q.path()] = &q;
  noteCreated(q);
  if (resolved_) resolveOne(q);
  return q;
}

void FsQueueTree::removeReservationQueue(FsQueue& q) {
  byPath_.erase(q.path());
  followCluster_.erase(std::remove(followCluster_.begin(), followCluster_.end(), &q),
                       followCluster_.end());
  q.parent()->removeChild(&q);
}

const FsQueue* FsQueueTree::nearestConfigured(const FsQueue* q) const {
  while (q != nullptr && config_->find(q->path()) == nullptr) q = q->parent();
  return q;
}

}  // namespace spindle::fair
