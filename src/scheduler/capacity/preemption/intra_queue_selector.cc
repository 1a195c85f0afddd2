#include "scheduler/capacity/preemption/intra_queue_selector.h"

#include <algorithm>
#include <map>

#include "scheduler/capacity/preemption/selection_util.h"

namespace spindle::preemption {
namespace {

// TempAppPerPartition.
struct TempApp {
  const AppSnapshot* app = nullptr;
  Resource used, amUsed, pending, selected;
  Resource ideal, toBePreempted, needFromOthers, matched;
};

// TempUserPerPartition.
struct TempUser {
  Resource limit, used, amUsed, ideal;
};

// High priority first, then FIFO (older app first): TAPriorityComparator.
bool higherFirst(const TempApp& a, const TempApp& b) {
  if (a.app->priority != b.app->priority) return a.app->priority > b.app->priority;
  return a.app->attempt < b.app->attempt;
}

Resource sub0(const Resource& a, const Resource& b) { return (a - b).clampedAtZero(); }

class LeafPlan {
 public:
  LeafPlan(RoundState& st, QueueId leaf, const std::string& partition)
      : st_(st),
        rc_(st.rc()),
        cluster_(st.snapshot().clusterTotal),
        leaf_(leaf),
        partition_(partition),
        tq_(st.queue(leaf, partition)) {}

  // Steps 1-5; returns false when the queue is skipped.
  bool compute() {
    const PreemptionSettings& s = st_.settings();
    if (tq_.intraQueueDisabled || tq_.preemptionDisabled) return false;
    if (tq_.guaranteed.memoryMb() <= 0) return false;
    // Resources.divide under the scheduler's calculator: YARN's float.
    double usedRatio = rc_.divide(tq_.partitionTotal, tq_.used, tq_.guaranteed);
    if (usedRatio < s.intraQueueMinimumThreshold) return false;
    buildApps();
    if (apps_.size() < 2) return false;
    Resource reassignable = tq_.used - tq_.actuallyToBePreempted;
    for (const TempApp& a : apps_) reassignable -= a.amUsed;
    reassignable = reassignable.clampedAtZero();
    idealPerApp(reassignable);
    Resource limit = rc_.min(cluster_,
                             multiplyAndRoundDown(tq_.guaranteed, s.intraQueueMaxAllowableLimit) -
                                 tq_.actuallyToBePreempted,
                             st_.totalPreemptionAllowed());
    toBePreemptedPerApp(limit);
    matchDemand();
    return true;
  }

  Resource target() const {
    Resource t;
    for (const TempApp& a : apps_) t += a.matched;
    return t;
  }

  // Step 6.
  void selectContainers(int selectorIndex) {
    const PreemptionSettings& s = st_.settings();
    const bool userLimitFirst = s.intraQueueOrderPolicy == IntraQueueOrderPolicy::kUserLimitFirst;
    ToObtain obtain;
    Resource t = target();
    if (!rc_.greaterThan(cluster_, t, Resource())) return;
    obtain[partition_] = t;
    std::map<std::string, Resource> rolling;
    for (const auto& [user, u] : users_) rolling[user] = u.used;
    // Lowest priority first, newest first.
    std::vector<const TempApp*> order;
    for (const TempApp& a : apps_) order.push_back(&a);
    std::sort(order.begin(), order.end(),
              [](const TempApp* a, const TempApp* b) { return higherFirst(*b, *a); });
    for (const TempApp* a : order) {
      Resource& userUsed = rolling[a->app->user];
      const Resource& limit = users_[a->app->user].limit;
      for (const ContainerSnapshot* c : liveContainersInPreemptionOrder(*a->app)) {
        if (obtain.empty()) return;
        if (st_.isSelected(c->id) || c->killable || c->isAm) continue;
        if (st_.nodePartition(c->node) != partition_) continue;
        if (userLimitFirst && rc_.lessThan(cluster_, userUsed - c->size, limit) &&
            rc_.greaterThan(cluster_, userUsed, limit)) {
          continue;  // would push the user below its limit
        }
        bool taken = tryPreemptContainer(st_, obtain, *a->app, *c, selectorIndex,
                                         s.intraQueueConservativeDrf, leaf_);
        if (taken && userLimitFirst) userUsed -= c->size;
      }
    }
  }

 private:
  void buildApps() {
    const QueueSnapshot& qs = st_.snapshot().queue(leaf_);
    auto limits = qs.partitions.find(partition_);
    for (const AttemptId& id : qs.appsInPreemptionOrder) {
      const AppSnapshot* app = st_.app(id);
      TempApp t;
      t.app = app;
      for (const ContainerSnapshot& c : app->containers) {
        if (c.isReservation || st_.nodePartition(c.node) != partition_) continue;
        t.used += c.size;
        if (c.isAm) t.amUsed += c.size;
        if (st_.isSelected(c.id)) t.selected += c.size;
      }
      auto p = app->pending.find(partition_);
      if (p != app->pending.end()) t.pending = p->second;
      TempUser& u = users_[app->user];
      u.used += t.used;
      u.amUsed += t.amUsed;
      if (limits != qs.partitions.end()) {
        auto l = limits->second.userLimits.find(app->user);
        if (l != limits->second.userLimits.end()) u.limit = l->second;
      }
      apps_.push_back(t);
    }
    std::sort(apps_.begin(), apps_.end(), higherFirst);
  }

  void idealPerApp(Resource reassignable) {
    for (TempApp& a : apps_) {
      if (rc_.lessThanOrEqual(cluster_, reassignable, Resource())) continue;
      TempUser& u = users_[a.app->user];
      Resource userLimit = u.limit - u.amUsed;
      if (!rc_.lessThan(cluster_, u.ideal, userLimit)) continue;
      Resource wanted = a.used - a.amUsed + a.pending - a.selected;
      Resource ideal = rc_.min(cluster_, wanted, userLimit - u.ideal);
      a.ideal = rc_.min(cluster_, reassignable, ideal).clampedAtZero();
      u.ideal += a.ideal;
      Resource usedNotSelected = a.used - a.selected;
      if (rc_.greaterThan(cluster_, a.ideal, usedNotSelected)) {
        a.needFromOthers = a.ideal - usedNotSelected;
      }
      reassignable = sub0(reassignable, a.ideal);
    }
  }

  void toBePreemptedPerApp(Resource limit) {
    const bool userLimitFirst =
        st_.settings().intraQueueOrderPolicy == IntraQueueOrderPolicy::kUserLimitFirst;
    for (auto it = apps_.rbegin(); it != apps_.rend(); ++it) {
      TempApp& a = *it;
      if (rc_.lessThanOrEqual(cluster_, limit, Resource()) ||
          rc_.lessThanOrEqual(cluster_, a.used, Resource())) {
        continue;
      }
      Resource preemptable = sub0(sub0(sub0(a.used - a.ideal, a.selected), a.amUsed),
                                  userLimitFirst ? st_.snapshot().minimumAllocation : Resource());
      a.toBePreempted = rc_.min(cluster_, preemptable.clampedAtZero(), limit);
      limit -= a.toBePreempted;
    }
  }

  // validateOutSameAppPriorityFromDemand: match each needy app (highest first) against the
  // lowest apps' toBePreempted; same user and not-lower priority never match.
  void matchDemand() {
    for (TempApp& h : apps_) {
      for (auto it = apps_.rbegin(); it != apps_.rend(); ++it) {
        TempApp& l = *it;
        if (&l == &h || !rc_.greaterThan(cluster_, h.needFromOthers, Resource())) continue;
        Resource left = l.toBePreempted - l.matched;
        if (!rc_.greaterThan(cluster_, left, Resource())) continue;
        if (l.app->user == h.app->user && l.app->priority >= h.app->priority) continue;
        Resource take = rc_.min(cluster_, h.needFromOthers, left);
        l.matched += take;
        h.needFromOthers -= take;
      }
    }
  }

  RoundState& st_;
  const ResourceCalculator& rc_;
  Resource cluster_;
  QueueId leaf_;
  std::string partition_;
  TempQueue& tq_;
  std::vector<TempApp> apps_;  // highest priority first
  std::map<std::string, TempUser> users_;
};

}  // namespace

void IntraQueueSelector::select(RoundState& st) const {
  // The inter-queue figures of the last calculator stay in place; earlier picks count first.
  deductSelected(st);
  for (const std::string& partition : st.partitionNames()) {
    std::vector<QueueId> queues = st.underServed(partition);
    for (QueueId q : queues) {
      if (!st.snapshot().queue(q).isLeaf()) continue;
      LeafPlan plan(st, q, partition);
      if (!plan.compute()) continue;
      plan.selectContainers(index_);
    }
  }
}

}  // namespace spindle::preemption
