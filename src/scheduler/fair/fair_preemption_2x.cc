// Fair Scheduler preemption, Hadoop 2.x design (FairScheduler.updateStarvationStats,
// resToPreempt / resourceDeficit, preemptTasksIfNecessary, preemptResources, warnOrKillContainer
// and the recursive FSParentQueue / FSLeafQueue / FSAppAttempt.preemptContainer). Selected with
// spindle.scheduler.fair.preemption.design = 2.x. Reference: the seed
// yarn-schedulers-and-fair-preemption.txt; vectors P2-*.
//
// On every update pass (the MonitorTick; the update thread in YARN):
//  1. Before demand and shares are refreshed, each leaf's clocks move to now unless it is
//     starved: lastTimeAtMinShare unless usage < min(minShare, demand), and
//     lastTimeAtFairShareThreshold unless usage < min(fairShare x fairSharePreemptionThreshold,
//     demand) (the policy's calculator; demand and shares of the previous pass, as in YARN).
//  2. After the shares: return unless yarn.scheduler.fair.preemption is on and utilisation
//     (max of memory and vcores) is above the threshold, or unless preemptionInterval has passed
//     since the last check. Sum over leaves resourceDeficit(leaf, now) =
//     max(min(minShare, demand) - usage once the min-share timeout has passed,
//         min(fairShare, demand) - usage once the fair-share timeout has passed)
//     (the full fair share, not the threshold; max under the policy's calculator; each part
//     floored at zero).
//  3. preemptResources(total): each warned container still live is warned again or killed
//     while something is left to preempt (its size is subtracted), else dropped from the list.
//     Then, while something is left: pick a container from root down (the child most over its
//     fair share under the parent's policy, queues with allowPreemptionFrom=false skipped; a
//     leaf gives nothing unless its usage is over its fair share; its app most over its share,
//     or the latest-started under FIFO; that app's unwarned container of the least important
//     priority, newest first), warn it and subtract its size. During the round the comparators
//     see each app's usage minus its warned containers (FSAppAttempt.getResourceUsage).
//  4. warnOrKill: a container not warned yet is warned now (PREEMPT_MARK, in the app's
//     preemption message); one warned more than waitTimeBeforeKill ago is killed (exit status
//     PREEMPTED); in between nothing happens.
// Comparators: the 2.x FairSharePolicy comparator (no demand stage; ratio usage / max(minShare,
// 1); usage / weight even for weight 0); DRF and FIFO as in 3.x.
// A container that drops off the warned list while still live (nothing was left to preempt)
// stays warned in its app and is never picked again, as in YARN.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;
using fair::PolicyKind;
using fair::Schedulable;

namespace {

// Resources.multiply(r, float): each type truncated.
Resource scaled(const Resource& r, float by, int typeCount) {
  Resource out;
  for (int i = 0; i < typeCount; ++i) {
    out.set(i, static_cast<int64_t>(static_cast<double>(r.get(i)) * static_cast<double>(by)));
  }
  return out;
}

int sign(double v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

// The 2.x FairSharePolicy comparator (Hadoop 2.8): memory only, no demand stage.
int fairShareCompare2x(const Schedulable& s1, const Schedulable& s2) {
  auto minShare = [](const Schedulable& s) {
    return std::min(s.minShare.memoryMb(), s.demand.memoryMb());
  };
  const int64_t m1 = minShare(s1), m2 = minShare(s2);
  const bool needy1 = s1.usage.memoryMb() < m1;
  const bool needy2 = s2.usage.memoryMb() < m2;
  int res = 0;
  if (needy1 && !needy2) {
    res = -1;
  } else if (needy2 && !needy1) {
    res = 1;
  } else if (needy1 && needy2) {
    const double r1 =
        static_cast<double>(s1.usage.memoryMb()) / static_cast<double>(std::max<int64_t>(m1, 1));
    const double r2 =
        static_cast<double>(s2.usage.memoryMb()) / static_cast<double>(std::max<int64_t>(m2, 1));
    res = sign(r1 - r2);
  } else {
    // long / float weight in Java: x/0 is +inf, 0/0 NaN (which compares as a tie).
    const double w1 = static_cast<double>(s1.usage.memoryMb()) / static_cast<double>(s1.weight);
    const double w2 = static_cast<double>(s2.usage.memoryMb()) / static_cast<double>(s2.weight);
    res = std::isnan(w1 - w2) ? 0 : sign(w1 - w2);
  }
  if (res == 0) res = sign(static_cast<double>(s1.startTime - s2.startTime));
  if (res == 0) res = s1.name.compare(s2.name) < 0 ? -1 : (s1.name == s2.name ? 0 : 1);
  return res;
}

bool greaterThanNone(const Resource& r) { return r.memoryMb() > 0 || r.vcores() > 0; }

}  // namespace

bool FairScheduler::starvedFor(const FsQueue& leaf, const Resource& share) const {
  // FSLeafQueue.isStarved: Resources.min and lessThan under the policy's calculator.
  const Resource& total = cluster().total();
  if (leaf.policy() == PolicyKind::kDrf) {
    const Resource desired =
        dominant_->compare(total, share, leaf.demand) <= 0 ? share : leaf.demand;
    return dominant_->compare(total, leaf.usage, desired) < 0;
  }
  return leaf.usage.memoryMb() < std::min(share.memoryMb(), leaf.demand.memoryMb());
}

bool FairScheduler::queueStarved(const FsQueue& q) const {
  if (!q.isLeaf()) {
    return std::any_of(q.children().begin(), q.children().end(),
                       [&](const auto& c) { return queueStarved(*c); });
  }
  const Resource fairThreshold =
      scaled(q.fairShare, q.config().fairSharePreemptionThreshold, settings().types.count());
  return starvedFor(q, q.minShare) || starvedFor(q, fairThreshold);
}

Resource FairScheduler::resourceDeficit(const FsQueue& q) const {
  if (q.isLeaf()) return resourceDeficit2x(q, clock().nowMs(), nullptr);
  Resource sum;
  for (const auto& c : q.children()) sum += resourceDeficit(*c);
  return sum;
}

Resource FairScheduler::resourceDeficit2x(const FsQueue& leaf, TimeMs now, std::string* why) const {
  auto clocks = leafClocks2x_.find(leaf.path());
  const LeafClocks2x c = clocks == leafClocks2x_.end() ? LeafClocks2x{now, now} : clocks->second;
  const Resource& total = cluster().total();
  // Resources.max under the policy's calculator: lhs when compare(lhs, rhs) >= 0.
  auto maxOf = [&](const Resource& a, const Resource& b) {
    const int cmp = leaf.policy() == PolicyKind::kDrf
                        ? dominant_->compare(total, a, b)
                        : sign(static_cast<double>(a.memoryMb() - b.memoryMb()));
    return cmp >= 0 ? a : b;
  };
  Resource dueToMin, dueToFair;
  const int64_t minTimeout = leaf.config().minSharePreemptionTimeoutMs;
  const int64_t fairTimeout = leaf.config().fairSharePreemptionTimeoutMs;
  const bool minDue = now - c.lastTimeAtMinShare > minTimeout;
  const bool fairDue = now - c.lastTimeAtFairShareThreshold > fairTimeout;
  if (minDue) {
    const Resource target = Resource::componentwiseMin(leaf.minShare, leaf.demand);
    dueToMin = maxOf(Resource(), target - leaf.usage).clampedAtZero();
  }
  if (fairDue) {
    const Resource target = Resource::componentwiseMin(leaf.fairShare, leaf.demand);
    dueToFair = maxOf(Resource(), target - leaf.usage).clampedAtZero();
  }
  const Resource deficit = maxOf(dueToMin, dueToFair);
  if (why != nullptr && greaterThanNone(deficit)) {
    *why = fmt::format(
        "{} deficit {} (min share: {}, fair share: {})", leaf.path(), deficit.toString(),
        minDue ? fmt::format("{} after {} ms below min(minShare, demand)", dueToMin.toString(),
                             now - c.lastTimeAtMinShare)
               : "timeout not reached",
        fairDue ? fmt::format("{} after {} ms below the fair-share threshold", dueToFair.toString(),
                              now - c.lastTimeAtFairShareThreshold)
                : "timeout not reached");
  }
  return deficit;
}

void FairScheduler::updateStarvationStats2x() {
  const TimeMs now = clock().nowMs();
  std::map<std::string, LeafClocks2x> next;
  for (const FsQueue* q : tree_.preorder()) {
    if (!q->isLeaf()) continue;
    auto it = leafClocks2x_.find(q->path());
    LeafClocks2x c = it == leafClocks2x_.end() ? LeafClocks2x{now, now} : it->second;
    if (!starvedFor(*q, q->minShare)) c.lastTimeAtMinShare = now;
    const Resource threshold =
        scaled(q->fairShare, q->config().fairSharePreemptionThreshold, settings().types.count());
    if (!starvedFor(*q, threshold)) c.lastTimeAtFairShareThreshold = now;
    next.emplace(q->path(), c);
  }
  leafClocks2x_ = std::move(next);
}

void FairScheduler::preemptTasksIfNecessary2x() {
  if (!shouldAttemptPreemption()) {
    lastToPreempt2x_ = Resource();
    return;
  }
  const TimeMs now = clock().nowMs();
  if (now - lastPreemptCheck2x_ < config_.site.preemptionIntervalMs) return;
  lastPreemptCheck2x_ = now;
  lastToPreempt2x_ = Resource();
  Resource toPreempt;
  std::string why;
  for (const FsQueue* q : tree_.preorder()) {
    if (!q->isLeaf()) continue;
    std::string leafWhy;
    toPreempt += resourceDeficit2x(*q, now, &leafWhy);
    if (leafWhy.empty()) continue;
    if (!why.empty()) why += "; ";
    why += leafWhy;
  }
  if (!greaterThanNone(toPreempt)) return;
  lastToPreempt2x_ = toPreempt;
  preemptResources2x(toPreempt, fmt::format("2.x preemption of {}: {}", toPreempt.toString(), why));
}

void FairScheduler::preemptResources2x(Resource toPreempt, const std::string& why) {
  // Warned containers first: warned again (nothing happens), or killed once their time is up.
  std::vector<ContainerId> keep;
  for (ContainerId c : warned2x_) {
    const Container* live = findContainer(c);
    if (live == nullptr || !greaterThanNone(toPreempt)) continue;
    const Resource size = live->resource;
    keep.push_back(c);
    warnOrKill2x(c, why);
    toPreempt -= size;
  }
  warned2x_ = std::move(keep);
  // Usage seen by the comparators: minus every warned container (resetPreemptedResources).
  std::map<const FsQueue*, Resource> usage;
  for (const FsQueue* q : tree_.preorder()) usage[q] = q->usage;
  for (const auto& [id, fa] : fsApps_) {
    if (fa.markedResource.isZero()) continue;
    for (const FsQueue* q = fa.leaf; q != nullptr; q = q->parent()) usage[q] -= fa.markedResource;
  }
  while (greaterThanNone(toPreempt)) {
    std::optional<ContainerId> c = preemptContainer2x(tree_.root(), usage);
    if (!c) break;
    const Resource size = findContainer(*c)->resource;
    warnOrKill2x(*c, why);
    warned2x_.push_back(*c);
    for (const FsQueue* q = fsApps_.at(c->app()).leaf; q != nullptr; q = q->parent()) {
      usage[q] -= size;
    }
    toPreempt -= size;
  }
}

std::optional<ContainerId> FairScheduler::preemptContainer2x(
    const FsQueue& q, std::map<const FsQueue*, Resource>& usage) {
  auto compare = [&](PolicyKind kind, const Schedulable& a, const Schedulable& b) {
    if (kind == PolicyKind::kFair) return fairShareCompare2x(a, b);
    return fair::SchedulingPolicy(kind, cluster().total(), settings().types.count()).compare(a, b);
  };
  if (!q.isLeaf()) {
    // FSParentQueue.preemptContainer: the preemptable child most over its fair share.
    const FsQueue* candidate = nullptr;
    Schedulable best;
    for (const auto& child : q.children()) {
      if (!child->config().allowPreemptionFrom) continue;
      Schedulable view = queueView(*child).withUsage(usage[child.get()]);
      if (candidate == nullptr || compare(q.policy(), view, best) > 0) {
        candidate = child.get();
        best = std::move(view);
      }
    }
    if (candidate == nullptr) return std::nullopt;
    return preemptContainer2x(*candidate, usage);
  }
  // FSLeafQueue.preemptContainer: only from a leaf over its fair share (the parent's policy).
  if (!q.config().allowPreemptionFrom || q.parent() == nullptr) return std::nullopt;
  Result<bool> over = policyOf(*q.parent()).isUsageOverFairShare(usage[&q], q.fairShare);
  if (!over.isOk() || !*over) return std::nullopt;
  const FsApp* app = nullptr;
  Schedulable best;
  for (AppId id : q.runnableApps) {
    const FsApp& fa = fsApps_.at(id);
    Schedulable view = appView(fa).withUsage(apps().at(id)->used() - fa.markedResource);
    if (app == nullptr || compare(q.policy(), view, best) > 0) {
      app = &fa;
      best = std::move(view);
    }
  }
  if (app == nullptr) return std::nullopt;
  // FSAppAttempt.preemptContainer: RMContainerComparator's minimum among unwarned containers,
  // i.e. the least important priority (highest number), then the newest.
  const Container* pick = nullptr;
  for (ContainerId id : apps().at(app->id)->liveContainers()) {
    if (app->markedForPreemption.count(id)) continue;
    const Container* c = findContainer(id);
    if (pick == nullptr || c->key.priority > pick->key.priority ||
        (c->key.priority == pick->key.priority && c->id > pick->id)) {
      pick = c;
    }
  }
  if (pick == nullptr) return std::nullopt;
  return pick->id;
}

void FairScheduler::warnOrKill2x(ContainerId id, const std::string& why) {
  const TimeMs now = clock().nowMs();
  const Container& c = *findContainer(id);
  FsApp& owner = fsApps_.at(id.app());
  auto warned = warnedAt2x_.find(id);
  if (warned != warnedAt2x_.end()) {
    const TimeMs at = warned->second;
    if (at + config_.site.waitTimeBeforeKillMs < now) {
      finishContainer(id, ContainerEvent::KILL, ContainerExitStatus::PREEMPTED, DecisionKind::kKill,
                      fmt::format("killed {} ms after its preemption warning (waitTimeBeforeKill "
                                  "{} ms); {}",
                                  now - at, config_.site.waitTimeBeforeKillMs, why));
    }
    return;
  }
  warnedAt2x_[id] = now;
  owner.markedForPreemption.insert(id);
  owner.markedResource += c.resource;
  Decision d;
  d.kind = DecisionKind::kPreemptMark;
  d.time = now;
  d.app = id.app();
  d.container = id;
  d.node = c.node;
  d.queue = owner.leaf->path();
  d.resource = c.resource;
  d.am = c.isAm;
  d.reason = fmt::format("warned: {} is over its fair share; {}", owner.leaf->path(), why);
  d.numbers = {{"toPreemptMb", static_cast<double>(lastToPreempt2x_.memoryMb())},
               {"waitTimeBeforeKillMs", static_cast<double>(config_.site.waitTimeBeforeKillMs)}};
  record(std::move(d));
}

}  // namespace spindle
