// The Capacity Scheduler's cache checks, run from checkSchedulerInvariants() (which also checks
// the usage aggregates, cs_queue.h and cs_app.h). Each cache the hot path keeps is recomputed
// from what it caches and compared; a failure names the cache, the queue or app, and the kept
// and fresh values. Every check is linear in queues + apps + nodes (a map lookup per app at
// most), except the child-order check, which ranks each parent's children as the allocation
// path does: quadratic in the children of one parent only.
//
//   checkClusterCaches   partitions_, defaultPartitionResource_, noPartitionDivisor_
//   checkChildKeys       each parent's childKeys (every field), each queue's noMinDivisor and
//                        simpleChildOrder, and the child order the allocation path derives from
//                        them against the order of freshly computed keys
//   checkAppOrders       each leaf's schedulable set (the app ordering keys), its cached head,
//                        pendingApps / activeApps / nonRunnableApps, nonRunnable_
//   checkAppIndexes      csById_, each CsApp's leaf and user pointers, the per-user and per-queue
//                        app counters, userRunnable_, reservedNodes_, the leaf aggregates the
//                        child keys read (pending, reserved, amUsed) against the apps
//   checkNodeIndex       the async node index (nodeIndex_, nodeKey_)
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <vector>

#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {

namespace {

// The order in which assignParent offers a parent's children when all of them have demand:
// each round scans the remaining children in configured order and keeps the running best.
// `simple` is the allocation path's shortcut for simpleChildOrder parents.
std::vector<size_t> selectionOrder(const std::vector<QueueSortEntry>& keys, bool simple,
                                   bool respectPriority) {
  const size_t n = keys.size();
  std::vector<uint8_t> taken(n, 0);
  std::vector<size_t> order;
  order.reserve(n);
  for (size_t round = 0; round < n; ++round) {
    size_t best = n;
    for (size_t j = 0; j < n; ++j) {
      if (taken[j]) continue;
      if (best == n) {
        best = j;
        continue;
      }
      int c;
      if (simple) {
        c = queue_ordering_detail::compareDouble(keys[j].usedCapacity, keys[best].usedCapacity);
        if (c == 0) {
          c = queue_ordering_detail::compareDouble(keys[best].absCapacity, keys[j].absCapacity);
        }
      } else {
        c = compareQueues(keys[j], keys[best], kDefaultPartition, respectPriority);
      }
      if (c < 0) best = j;
    }
    taken[best] = 1;
    order.push_back(best);
  }
  return order;
}

std::string names(const CsQueue& parent, const std::vector<size_t>& order) {
  std::string s;
  for (size_t i : order) {
    if (!s.empty()) s += ',';
    s += parent.children()[i]->name();
  }
  return s;
}

}  // namespace

Status CapacityScheduler::checkClusterCaches() const {
  std::map<std::string, Resource> fresh;
  fresh[kDefaultPartition] = Resource();
  for (const auto& [name, label] : cluster().nodeLabels()) fresh[name] = Resource();
  for (NodeId id : cluster().nodeIds()) {
    const Node& n = cluster().node(id);
    fresh[n.partition()] += n.total();
  }
  // partitions_ is what the queues were last resolved against: after a node event it trails the
  // cluster until settle() or the next other event syncs (finishEvent), so it is compared only
  // once the scheduler is clean; then the running totals must agree as well.
  if (dirty_) return Status::ok();
  if (!recountPartitions_ && countedPartitions_ != fresh) {
    return internalError("running partition totals: {} kept partitions, {} recomputed",
                         countedPartitions_.size(), fresh.size());
  }
  if (fresh != partitions_) {
    return internalError(
        "partition resources: {} kept partitions, {} recomputed (or totals differ)",
        partitions_.size(), fresh.size());
  }
  if (defaultPartitionResource_ != fresh[kDefaultPartition]) {
    return internalError("default partition resource: kept {}, recomputed {}",
                         defaultPartitionResource_.toString(), fresh[kDefaultPartition].toString());
  }
  if (noPartitionDivisor_ != calculator().isInvalidDivisor(defaultPartitionResource_)) {
    return internalError("default partition invalid-divisor flag: kept {}", noPartitionDivisor_);
  }
  return Status::ok();
}

// The fresh key is computed as assignParent computes a snapshot entry for a labelled partition
// (from the child's capacities, usage and configuration), here for the default partition.
Status CapacityScheduler::checkChildKeys() const {
  const ResourceCalculator& rc = calculator();
  const Resource& R = partitions_.at(kDefaultPartition);
  std::vector<QueueSortEntry> fresh;
  std::vector<QueueSortEntry> kept;
  for (const CsQueue* q : tree_->preorder()) {
    const Resource& min = q->cap(kDefaultPartition).effectiveMin;
    const bool noMin = rc.isInvalidDivisor(min) || min.isZero();
    if (q->noMinDivisor != noMin) {
      return internalError("queue {}: cached noMinDivisor {} != {} (effective min {})", q->path(),
                           q->noMinDivisor, noMin, min.toString());
    }
    const size_t n = q->children().size();
    if (q->childKeys.size() != n) {
      return internalError("queue {}: {} child ordering keys for {} children", q->path(),
                           q->childKeys.size(), n);
    }
    fresh.assign(n, QueueSortEntry());
    kept.assign(n, QueueSortEntry());
    bool simple = !q->priorityUtilization;
    for (size_t i = 0; i < n; ++i) {
      CsQueue* child = q->children()[i];
      const CsQueue& c = *child;
      const CsQueue::ChildKey& k = q->childKeys[i];
      kept[i] = k;
      QueueSortEntry& e = fresh[i];
      const ResolvedCapacity& cap = c.cap(kDefaultPartition);
      const Resource& used = c.usage(kDefaultPartition).used;
      e.queue = child;
      e.accessible = c.config().canAccess(kDefaultPartition);
      e.absCapacity = static_cast<float>(cap.absCapacity);
      e.usedCapacity = rc.isInvalidDivisor(cap.effectiveMin) || cap.effectiveMin.isZero()
                           ? 0.0f
                           : static_cast<float>(rc.divide(R, used, cap.effectiveMin));
      e.absUsedCapacity = rc.isInvalidDivisor(R) ? 0.0f : static_cast<float>(rc.divide(R, used, R));
      e.priority = c.config().priority;
      auto pc = c.config().partitions.find(kDefaultPartition);
      if (pc != c.config().partitions.end() &&
          pc->second.capacity.mode == CapacityMode::kAbsolute) {
        e.configuredMin = &pc->second.capacity.absolute;
      }
      const bool pending = !c.usage(kDefaultPartition).pending.isZero();
      if (k.queue != e.queue || k.accessible != e.accessible || k.absCapacity != e.absCapacity ||
          k.usedCapacity != e.usedCapacity || k.absUsedCapacity != e.absUsedCapacity ||
          k.priority != e.priority || k.configuredMin != e.configuredMin || k.pending != pending ||
          k.leaf != c.isLeaf()) {
        return internalError(
            "queue {}: cached ordering key in {} out of step: kept (queue {}, accessible {}, "
            "absCapacity {}, usedCapacity {}, absUsedCapacity {}, priority {}, configuredMin {}, "
            "pending {}, leaf {}), fresh (queue {}, accessible {}, absCapacity {}, usedCapacity "
            "{}, absUsedCapacity {}, priority {}, configuredMin {}, pending {}, leaf {})",
            c.path(), q->path(), k.queue == nullptr ? "null" : k.queue->path(), k.accessible,
            k.absCapacity, k.usedCapacity, k.absUsedCapacity, k.priority,
            k.configuredMin == nullptr ? "null" : k.configuredMin->toString(), k.pending, k.leaf,
            c.path(), e.accessible, e.absCapacity, e.usedCapacity, e.absUsedCapacity, e.priority,
            e.configuredMin == nullptr ? "null" : e.configuredMin->toString(), pending, c.isLeaf());
      }
      if (!(e.absCapacity > 0) || (e.configuredMin != nullptr && !e.configuredMin->isZero())) {
        simple = false;
      }
    }
    if (q->simpleChildOrder != simple) {
      return internalError("queue {}: cached simpleChildOrder {} != {}", q->path(),
                           q->simpleChildOrder, simple);
    }
    if (n < 2) continue;
    const std::vector<size_t> walked =
        selectionOrder(kept, q->simpleChildOrder, q->priorityUtilization);
    const std::vector<size_t> expected = selectionOrder(fresh, false, q->priorityUtilization);
    if (walked != expected) {
      return internalError("queue {}: child order from the cached keys [{}] != fresh order [{}]",
                           q->path(), names(*q, walked), names(*q, expected));
    }
  }
  return Status::ok();
}

Status CapacityScheduler::checkAppOrders() const {
  std::unordered_map<const CsQueue*, size_t> schedulable, pending, active, nonRunnable;
  for (const auto& [id, s] : csApps_) {
    if (s.schedulable) {
      ++schedulable[s.leaf];
      const AppOrderKey key = orderKeyFor(s);
      if (!(key == s.orderKey)) {
        return internalError(
            "leaf {}: app {} ordering key out of step: kept ({}, {}), fresh ({}, {})",
            s.leaf->path(), appIdString(id), s.orderKey.primary, s.orderKey.secondary, key.primary,
            key.secondary);
      }
    }
    switch (s.phase) {
      case CsAppPhase::kPending: {
        ++pending[s.leaf];
        const AppOrderKey key{-static_cast<double>(s.priority), 0, id};
        if (!s.leaf->pendingApps.count(key)) {
          return internalError("leaf {}: pending app {} (priority {}) missing from pendingApps",
                               s.leaf->path(), appIdString(id), s.priority);
        }
        break;
      }
      case CsAppPhase::kActive:
        ++active[s.leaf];
        if (!s.leaf->activeApps.count(id)) {
          return internalError("leaf {}: active app {} missing from activeApps", s.leaf->path(),
                               appIdString(id));
        }
        break;
      case CsAppPhase::kNonRunnable:
        ++nonRunnable[s.leaf];
        if (!s.leaf->nonRunnableApps.count(id) || !nonRunnable_.count(id)) {
          return internalError("leaf {}: non-runnable app {} missing from the non-runnable sets",
                               s.leaf->path(), appIdString(id));
        }
        break;
    }
  }
  size_t nonRunnableTotal = 0;
  for (const CsQueue* leaf : tree_->leaves()) {
    for (const AppOrderKey& e : leaf->schedulable) {
      const CsApp* s = csAppOrNull(e.app);
      if (s == nullptr || s->leaf != leaf || !s->schedulable || !(s->orderKey == e)) {
        return internalError("leaf {}: schedulable set holds a stale entry for {}", leaf->path(),
                             appIdString(e.app));
      }
    }
    auto sizeIs = [&](const char* what, size_t kept,
                      const std::unordered_map<const CsQueue*, size_t>& counted) -> Status {
      auto it = counted.find(leaf);
      const size_t n = it == counted.end() ? 0 : it->second;
      if (kept != n) {
        return internalError("leaf {}: {} holds {} apps, {} apps are in that state", leaf->path(),
                             what, kept, n);
      }
      return Status::ok();
    };
    SPINDLE_RETURN_IF_ERROR(sizeIs("schedulable", leaf->schedulable.size(), schedulable));
    SPINDLE_RETURN_IF_ERROR(sizeIs("pendingApps", leaf->pendingApps.size(), pending));
    SPINDLE_RETURN_IF_ERROR(sizeIs("activeApps", leaf->activeApps.size(), active));
    SPINDLE_RETURN_IF_ERROR(sizeIs("nonRunnableApps", leaf->nonRunnableApps.size(), nonRunnable));
    nonRunnableTotal += leaf->nonRunnableApps.size();
    const CsApp* first =
        leaf->schedulable.empty() ? nullptr : csAppOrNull(leaf->schedulable.begin()->app);
    if (leaf->head != first) {
      return internalError("leaf {}: cached first schedulable app {} != {}", leaf->path(),
                           leaf->head == nullptr ? "none" : appIdString(leaf->head->app->id()),
                           first == nullptr ? "none" : appIdString(first->app->id()));
    }
  }
  if (nonRunnable_.size() != nonRunnableTotal) {
    return internalError("non-runnable index: {} apps, the leaves hold {}", nonRunnable_.size(),
                         nonRunnableTotal);
  }
  return Status::ok();
}

Status CapacityScheduler::checkAppIndexes() const {
  struct UserTally {
    int active = 0, pending = 0, nonRunnable = 0, withPending = 0;
    PartitionMap<Resource> used, amUsed;
  };
  struct LeafTally {
    PartitionMap<Resource> pending, reserved, amUsed;
  };
  std::unordered_map<const CsUser*, UserTally> users;
  std::unordered_map<const CsQueue*, LeafTally> leaves;
  std::map<std::string, int> runnable;
  size_t reservations = 0;
  for (const auto& [id, s] : csApps_) {
    if (csAppOrNull(id) != &s || s.app == nullptr || s.app->id() != id) {
      return internalError("{}: not indexed to its state (csById_)", appIdString(id));
    }
    if (s.leaf == nullptr || s.app->queue() != s.leaf->path()) {
      return internalError("{}: kept leaf {} != the app's queue {}", appIdString(id),
                           s.leaf == nullptr ? "none" : s.leaf->path(), s.app->queue());
    }
    auto u = s.leaf->users.find(s.app->user());
    if (u == s.leaf->users.end() || s.user != &u->second) {
      return internalError("{}: kept user is not {}'s record in {}", appIdString(id), s.app->user(),
                           s.leaf->path());
    }
    // The AM-limit skip memo: while its record is the app's latest, the record's text is the
    // one its figures build.
    if (s.amLimitSkip.serial != 0 && lastSkipSerial(id) == s.amLimitSkip.serial) {
      const Decision* d = lastSkip(id);
      const std::string text = amLimitSkipText(s, s.amLimitSkip);
      if (d == nullptr || d->reason != text) {
        return internalError("{}: AM-limit skip memo '{}' != its record '{}'", appIdString(id),
                             text, d == nullptr ? "none" : d->reason);
      }
    }
    UserTally& ut = users[s.user];
    LeafTally& lt = leaves[s.leaf];
    switch (s.phase) {
      case CsAppPhase::kActive:
        ++ut.active;
        ut.amUsed[s.amPartition] += s.amResource;
        lt.amUsed[s.amPartition] += s.amResource;
        break;
      case CsAppPhase::kPending: ++ut.pending; break;
      case CsAppPhase::kNonRunnable: ++ut.nonRunnable; break;
    }
    if (s.phase != CsAppPhase::kNonRunnable) ++runnable[s.app->user()];
    ut.withPending += s.hasPendingAsks ? 1 : 0;
    for (const auto& [p, r] : s.used) ut.used[p] += r;
    for (const auto& [p, r] : s.pending) lt.pending[p] += r;
    for (const auto& [node, r] : s.reservations) lt.reserved[r.partition] += r.resource;
    reservations += s.reservations.size();
  }
  if (reservations != reservedNodes_.size()) {
    return internalError("reserved-node index: {} entries, the apps hold {} reservations",
                         reservedNodes_.size(), reservations);
  }
  size_t indexed = 0;
  for (const CsApp* s : csById_) indexed += s != nullptr ? 1 : 0;
  if (indexed != csApps_.size()) {
    return internalError("csById_: {} entries, {} apps", indexed, csApps_.size());
  }
  auto get = [](const PartitionMap<Resource>& m, const std::string& p) {
    auto it = m.find(p);
    return it == m.end() ? Resource() : it->second;
  };
  std::map<std::string, int> keptRunnable;
  for (const auto& [user, n] : userRunnable_) {
    if (n != 0) keptRunnable[user] = n;
  }
  if (keptRunnable != runnable) {
    return internalError("runnable apps per user: {} users kept with runnable apps, {} counted",
                         keptRunnable.size(), runnable.size());
  }
  for (const CsQueue* q : tree_->preorder()) {
    int nr = 0;
    if (q->isLeaf()) {
      nr = static_cast<int>(q->activeApps.size() + q->pendingApps.size());
    } else {
      for (const CsQueue* c : q->children()) nr += c->numRunnable;
    }
    if (nr != q->numRunnable) {
      return internalError("queue {}: numRunnable {} != {}", q->path(), q->numRunnable, nr);
    }
  }
  for (const CsQueue* leaf : tree_->leaves()) {
    const LeafTally& lt = leaves[leaf];
    for (const auto& [p, u] : leaf->usages) {
      if (u.pending != get(lt.pending, p) || u.reserved != get(lt.reserved, p) ||
          u.amUsed != get(lt.amUsed, p)) {
        return internalError(
            "leaf {} partition '{}': (pending {}, reserved {}, amUsed {}) != its apps' ({}, {}, "
            "{})",
            leaf->path(), p, u.pending.toString(), u.reserved.toString(), u.amUsed.toString(),
            get(lt.pending, p).toString(), get(lt.reserved, p).toString(),
            get(lt.amUsed, p).toString());
      }
    }
    double activeWeight = 0;
    for (const auto& [name, user] : leaf->users) {
      const UserTally& ut = users[&user];
      if (user.activeApps != ut.active || user.pendingApps != ut.pending ||
          user.nonRunnableApps != ut.nonRunnable || user.appsWithPending != ut.withPending) {
        return internalError(
            "leaf {} user {}: counters (active {}, pending {}, non-runnable {}, with asks {}) != "
            "its apps' ({}, {}, {}, {})",
            leaf->path(), name, user.activeApps, user.pendingApps, user.nonRunnableApps,
            user.appsWithPending, ut.active, ut.pending, ut.nonRunnable, ut.withPending);
      }
      for (const auto& [p, r] : user.used) {
        if (r != get(ut.used, p)) {
          return internalError("leaf {} user {} partition '{}': used {} != its apps' {}",
                               leaf->path(), name, p, r.toString(), get(ut.used, p).toString());
        }
      }
      for (const auto& [p, r] : user.amUsed) {
        if (r != get(ut.amUsed, p)) {
          return internalError("leaf {} user {} partition '{}': amUsed {} != its AMs' {}",
                               leaf->path(), name, p, r.toString(), get(ut.amUsed, p).toString());
        }
      }
      if (user.appsWithPending > 0) activeWeight += user.weight;
    }
    if (std::abs(activeWeight - leaf->activeUsersWeight) > 1e-6 * std::max(1.0, activeWeight)) {
      return internalError("leaf {}: active users' weight {} != {}", leaf->path(),
                           leaf->activeUsersWeight, activeWeight);
    }
  }
  return Status::ok();
}

Status CapacityScheduler::checkNodeIndex() const {
  if (!config_.scheduleAsynchronously) return Status::ok();
  const std::vector<NodeId> ids = cluster().nodeIds();
  if (nodeIndex_.size() != ids.size()) {
    return internalError("async node index: {} entries, {} nodes", nodeIndex_.size(), ids.size());
  }
  for (NodeId node : ids) {
    const int64_t key = -cluster().node(node).unallocated().memoryMb();
    const int64_t kept = node.value() < nodeKey_.size() ? nodeKey_[node.value()] : kNotIndexed;
    if (kept != key || !nodeIndex_.count({key, node})) {
      return internalError("async node index: {} kept at {}, its unallocated memory gives {}",
                           cluster().nodeName(node), kept, key);
    }
  }
  return Status::ok();
}

}  // namespace spindle
