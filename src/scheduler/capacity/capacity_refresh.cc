// refreshQueues: validate a new capacity configuration against the running apps and swap the
// queue tree, or change nothing (YARN's CapacityScheduler.reinitialize).
#include <algorithm>
#include <set>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/plan_queues.h"

namespace spindle {

Status CapacityScheduler::refreshWithConfig(CapacityConfig next) {
  sync();
  if (!planChildren_.empty() || std::any_of(next.queues.begin(), next.queues.end(),
                                            [](const auto& q) { return q.second.reservable; })) {
    expandPlanQueues(next, planChildren_);
  }
  std::vector<std::string> errors;
  for (const CsQueue* q : tree_->preorder()) {
    auto it = next.queues.find(q->path());
    // CapacitySchedulerConfigValidator.validateQueueHierarchy: only a STOPPED queue (with
    // nothing left in it) may be deleted; a reservation queue goes when it is empty.
    if (it == next.queues.end()) {
      if (q->state != QueueRunState::kStopped && !q->config().reservationQueue) {
        errors.push_back(fmt::format(
            "{} cannot be deleted from the capacity scheduler configuration, as the queue is not "
            "yet in stopped state",
            q->path()));
      } else if (q->numApplications > 0) {
        errors.push_back(fmt::format("queue {} is removed but has {} applications", q->path(),
                                     q->numApplications));
      }
      continue;
    }
    if (q->numApplications == 0) continue;
    if (q->isLeaf() && !it->second.isLeaf()) {
      errors.push_back(fmt::format("queue {} becomes a parent but has {} applications", q->path(),
                                   q->numApplications));
    }
  }
  if (!errors.empty()) {
    std::string all;
    for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + e;
    return failedPrecondition("refreshQueues: {}", all);
  }
  auto tree = QueueTree::build(next);
  // Move each surviving leaf's apps, users and usage into the new tree.
  for (CsQueue* fresh : tree->leaves()) {
    CsQueue* old = tree_->find(fresh->path());
    if (old == nullptr || !old->isLeaf() || old->path() != fresh->path()) continue;
    fresh->usages = old->usages;
    fresh->users = std::move(old->users);
    for (auto& [name, u] : fresh->users) u.weight = fresh->userWeight(name);
    fresh->schedulable = std::move(old->schedulable);
    fresh->pendingApps = std::move(old->pendingApps);
    fresh->activeApps = std::move(old->activeApps);
    fresh->nonRunnableApps = std::move(old->nonRunnableApps);
    fresh->numApplications = old->numApplications;
    fresh->numRunnable = static_cast<int>(fresh->activeApps.size() + fresh->pendingApps.size());
    fresh->activeUsed = old->activeUsed;
    fresh->usageRatioSum = old->usageRatioSum;
    fresh->activeUsers = 0;
    fresh->activeUsersWeight = 0;
    for (const auto& [name, u] : fresh->users) {
      if (u.appsWithPending > 0) {
        ++fresh->activeUsers;
        fresh->activeUsersWeight += u.weight;
      }
    }
  }
  // Parents: sums of their children, bottom up.
  const auto& order = tree->preorder();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    CsQueue* q = *it;
    if (q->isLeaf()) continue;
    q->usages.clear();
    q->numApplications = 0;
    q->numRunnable = 0;
    for (CsQueue* c : q->children()) {
      for (const auto& [p, u] : c->usages) {
        QueueUsage& mine = q->usage(p);
        mine.used += u.used;
        mine.reserved += u.reserved;
        mine.pending += u.pending;
        mine.amUsed += u.amUsed;
      }
      q->numApplications += c->numApplications;
      q->numRunnable += c->numRunnable;
    }
  }
  // Stopping a queue that still has apps drains it (queue state STOPPED).
  for (CsQueue* q : tree->preorder()) {
    if (q->state == QueueRunState::kStopped && q->numApplications > 0) {
      q->state = QueueRunState::kDraining;
    }
  }
  for (auto& [id, s] : csApps_) {
    s.leaf = tree->find(s.leaf->path());
    s.user = &s.leaf->user(s.app->user());
  }
  // The ordering policy may have changed: re-key every schedulable app.
  for (CsQueue* leaf : tree->leaves()) leaf->schedulable.clear();
  for (auto& [id, s] : csApps_) {
    if (!s.schedulable) continue;
    s.orderKey = orderKeyFor(s);
    s.leaf->schedulable.insert(s.orderKey);
  }
  for (CsQueue* leaf : tree->leaves()) updateHead(*leaf);
  tree_ = std::move(tree);
  config_ = std::move(next);
  dirty_ = true;
  recountPartitions_ = true;  // rebuilds the async node index, which the refresh may turn on
  syncNow();  // resolves capacities, recomputes AM limits and activates pending apps
  promoteNonRunnable();
  return Status::ok();
}

}  // namespace spindle
