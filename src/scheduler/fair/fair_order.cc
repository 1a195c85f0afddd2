// The policy orders the assignment descent walks (FSParentQueue.assignContainer sorts the child
// queues with the policy's comparator, FSLeafQueue.assignContainer the runnable apps with demand).
// YARN sorts at every level of every descent; here each queue keeps its members sorted and the
// order is brought up to date only where an input of the comparator changed:
//  - a container allocated or finished changes the usage of one app and of the queues above
//    it: that app moves within its leaf's order, each queue on the path within its parent's
//    (chargeContainer; a binary search, not a sort);
//  - anything else that changes a comparator input marks orders stale, and a stale order is
//    rebuilt (every member's view refreshed, then sorted) when the descent next reaches it:
//    FsQueue::addUsage / addRunnable / addChild / removeChild mark the queue and its
//    ancestors (moves, reloads, apps becoming runnable or leaving, queues created or removed),
//    and allOrdersChanged() stales every order at once (node changes, which re-resolve min/max
//    shares and move DRF's cluster ratios; reloads);
//  - the update pass sets every demand (and a size-based app weight): as it goes, each current
//    order gets its members' new demands and is re-sorted if that moved anything (rarely), while
//    the members are still in cache (demandsChanged).
// The comparators are total orders (their last stage compares unique names, and each stage
// compares a key of each schedulable alone), so "sorted" is one order however it is reached:
// the order walked equals YARN's sort of the views at that moment. checkOrder() (part of the
// scheduler invariants) and, in debug builds, every use of an order verify exactly that.
// Cheaper comparisons, same answers: the names of an order's members are ranked once when its
// members change (Schedulable::nameRank, compared instead of the strings), and under the fair
// policy each entry carries the comparator's key (FairShareKey), so that a comparison reads the
// order's contiguous entries rather than two views in scattered queue and app objects.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "base/hot_path.h"
#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/policy/app_weight.h"
#include "scheduler/fair/policy/drf_policy.h"
#include "scheduler/fair/policy/fair_share_policy.h"
#include "scheduler/fair/policy/fifo_policy.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

namespace {

// Moves order[pos], whose key changed, to its place among the others (which are sorted) and
// returns that place. `less` is a strict total order. One container moves a member a few places
// at most, so the search gallops outwards from where it was (neighbouring cache lines first).
// Members only keep a hint of their place (FsQueue/FsApp::orderHint): renumbering every member
// passed would touch as many scattered objects as the move passes.
template <typename Entry, typename Less>
size_t moveToSortedPlace(std::vector<Entry>& order, size_t pos, Less&& less) {
  const auto begin = order.begin();
  const size_t n = order.size();
  if (pos > 0 && less(order[pos], order[pos - 1])) {
    const Entry x = order[pos];
    // The first member in [0, pos) that x goes before; x goes before order[hi].
    size_t hi = pos - 1;
    size_t to;
    for (size_t step = 1;; step *= 2) {
      if (hi < step) {
        to = static_cast<size_t>(std::upper_bound(begin, begin + hi, x, less) - begin);
        break;
      }
      const size_t lo = hi - step;
      if (!less(x, order[lo])) {
        to = static_cast<size_t>(std::upper_bound(begin + lo + 1, begin + hi, x, less) - begin);
        break;
      }
      hi = lo;
    }
    std::rotate(begin + to, begin + pos, begin + pos + 1);
    return to;
  }
  if (pos + 1 < n && less(order[pos + 1], order[pos])) {
    const Entry x = order[pos];
    // The first member in (pos, n) that does not go before x; order[lo] goes before x.
    size_t lo = pos + 1;
    size_t hi = n;
    for (size_t step = 1; lo + step < n; step *= 2) {
      if (!less(order[lo + step], x)) {
        hi = lo + step;
        break;
      }
      lo += step;
    }
    const size_t end =
        static_cast<size_t>(std::lower_bound(begin + lo + 1, begin + hi, x, less) - begin);
    std::rotate(begin + pos, begin + pos + 1, begin + end);
    return end - 1;
  }
  return pos;
}

bool sameLimit(const ResourceLimit& a, const ResourceLimit& b) {
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (a.get(i) != b.get(i)) return false;
  }
  return true;
}

// Every field a comparator or the share computation may read.
bool sameView(const fair::Schedulable& a, const fair::Schedulable& b) {
  return a.name == b.name && a.isQueue == b.isQueue && a.isActive == b.isActive &&
         a.numRunnableApps == b.numRunnableApps && a.weight == b.weight &&
         a.minShare == b.minShare && sameLimit(a.maxShare, b.maxShare) && a.demand == b.demand &&
         a.usage == b.usage && a.startTime == b.startTime && a.priority == b.priority;
}

bool sameDouble(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Every field of two keys, including the inputs setUsage reads (minShareX, weight), which
// compareFairShareKeys does not compare.
bool sameKey(const fair::FairShareKey& a, const fair::FairShareKey& b) {
  return a.minShareX == b.minShareX && sameDouble(a.weight, b.weight) && a.noDemand == b.noDemand &&
         a.notNeedy == b.notNeedy && a.weightNotPositive == b.weightNotPositive &&
         sameDouble(a.needyRatio, b.needyRatio) &&
         sameDouble(a.usageOverWeight, b.usageOverWeight) && sameDouble(a.rawUsage, b.rawUsage) &&
         a.startTime == b.startTime && a.nameRank == b.nameRank;
}

// Re-sorts `order` after its members' views (and keys) were refreshed: with new members, ranks
// their names first (the comparators' last tie-break then compares integers); otherwise the
// order is usually still sorted (the update pass changes demands, which rarely reorders
// anything) and one pass checks that before sorting.
template <typename Entry, typename Less>
void resort(std::vector<Entry>& order, bool newMembers, Less&& less) {
  if (newMembers) {
    std::vector<Entry*> byName;
    byName.reserve(order.size());
    for (Entry& e : order) byName.push_back(&e);
    std::sort(byName.begin(), byName.end(), [](const Entry* x, const Entry* y) {
      return x->member->view.name < y->member->view.name;
    });
    for (size_t i = 0; i < byName.size(); ++i) {
      byName[i]->member->view.nameRank = static_cast<int64_t>(i);
      byName[i]->key.nameRank = static_cast<int64_t>(i);
    }
    std::sort(order.begin(), order.end(), less);
  } else if (!std::is_sorted(order.begin(), order.end(), less)) {
    std::sort(order.begin(), order.end(), less);
  }
  for (size_t i = 0; i < order.size(); ++i) order[i].member->orderHint = static_cast<uint32_t>(i);
}

}  // namespace

int FairScheduler::comparePolicy(fair::PolicyKind kind, const fair::Schedulable& a,
                                 const fair::Schedulable& b) const {
  switch (kind) {
    case fair::PolicyKind::kFair: return fair::fairShareCompare(a, b);
    case fair::PolicyKind::kDrf:
      return fair::DrfComparator(cluster().total(), settings().types.count()).compare(a, b);
    case fair::PolicyKind::kFifo: return fair::fifoCompare(a, b);
  }
  return 0;
}

void FairScheduler::ensureOrder(FsQueue& q) {
  if (orderCurrent(q)) {
    assert(checkOrder(q).isOk());
    return;
  }
  const fair::PolicyKind kind = q.policy();
  const bool newMembers = q.membersChanged;
  auto refresh = [&](auto& order) {
    for (auto& e : order) {
      refreshedView(*e.member);
      if (kind == fair::PolicyKind::kFair) e.key = fair::fairShareKey(e.member->view);
    }
  };
  if (q.isLeaf()) {
    if (newMembers) {
      q.appOrder.clear();
      for (AppId id : q.runnableApps) q.appOrder.push_back({{}, &fsAppAt(id)});
    }
    refresh(q.appOrder);
    resort(q.appOrder, newMembers, orderLess(kind));
  } else {
    if (newMembers) {
      q.childOrder.clear();
      for (const auto& c : q.children()) q.childOrder.push_back({{}, c.get()});
    }
    refresh(q.childOrder);
    resort(q.childOrder, newMembers, orderLess(kind));
  }
  q.orderStale = false;
  q.membersChanged = false;
  q.orderEpoch = ordersEpoch_;
}

void FairScheduler::chargeContainer(FsApp& fa, const Resource& r, int sign) {
  for (FsQueue* q = fa.leaf; q != nullptr; q = q->parent()) {
    if (sign > 0) {
      q->usage += r;
    } else {
      q->usage -= r;
    }
  }
  // The app's usage (Application::used) has already changed; only a runnable app is in its
  // leaf's order. In a current order every other input of a member's view is up to date (any
  // change to one stales the order), so only the view's usage is refreshed.
  auto move = [&](auto& order, auto& member, const Resource& usage, fair::PolicyKind kind) {
    // Where the member is: at its hint or next to it (other members' moves shift it by one),
    // else, under the fair policy, by binary search on its kept key (still the one of its view,
    // not yet refreshed); under the others by a scan.
    auto at = [&](size_t i) { return i < order.size() && order[i].member == &member; };
    size_t pos = member.orderHint;
    if (!at(pos)) {
      if (pos > 0 && at(pos - 1)) {
        --pos;
      } else if (at(pos + 1)) {
        ++pos;
      } else if (kind == fair::PolicyKind::kFair) {
        const fair::FairShareKey placed = fair::fairShareKey(member.view);
        pos =
            static_cast<size_t>(std::lower_bound(order.begin(), order.end(), placed,
                                                 [](const auto& e, const fair::FairShareKey& k) {
                                                   return fair::compareFairShareKeys(e.key, k) < 0;
                                                 }) -
                                order.begin());
      } else {
        pos = 0;
        while (pos < order.size() && order[pos].member != &member) ++pos;
      }
    }
    assert(pos < order.size() && order[pos].member == &member);
    member.view.usage = usage;
    // Re-keyed from the entry alone: its other inputs are the view's (current order).
    if (kind == fair::PolicyKind::kFair) {
      fair::setUsage(order[pos].key, usage.memoryMb());
    }
    member.orderHint = static_cast<uint32_t>(moveToSortedPlace(order, pos, orderLess(kind)));
  };
  FsQueue& leaf = *fa.leaf;
  if (fa.runnable && orderCurrent(leaf)) move(leaf.appOrder, fa, fa.app->used(), leaf.policy());
  for (FsQueue* q = &leaf; q->parent() != nullptr; q = q->parent()) {
    FsQueue& parent = *q->parent();
    if (orderCurrent(parent)) move(parent.childOrder, *q, q->usage, parent.policy());
  }
}

Status FairScheduler::updateCompletedContainers(NodeId node,
                                                std::span<const CompletedContainer> completed) {
  for (const CompletedContainer& c : completed) prefetchChargePath(c.id.app());
  return Scheduler::updateCompletedContainers(node, completed);
}

void FairScheduler::prefetchChargePath(AppId app) const {
  // What chargeContainer will read for a finishing container of `app`: the app, its entry in
  // its leaf's order, each queue up the path and its entry in its parent's order. Walking the
  // path here for every container a node reported lets the misses of different containers
  // overlap, where the releases themselves take them one after another.
  const size_t index = app.value();
  const FsApp* fa = index < appIndex_.size() ? appIndex_[index] : nullptr;
  if (fa == nullptr) return;
  const FsQueue* q = fa->leaf;
  if (fa->orderHint < q->appOrder.size()) prefetchLine(&q->appOrder[fa->orderHint]);
  for (; q->parent() != nullptr; q = q->parent()) {
    prefetchLine(reinterpret_cast<const char*>(q) + kCacheLineSize);
    const FsQueue& parent = *q->parent();
    if (q->orderHint < parent.childOrder.size()) {
      prefetchLine(&parent.childOrder[q->orderHint]);
    }
  }
}

void FairScheduler::demandsChanged(FsQueue& q) {
  if (!orderCurrent(q)) return;
  const fair::PolicyKind kind = q.policy();
  // Demand (and an app's size-based weight) is the only input of a member's view the update
  // pass changes; the rest are current in a current order.
  auto refresh = [&](auto& order, auto&& setDemand) {
    for (auto& e : order) {
      setDemand(*e.member);
      if (kind == fair::PolicyKind::kFair) e.key = fair::fairShareKey(e.member->view);
    }
    resort(order, /*newMembers=*/false, orderLess(kind));
  };
  if (q.isLeaf()) {
    refresh(q.appOrder, [&](FsApp& a) {
      a.view.demand = a.demand;
      a.view.weight = fair::appWeight(a.demand.memoryMb(), config_.site.sizeBasedWeight);
    });
  } else {
    refresh(q.childOrder, [](FsQueue& c) { c.view.demand = c.demand; });
  }
}

// What a kept order caches, each checked against a fresh computation:
//  - its members: exactly the queue's children (a parent) or runnable apps (a leaf). Checked
//    whenever the queue is not flagged membersChanged, stale or not: a stale order is re-sorted,
//    not rebuilt, unless that flag is set;
//  - the members' name ranks (Schedulable::nameRank), set when the members last changed: the
//    ranks of their names among the members, 0..n-1 (the comparators' last tie-break compares
//    them instead of the names);
//  - in a current order: every member's view (every field a comparator reads) against a fresh
//    view; under the fair policy every entry's key against the key of its view; the order sorted
//    both by the kept entries and by comparing fresh views; every member's orderHint within the
//    order (a hint may be off after its neighbours moved: chargeContainer looks next to it, then
//    searches).
// Sorts of the members: n log n in the order's size.
Status FairScheduler::checkOrder(const FsQueue& q) const {
  if (q.membersChanged) {
    if (orderCurrent(q)) {
      return internalError("FS: the order of {} is current with its members flagged changed",
                           q.path());
    }
    return Status::ok();  // rebuilt from the queue before its next use
  }
  // Members first, compared as pointers: only once they are the queue's own may they be read.
  auto sameMembers = [](const auto& order, auto expected) {
    using Member = std::remove_cvref_t<decltype(*order.front().member)>;
    std::vector<const Member*> members;
    members.reserve(order.size());
    for (const auto& e : order) members.push_back(e.member);
    std::sort(members.begin(), members.end());
    std::sort(expected.begin(), expected.end());
    return members == expected;
  };
  // Name ranks: sorted by name, the members' ranks must read 0, 1, 2, ...
  auto ranksValid = [](const auto& order) -> std::string {
    using Entry = std::remove_cvref_t<decltype(order.front())>;
    std::vector<const Entry*> byName;
    byName.reserve(order.size());
    for (const auto& e : order) byName.push_back(&e);
    std::sort(byName.begin(), byName.end(), [](const Entry* x, const Entry* y) {
      return x->member->view.name < y->member->view.name;
    });
    for (size_t i = 0; i < byName.size(); ++i) {
      if (byName[i]->member->view.nameRank != static_cast<int64_t>(i)) {
        return byName[i]->member->view.name;
      }
    }
    return {};
  };
  if (q.isLeaf()) {
    std::vector<const FsApp*> runnable;
    runnable.reserve(q.runnableApps.size());
    for (AppId id : q.runnableApps) runnable.push_back(appIndex_[id.value()]);
    if (q.appOrder.size() != q.runnableApps.size() || !sameMembers(q.appOrder, runnable)) {
      return internalError("FS: the app order of {} holds {} apps, not its {} runnable apps",
                           q.path(), q.appOrder.size(), q.runnableApps.size());
    }
    if (std::string bad = ranksValid(q.appOrder); !bad.empty()) {
      return internalError("FS: the name rank of app {} in the order of {} is out of date", bad,
                           q.path());
    }
  } else {
    std::vector<const FsQueue*> children;
    children.reserve(q.children().size());
    for (const auto& c : q.children()) children.push_back(c.get());
    if (q.childOrder.size() != q.children().size() || !sameMembers(q.childOrder, children)) {
      return internalError("FS: the order of {} holds {} queues, not its {} children", q.path(),
                           q.childOrder.size(), q.children().size());
    }
    if (std::string bad = ranksValid(q.childOrder); !bad.empty()) {
      return internalError("FS: the name rank of queue {} in the order of {} is out of date", bad,
                           q.path());
    }
  }
  if (!orderCurrent(q)) return Status::ok();
  const fair::PolicyKind kind = q.policy();
  // Sorted by the kept entries (keys, name ranks) and by fresh views (names compared).
  const auto less = orderLess(kind);
  auto checkSorted = [&](const auto& order, auto&& freshView) -> Status {
    for (size_t i = 0; i < order.size(); ++i) {
      const auto& e = order[i];
      if (e.member->orderHint >= order.size()) {
        return internalError("FS: the order hint {} of {} is outside the order of {} ({} members)",
                             e.member->orderHint, e.member->view.name, q.path(), order.size());
      }
      if (kind == fair::PolicyKind::kFair && !sameKey(e.key, fair::fairShareKey(e.member->view))) {
        return internalError("FS: the key of {} in the order of {} is out of date",
                             e.member->view.name, q.path());
      }
      if (i > 0 && (!less(order[i - 1], e) || comparePolicy(kind, freshView(*order[i - 1].member),
                                                            freshView(*e.member)) >= 0)) {
        return internalError("FS: the order of {} is not sorted at {} ({} before {})", q.path(), i,
                             order[i - 1].member->view.name, e.member->view.name);
      }
    }
    return Status::ok();
  };
  if (q.isLeaf()) {
    for (const auto& e : q.appOrder) {
      if (!sameView(e.member->view, appView(*e.member))) {
        return internalError("FS: the view of app {} in the order of {} is out of date",
                             e.member->name, q.path());
      }
    }
    return checkSorted(q.appOrder, [&](const FsApp& a) { return appView(a); });
  }
  for (const auto& c : q.children()) {
    if (!sameView(c->view, queueView(*c))) {
      return internalError("FS: the view of queue {} in the order of {} is out of date", c->path(),
                           q.path());
    }
  }
  return checkSorted(q.childOrder, [&](const FsQueue& c) { return queueView(c); });
}

}  // namespace spindle
