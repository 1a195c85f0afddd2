// CapacityScheduler::buildPreemptionSnapshot: the live queue tree, apps, containers and nodes
// copied into the plain structs of preemption_snapshot.h, as YARN's policy clones
// TempQueuePerPartition under the scheduler lock
// (ProportionalCapacityPreemptionPolicy.containerBasedPreemptOrKill, cloneQueues).
//
// Per (queue, partition):
//  * guaranteed / max: the resolved effective min / max (absolute capacity x partition resource,
//    or the configured absolute resource); a zero max on a non-exclusive partition is the
//    whole partition (YARN forces absoluteMaxCapacity to 100 % there);
//  * used and reserved: the queue's usage (used includes AM containers and reservations, as
//    YARN's queue ResourceUsage does);
//  * leaves: pending considering user limits (LeafQueue.getTotalPendingResourcesConsidering-
//    UserLimit): over the leaf's active apps in ordering order, each user's headroom is
//    max(user limit - user used, 0), and each app adds min(its pending, what is left of its
//    user's headroom); pendingDeductReserved does the same with the app's reservations on the
//    partition subtracted from its pending (its own headroom map, as YARN's second call);
//  * killable: the lazy-preemption killable containers of the queue's subtree (PreemptionManager
//    counts them for every queue up the path);
//  * userLimits: every user's limit on the partition for all users (getResourceLimitForAllUsers:
//    UsersManager's formula with U = the current capacity and W = all users' weights), for
//    every user with apps in the leaf.
// Apps: every active app of a leaf and every app holding containers or reservations; the leaf
// lists them in the
// reverse of its ordering policy (FIFO: lowest priority first, then newest; fair: largest usage
// first, then the same FIFO tie-break). Reservations are containers with isReservation, the
// reserved size and the reservation's own container id.
// queuesOnly: the queues' amounts alone (apps, containers and nodes left out), for the first
// pass of a round (PreemptionSnapshot::queuesOnly).
#include <algorithm>
#include <unordered_map>

#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {

namespace {

using preemption::PreemptionSnapshot;
using preemption::QueuePartitionAmounts;

// Resources.multiply(r, double): every type truncated (Java's (long) cast).
Resource truncatedTimes(const Resource& r, double by) { return multiplyAndRoundDown(r, by); }

}  // namespace

Result<PreemptionSnapshot> CapacityScheduler::buildPreemptionSnapshot(bool queuesOnly) const {
  const ResourceCalculator& rc = calculator();
  const Resource& minAlloc = settings().bounds.minimum;
  PreemptionSnapshot snap;
  snap.resourceTypeCount = settings().types.count();
  snap.clusterTotal = cluster().total();
  snap.minimumAllocation = minAlloc;
  snap.nowMs = clock().nowMs();
  snap.queuesOnly = queuesOnly;
  for (const auto& [name, total] : partitions_) {
    snap.partitions.push_back({name, total, cluster().isExclusive(name)});
  }

  // Killable containers (lazy preemption) per node and per (leaf, partition).
  std::unordered_map<NodeId, Resource> killableOnNode;
  std::map<std::pair<const CsQueue*, std::string>, Resource> killableInLeaf;
  for (ContainerId id : preemption_.executor.killable()) {
    const Container* c = findContainer(id);
    const CsApp* s = csApp(id.app());
    if (c == nullptr || s == nullptr) continue;
    if (!queuesOnly) killableOnNode[c->node] += c->resource;
    killableInLeaf[{s->leaf, cluster().node(c->node).partition()}] += c->resource;
  }

  // Queues in pre-order; the parent of each is already present.
  std::unordered_map<const CsQueue*, QueueId> queueIds;
  for (const CsQueue* q : tree_->preorder()) {
    const QueueId parent = q->parent() ? queueIds.at(q->parent()) : QueueId();
    const QueueId id = snap.addQueue(q->path(), parent);
    queueIds[q] = id;
    preemption::QueueSnapshot& qs = snap.queues[id.value()];
    // The config holds the resolved (inherited) values; setting them explicitly is the same as
    // leaving unset queues to inherit.
    qs.disablePreemption = q->config().disablePreemption;
    qs.disableIntraQueuePreemption = q->config().intraQueueDisablePreemption;
    qs.relativePriority =
        q->parent() != nullptr && q->parent()->priorityUtilization ? q->config().priority : 0;
    for (const auto& [p, total] : partitions_) {
      const ResolvedCapacity& cap = q->cap(p);
      const QueueUsage& u = q->usage(p);
      QueuePartitionAmounts a;
      a.guaranteed =
          !cap.effectiveMin.isZero() ? cap.effectiveMin : truncatedTimes(total, cap.absCapacity);
      a.max = cap.effectiveMax;
      if (a.max.isZero()) {
        a.max = cluster().isExclusive(p) ? truncatedTimes(total, cap.absMaxCapacity) : total;
      }
      a.used = u.used;
      a.reserved = u.reserved;
      a.absoluteCapacity = cap.absCapacity;
      qs.partitions[p] = a;
    }
    if (!q->isLeaf()) continue;
    const ResolvedCapacity& def = q->cap(kDefaultPartition);
    // maxAMCapacityForThisQueue: cluster x absoluteCapacity x maximum-am-resource-percent.
    qs.amPreemptionAllowance =
        truncatedTimes(truncatedTimes(snap.clusterTotal, static_cast<float>(def.absCapacity)),
                       static_cast<float>(def.maxAmPercent));
  }
  // Killable resources count for the leaf and every ancestor.
  for (const auto& [key, r] : killableInLeaf) {
    for (const CsQueue* q = key.first; q != nullptr; q = q->parent()) {
      snap.queues[queueIds.at(q).value()].partitions[key.second].killable += r;
    }
  }

  // Apps by leaf, in one pass: active apps (the intra-queue selector needs the waiting ones
  // too) and any app that holds something (a placed container of an app waiting for the AM
  // limit).
  std::unordered_map<const CsQueue*, std::vector<const CsApp*>> appsOfLeaf;
  for (const auto& [id, s] : csApps_) {
    if (queuesOnly) break;
    if (s.phase != CsAppPhase::kActive && s.app->liveContainers().empty() &&
        s.reservations.empty()) {
      continue;
    }
    appsOfLeaf[s.leaf].push_back(&s);
  }

  // Apps, their containers and reservations; pending considering user limits per leaf.
  for (const CsQueue* leaf : tree_->leaves()) {
    preemption::QueueSnapshot& qs = snap.queues[queueIds.at(leaf).value()];
    std::vector<const CsApp*> apps;
    if (auto it = appsOfLeaf.find(leaf); it != appsOfLeaf.end()) apps = std::move(it->second);
    // Ascending in the ordering policy, then reversed (getPreemptionIterator).
    std::sort(apps.begin(), apps.end(), [&](const CsApp* a, const CsApp* b) {
      if (leaf->fairPolicy) {
        const AppOrderKey ka = orderKeyFor(*a);
        const AppOrderKey kb = orderKeyFor(*b);
        if (ka.primary != kb.primary) return ka.primary < kb.primary;
      }
      if (a->priority != b->priority) return a->priority > b->priority;
      return a->app->id() < b->app->id();
    });
    std::reverse(apps.begin(), apps.end());
    for (const CsApp* s : apps) {
      const Application& app = *s->app;
      preemption::AppSnapshot as;
      as.attempt = app.attemptId();
      as.name = appIdString(app.id());
      as.queue = queueIds.at(leaf);
      as.priority = s->priority;
      as.user = app.user();
      for (const auto& [p, r] : s->pending) {
        if (!r.isZero()) as.pending[p] = r;
      }
      for (ContainerId cid : app.liveContainers()) {
        const Container& c = *findContainer(cid);
        const std::string& nodePartition = cluster().node(c.node).partition();
        const std::string asked = !c.askedLabel.empty() ? c.askedLabel
                                  : c.isAm              ? s->amPartition
                                                        : leaf->config().defaultNodeLabelExpression;
        preemption::ContainerSnapshot cs;
        cs.id = cid;
        cs.node = c.node;
        cs.size = c.resource;
        cs.requestPriority = c.key.priority;
        cs.isAm = c.isAm;
        cs.killable = preemption_.executor.isKillable(cid);
        cs.ignoresExclusivity = !nodePartition.empty() && asked != nodePartition;
        cs.creationTimeMs = c.allocatedAt;
        as.containers.push_back(cs);
      }
      for (const auto& [node, r] : s->reservations) {
        preemption::ContainerSnapshot cs;
        cs.id = r.id;
        cs.node = node;
        cs.size = r.resource;
        cs.requestPriority = r.key.priority;
        cs.isReservation = true;
        cs.creationTimeMs = r.createdAt;
        as.containers.push_back(cs);
      }
      qs.appsInPreemptionOrder.push_back(as.attempt);
      snap.apps.push_back(std::move(as));
    }

    // getTotalPendingResourcesConsideringUserLimit, once without and once with reservations
    // deducted, over the active apps in ordering order.
    std::vector<const CsApp*> active;
    for (AppId id : leaf->activeApps) active.push_back(&csApps_.at(id));
    std::sort(active.begin(), active.end(),
              [this](const CsApp* a, const CsApp* b) { return orderKeyFor(*a) < orderKeyFor(*b); });
    for (const auto& [p, total] : partitions_) {
      QueuePartitionAmounts& a = qs.partitions[p];
      std::map<std::string, Resource> headroom, headroomDeduct;
      for (const CsApp* s : active) {
        const std::string& user = s->app->user();
        if (!headroom.contains(user)) {
          const Resource h = Resource::componentwiseMax(
              userLimit(*leaf, user, p) - s->user->usedIn(p), Resource());
          headroom[user] = h;
          headroomDeduct[user] = h;
        }
        auto pit = s->pending.find(p);
        const Resource pending = pit == s->pending.end() ? Resource() : pit->second;
        Resource reserved;
        for (const auto& [node, r] : s->reservations) {
          if (r.partition == p) reserved += r.resource;
        }
        const Resource take = Resource::componentwiseMin(headroom[user], pending);
        a.pending += take;
        headroom[user] -= take;
        const Resource deducted = Resource::componentwiseMax(pending - reserved, Resource());
        const Resource takeDeduct = Resource::componentwiseMin(headroomDeduct[user], deducted);
        a.pendingDeductReserved += takeDeduct;
        headroomDeduct[user] -= takeDeduct;
      }
      // LeafQueue.getResourceLimitForAllUsers for every user with apps in the leaf (the
      // intra-queue selector looks the limit up by the app's user).
      UserLimitInputs in;
      in.partitionResource = total;
      in.queueGuaranteed = leaf->cap(p).effectiveMin;
      in.queueMaxDown = rc.roundDown(leaf->cap(p).effectiveMax, minAlloc);
      in.minAlloc = minAlloc;
      in.consumedRatio = leaf->usageRatio(p);
      in.minimumUserLimitPercent = leaf->config().minimumUserLimitPercent;
      in.userLimitFactor = leaf->config().userLimitFactor;
      in.allUsers = true;
      for (const auto& [name, u] : leaf->users) {
        if (u.totalApps() > 0) in.activeUsersWeight += u.weight;
      }
      const Resource all = computeUserLimit(rc, in);
      for (const auto& [name, u] : leaf->users) {
        if (u.totalApps() > 0) a.userLimits[name] = userLimitForWeight(rc, all, u.weight, minAlloc);
      }
    }
  }

  // Nodes, indexed by id; ids of removed nodes are empty placeholders in the default partition.
  if (queuesOnly) {
    SPINDLE_RETURN_IF_ERROR(preemption::validateSnapshot(snap));
    return snap;
  }
  const std::vector<NodeId> ids = cluster().nodeIds();
  const uint32_t count = ids.empty() ? 0 : ids.back().value() + 1;
  snap.nodes.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    snap.nodes[i].id = NodeId(i);
    snap.nodes[i].name = cluster().nodeName(NodeId(i));
  }
  for (NodeId id : ids) {
    const Node& n = cluster().node(id);
    preemption::NodeSnapshot& ns = snap.nodes[id.value()];
    ns.partition = n.partition();
    ns.unallocated = n.unallocated();
    auto k = killableOnNode.find(id);
    if (k != killableOnNode.end()) ns.killable = k->second;
    if (n.reservation()) ns.reservedContainer = n.reservation()->container;
  }
  SPINDLE_RETURN_IF_ERROR(preemption::validateSnapshot(snap));
  return snap;
}

}  // namespace spindle
