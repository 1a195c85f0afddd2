// FairScheduler's update pass (FairScheduler.update: FSQueue.updateDemand, then
// recomputeShares top-down) and steady fair shares (recomputeSteadyShares). Reference
// fair-scheduler.md §1.1-1.2.
#include <functional>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/policy/app_weight.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

fair::SchedulingPolicy FairScheduler::policyOf(const FsQueue& q) const {
  return fair::SchedulingPolicy(q.policy(), cluster().total(), settings().types.count());
}

fair::Schedulable FairScheduler::queueView(const FsQueue& q) const {
  return fair::Schedulable::queue(q.path())
      .withWeight(q.weight())
      .withMinShare(q.minShare)
      .withMaxShare(q.maxShare)
      .withDemand(q.demand)
      .withUsage(q.usage)
      .withActive(q.numRunnable > 0)
      .withRunnableApps(q.numRunnable);
}

fair::Schedulable FairScheduler::appView(const FsApp& a) const {
  // FSAppAttempt: weight from size (optional) x priority 1; min 0, max unbounded.
  return fair::Schedulable::app(a.name, a.startTime)
      .withWeight(fair::appWeight(a.demand.memoryMb(), config_.site.sizeBasedWeight))
      .withDemand(a.demand)
      .withUsage(apps().at(a.id)->used());
}

bool FairScheduler::updateDue() const {
  return !lastUpdate_ || clock().nowMs() - *lastUpdate_ >= config_.site.updateIntervalMs;
}

void FairScheduler::maybeUpdate() {
  if (updateDue()) update();
}

void FairScheduler::update() {
  lastUpdate_ = clock().nowMs();
  if (tree_.removeEmptyDynamicQueues()) computeSteadyShares();
  updateDemand(tree_.root());
  tree_.root().fairShare = cluster().total();
  computeShares(tree_.root());
  if (!shouldAttemptPreemption()) return;
  std::vector<AppId> starved;
  for (FsQueue* q : tree_.preorder()) {
    if (q->isLeaf()) updateStarvedApps(*q, starved);
  }
  preemptForStarvedApps(std::move(starved));
}

void FairScheduler::updateDemand(FsQueue& q) {
  Resource demand;
  if (q.isLeaf()) {
    // FSLeafQueue.updateDemand: runnable and waiting apps alike.
    for (const auto* list : {&q.runnableApps, &q.nonRunnableApps}) {
      for (AppId id : *list) {
        FsApp& a = fsApps_.at(id);
        const Application& app = *apps().at(id);
        a.demand = app.used() + app.asks().pending();
        demand += a.demand;
      }
    }
  } else {
    for (const auto& c : q.children()) {
      updateDemand(*c);
      demand += c->demand;
    }
  }
  q.demand = q.maxShare.clamp(demand);
}

void FairScheduler::computeShares(FsQueue& q) {
  const fair::SchedulingPolicy policy = policyOf(q);
  if (q.isLeaf()) {
    // FSLeafQueue.recomputeShares: only runnable apps take part.
    std::vector<fair::Schedulable> views;
    std::vector<Resource> shares;
    for (AppId id : q.runnableApps) {
      views.push_back(appView(fsApps_.at(id)));
      shares.push_back(fsApps_.at(id).fairShare);
    }
    policy.computeShares(views, q.fairShare, fair::ShareMode::kInstantaneous, shares);
    for (size_t i = 0; i < q.runnableApps.size(); ++i) {
      fsApps_.at(q.runnableApps[i]).fairShare = shares[i];
    }
    for (AppId id : q.nonRunnableApps) fsApps_.at(id).fairShare = Resource();
    return;
  }
  std::vector<fair::Schedulable> views;
  std::vector<Resource> shares;
  for (const auto& c : q.children()) {
    views.push_back(queueView(*c));
    shares.push_back(c->fairShare);
  }
  policy.computeShares(views, q.fairShare, fair::ShareMode::kInstantaneous, shares);
  for (size_t i = 0; i < q.children().size(); ++i) {
    q.children()[i]->fairShare = shares[i];
    computeShares(*q.children()[i]);
  }
}

void FairScheduler::computeSteadyShares() {
  tree_.root().steadyFairShare = cluster().total();
  std::function<void(FsQueue&)> split = [&](FsQueue& q) {
    if (q.isLeaf()) return;
    std::vector<fair::Schedulable> views;
    std::vector<Resource> shares;
    for (const auto& c : q.children()) {
      views.push_back(queueView(*c));
      shares.push_back(c->steadyFairShare);
    }
    policyOf(q).computeShares(views, q.steadyFairShare, fair::ShareMode::kSteady, shares);
    for (size_t i = 0; i < q.children().size(); ++i) {
      q.children()[i]->steadyFairShare = shares[i];
      split(*q.children()[i]);
    }
  };
  split(tree_.root());
}

void FairScheduler::runMonitors() {
  killDuePreemptions();
  update();
  if (!config_.site.continuousSchedulingEnabled) return;
  // FairScheduler.continuousSchedulingAttempt: nodes by unallocated resource, largest first
  // (NodeAvailableResourceComparator, memory under the default calculator), each with at least
  // the minimum allocation free.
  std::vector<NodeId> nodes = cluster().nodeIds();
  std::stable_sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    return cluster().node(a).unallocated().memoryMb() > cluster().node(b).unallocated().memoryMb();
  });
  for (NodeId n : nodes) {
    if (settings().bounds.minimum.fitsIn(cluster().node(n).unallocated())) attemptScheduling(n);
  }
}

}  // namespace spindle
