// FairScheduler's update pass (FairScheduler.update: FSQueue.updateDemand, then recomputeShares
// top-down) and steady fair shares (recomputeSteadyShares), with ComputeFairShares.

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/policy/app_weight.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

fair::SchedulingPolicy FairScheduler::policyOf(const FsQueue& q) const {
  return fair::SchedulingPolicy(q.policy(), cluster().total(), settings().types.count());
}

namespace {

// Every field of a queue's or app's policy view except its name.
void queueNumbers(fair::Schedulable& v, const FsQueue& q) {
  v.isQueue = true;
  v.isActive = q.numRunnable > 0;
  v.numRunnableApps = q.numRunnable;
  v.weight = q.weight();
  v.minShare = q.minShare;
  v.maxShare = q.maxShare;
  v.demand = q.demand;
  v.usage = q.usage;
  v.startTime = 0;
  v.priority = 1;
}

void appNumbers(fair::Schedulable& v, const FsApp& a, bool sizeBasedWeight) {
  // FSAppAttempt: weight from size (optional) x priority 1; min 0, max unbounded.
  v.isQueue = false;
  v.isActive = true;
  v.numRunnableApps = 0;
  v.weight = fair::appWeight(a.demand.memoryMb(), sizeBasedWeight);
  v.minShare = Resource();
  v.maxShare = ResourceLimit::unbounded();
  v.demand = a.demand;
  v.usage = a.app->used();
  v.startTime = a.startTime;
  v.priority = 1;
}

}  // namespace

void FairScheduler::fillQueueView(fair::Schedulable& v, const FsQueue& q) const {
  v.name = q.path();
  queueNumbers(v, q);
}

void FairScheduler::fillAppView(fair::Schedulable& v, const FsApp& a) const {
  v.name = a.name;
  appNumbers(v, a, config_.site.sizeBasedWeight);
}

void FairScheduler::fillQueueShareView(fair::Schedulable& v, const FsQueue& q) const {
  v.isQueue = true;
  v.isActive = q.numRunnable > 0;
  v.weight = q.weight();
  v.minShare = q.minShare;
  v.maxShare = q.maxShare;
  v.startTime = 0;
}

void FairScheduler::fillAppShareView(fair::Schedulable& v, const FsApp& a) const {
  v.isQueue = false;
  v.isActive = true;
  v.weight = fair::appWeight(a.demand.memoryMb(), config_.site.sizeBasedWeight);
  v.minShare = Resource();
  v.maxShare = ResourceLimit::unbounded();
  v.startTime = a.startTime;
}

const fair::Schedulable& FairScheduler::refreshedView(FsQueue& q) const {
  fair::Schedulable& v = q.view;
  if (v.name.empty()) {
    fillQueueView(v, q);  // first use: the path, which never changes for this queue
    return v;
  }
  queueNumbers(v, q);
  return v;
}

const fair::Schedulable& FairScheduler::refreshedView(FsApp& a) const {
  fair::Schedulable& v = a.view;
  if (v.name.empty()) {
    fillAppView(v, a);  // first use: name, start time and the fixed fields of an app's view
    return v;
  }
  v.weight = fair::appWeight(a.demand.memoryMb(), config_.site.sizeBasedWeight);
  v.demand = a.demand;
  v.usage = a.app->used();
  return v;
}

fair::Schedulable FairScheduler::queueView(const FsQueue& q) const {
  fair::Schedulable v;
  fillQueueView(v, q);
  return v;
}

fair::Schedulable FairScheduler::appView(const FsApp& a) const {
  fair::Schedulable v;
  fillAppView(v, a);
  return v;
}

FairScheduler::LevelScratch& FairScheduler::scratchAt(size_t depth) {
  while (scratch_.size() <= depth) scratch_.emplace_back();  // deque: references stay valid
  return scratch_[depth];
}

bool FairScheduler::updateDue() const {
  return !lastUpdate_ || clock().nowMs() - *lastUpdate_ >= config_.site.updateIntervalMs;
}

void FairScheduler::maybeUpdate() {
  if (updateDue()) update();
}

void FairScheduler::update() {
  lastUpdate_ = clock().nowMs();
  tree_.removeEmptyDynamicQueues();
  updateStarvationStats2x();   // before demand and shares, as 2.x's update() (the deficit view)
  updateDemand(tree_.root());  // keeps the current policy orders current (demandsChanged)
  tree_.root().fairShare = cluster().total();
  computeShares(tree_.root(), 0);
  if (config_.site.preemptionDesign == fair::PreemptionDesign::k2x) {
    preemptTasksIfNecessary2x();
    return;
  }
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
        FsApp& a = fsAppAt(id);
        a.demand = a.app->used() + a.app->asks().pending();
        demand += a.demand;
      }
    }
  } else {
    for (const auto& c : q.children()) {
      updateDemand(*c);
      demand += c->demand;
    }
  }
  demandsChanged(q);  // the apps' or children's demands are final now
  q.demand = q.maxShare.clamp(demand);
}

void FairScheduler::computeShares(FsQueue& q, size_t depth) {
  const fair::SchedulingPolicy policy = policyOf(q);
  LevelScratch& s = scratchAt(depth);
  if (q.isLeaf()) {
    // FSLeafQueue.recomputeShares: only runnable apps take part.
    const size_t n = q.runnableApps.size();
    s.views.resize(n);
    s.shares.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const FsApp& a = fsAppAt(q.runnableApps[i]);
      fillAppShareView(s.views[i], a);
      s.shares[i] = a.fairShare;
    }
    policy.computeShares(s.views, q.fairShare, fair::ShareMode::kInstantaneous, s.shares);
    for (size_t i = 0; i < n; ++i) fsAppAt(q.runnableApps[i]).fairShare = s.shares[i];
    for (AppId id : q.nonRunnableApps) fsAppAt(id).fairShare = Resource();
    return;
  }
  const size_t n = q.children().size();
  s.views.resize(n);
  s.shares.resize(n);
  for (size_t i = 0; i < n; ++i) {
    fillQueueShareView(s.views[i], *q.children()[i]);
    s.shares[i] = q.children()[i]->fairShare;
  }
  policy.computeShares(s.views, q.fairShare, fair::ShareMode::kInstantaneous, s.shares);
  // Every child's share first: the recursion below reuses deeper levels' buffers only.
  for (size_t i = 0; i < n; ++i) q.children()[i]->fairShare = s.shares[i];
  for (size_t i = 0; i < n; ++i) computeShares(*q.children()[i], depth + 1);
}

std::unordered_map<const FsQueue*, Resource> FairScheduler::steadyFairShares() const {
  std::unordered_map<const FsQueue*, Resource> out;
  std::vector<LevelScratch> scratch;
  out[&tree_.root()] = cluster().total();
  splitSteadyShare(tree_.root(), 0, scratch, out);
  return out;
}

// The shares start at zero: a policy writes only its own types (fair: memory), as YARN's
// steady share Resource starts at zero and is set per type.
void FairScheduler::splitSteadyShare(const FsQueue& q, size_t depth,
                                     std::vector<LevelScratch>& scratch,
                                     std::unordered_map<const FsQueue*, Resource>& out) const {
  if (q.isLeaf()) return;
  if (scratch.size() <= depth) scratch.resize(depth + 1);
  LevelScratch& s = scratch[depth];
  const size_t n = q.children().size();
  s.views.resize(n);
  s.shares.assign(n, Resource());
  for (size_t i = 0; i < n; ++i) fillQueueShareView(s.views[i], *q.children()[i]);
  policyOf(q).computeShares(s.views, out.at(&q), fair::ShareMode::kSteady, s.shares);
  for (size_t i = 0; i < n; ++i) out[q.children()[i].get()] = s.shares[i];
  // scratch may grow (and move) below: the shares were copied out first.
  for (size_t i = 0; i < n; ++i) splitSteadyShare(*q.children()[i], depth + 1, scratch, out);
}

void FairScheduler::runMonitors() {
  checkAllocationFile();
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
