// The policy orders the assignment descent walks (FSParentQueue.assignContainer sorts the child
// queues with the policy's comparator, FSLeafQueue.assignContainer the runnable apps with
// demand; reference fair-scheduler.md §3.6). YARN sorts at every level of every descent; here
// each queue keeps its members sorted and the order is brought up to date only where an input
// of the comparator changed:
//  - a container allocated or finished changes the usage of one app and of the queues above
//    it: that app moves within its leaf's order, each queue on the path within its parent's
//    (chargeContainer; a binary search, not a sort);
//  - anything else that changes a comparator input marks orders stale, and a stale order is
//    rebuilt (every member's view refreshed, then sorted) when the descent next reaches it:
//    FsQueue::addUsage / addRunnable / addChild / removeChild mark the queue and its
//    ancestors (moves, reloads, apps becoming runnable or leaving, queues created or removed),
//    and allOrdersChanged() stales every order at once (the update pass, which sets every
//    demand; node changes, which re-resolve min/max shares and move DRF's cluster ratios).
// The comparators are total orders (their last stage compares unique names, and each stage
// compares a key of each schedulable alone), so "sorted" is one order however it is reached:
// the order walked equals YARN's sort of the views at that moment. checkOrders() (part of the
// scheduler invariants) and, in debug builds, every use of an order verify exactly that.
#include <algorithm>
#include <cassert>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/policy/drf_policy.h"
#include "scheduler/fair/policy/fair_share_policy.h"
#include "scheduler/fair/policy/fifo_policy.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

namespace {

// Moves order[pos], whose key changed, to its place among the others (which are sorted) and
// renumbers the members it passed. `less` is a strict total order.
template <typename T, typename Less>
void moveToSortedPlace(std::vector<T*>& order, size_t pos, Less&& less) {
  T* const x = order[pos];
  const auto begin = order.begin();
  if (pos > 0 && less(x, order[pos - 1])) {
    const size_t to =
        static_cast<size_t>(std::upper_bound(begin, begin + pos, x, less) - begin);
    std::rotate(begin + to, begin + pos, begin + pos + 1);
    for (size_t k = to; k <= pos; ++k) order[k]->orderPos = static_cast<uint32_t>(k);
  } else if (pos + 1 < order.size() && less(order[pos + 1], x)) {
    const size_t end =
        static_cast<size_t>(std::lower_bound(begin + pos + 1, order.end(), x, less) - begin);
    std::rotate(begin + pos, begin + pos + 1, begin + end);
    for (size_t k = pos; k < end; ++k) order[k]->orderPos = static_cast<uint32_t>(k);
  }
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
         a.minShare == b.minShare && sameLimit(a.maxShare, b.maxShare) &&
         a.demand == b.demand && a.usage == b.usage && a.startTime == b.startTime &&
         a.priority == b.priority;
}

// Rebuilds `order` for new member views: with new members, ranks their names first (the
// comparators' last tie-break then compares integers); otherwise the order is usually still
// sorted (the update pass changes demands, which rarely reorders anything) and one pass checks
// that before sorting.
template <typename T, typename Less>
void resort(std::vector<T*>& order, bool newMembers, Less&& less) {
  if (newMembers) {
    std::vector<T*> byName(order.begin(), order.end());
    std::sort(byName.begin(), byName.end(),
              [](const T* x, const T* y) { return x->view.name < y->view.name; });
    for (size_t i = 0; i < byName.size(); ++i) byName[i]->view.nameRank = static_cast<int64_t>(i);
    std::sort(order.begin(), order.end(), less);
  } else if (!std::is_sorted(order.begin(), order.end(), less)) {
    std::sort(order.begin(), order.end(), less);
  }
  for (size_t i = 0; i < order.size(); ++i) order[i]->orderPos = static_cast<uint32_t>(i);
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
  if (q.isLeaf()) {
    std::vector<FsApp*>& order = q.appOrder;
    if (newMembers) {
      order.clear();
      for (AppId id : q.runnableApps) order.push_back(&fsAppAt(id));
    }
    for (FsApp* a : order) refreshedView(*a);
    resort(order, newMembers, [&](const FsApp* x, const FsApp* y) {
      return comparePolicy(kind, x->view, y->view) < 0;
    });
  } else {
    std::vector<FsQueue*>& order = q.childOrder;
    if (newMembers) {
      order.clear();
      for (const auto& c : q.children()) order.push_back(c.get());
    }
    for (FsQueue* c : order) refreshedView(*c);
    resort(order, newMembers, [&](const FsQueue* x, const FsQueue* y) {
      return comparePolicy(kind, x->view, y->view) < 0;
    });
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
  // leaf's order.
  FsQueue& leaf = *fa.leaf;
  if (fa.runnable && orderCurrent(leaf)) {
    assert(fa.orderPos < leaf.appOrder.size() && leaf.appOrder[fa.orderPos] == &fa);
    refreshedView(fa);
    const fair::PolicyKind kind = leaf.policy();
    moveToSortedPlace(leaf.appOrder, fa.orderPos, [&](const FsApp* x, const FsApp* y) {
      return comparePolicy(kind, x->view, y->view) < 0;
    });
  }
  for (FsQueue* q = &leaf; q->parent() != nullptr; q = q->parent()) {
    FsQueue& parent = *q->parent();
    if (!orderCurrent(parent)) continue;
    assert(q->orderPos < parent.childOrder.size() && parent.childOrder[q->orderPos] == q);
    refreshedView(*q);
    const fair::PolicyKind kind = parent.policy();
    moveToSortedPlace(parent.childOrder, q->orderPos, [&](const FsQueue* x, const FsQueue* y) {
      return comparePolicy(kind, x->view, y->view) < 0;
    });
  }
}

Status FairScheduler::checkOrder(const FsQueue& q) const {
  if (!orderCurrent(q)) return Status::ok();
  const fair::PolicyKind kind = q.policy();
  // Sorted by the kept views (name ranks included) and by fresh views (names compared).
  auto checkSorted = [&](const auto& order, auto&& freshView) -> Status {
    for (size_t i = 0; i < order.size(); ++i) {
      if (order[i]->orderPos != i) {
        return internalError("FS: member {} of the order of {} records position {}", i,
                             q.path(), order[i]->orderPos);
      }
      if (i > 0 && (comparePolicy(kind, order[i - 1]->view, order[i]->view) >= 0 ||
                    comparePolicy(kind, freshView(*order[i - 1]), freshView(*order[i])) >= 0)) {
        return internalError("FS: the order of {} is not sorted at {} ({} before {})", q.path(),
                             i, order[i - 1]->view.name, order[i]->view.name);
      }
    }
    return Status::ok();
  };
  if (q.isLeaf()) {
    if (q.appOrder.size() != q.runnableApps.size()) {
      return internalError("FS: the app order of {} has {} apps, the queue {} runnable",
                           q.path(), q.appOrder.size(), q.runnableApps.size());
    }
    for (AppId id : q.runnableApps) {
      const FsApp* a = appIndex_[id.value()];
      if (a->orderPos >= q.appOrder.size() || q.appOrder[a->orderPos] != a) {
        return internalError("FS: runnable app {} is missing from the order of {}", a->name,
                             q.path());
      }
      if (!sameView(a->view, appView(*a))) {
        return internalError("FS: the view of app {} in the order of {} is out of date", a->name,
                             q.path());
      }
    }
    return checkSorted(q.appOrder, [&](const FsApp& a) { return appView(a); });
  }
  if (q.childOrder.size() != q.children().size()) {
    return internalError("FS: the order of {} has {} queues, the queue {} children", q.path(),
                         q.childOrder.size(), q.children().size());
  }
  for (const auto& c : q.children()) {
    if (c->orderPos >= q.childOrder.size() || q.childOrder[c->orderPos] != c.get()) {
      return internalError("FS: queue {} is missing from the order of {}", c->path(), q.path());
    }
    if (!sameView(c->view, queueView(*c))) {
      return internalError("FS: the view of queue {} in the order of {} is out of date",
                           c->path(), q.path());
    }
  }
  return checkSorted(q.childOrder, [&](const FsQueue& c) { return queueView(c); });
}

}  // namespace spindle
