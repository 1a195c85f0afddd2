// FairScheduler's assignment path (FairScheduler.attemptScheduling, FSParentQueue /
// FSLeafQueue.assignContainer, FSAppAttempt.assignContainer and its reservation logic).
// Delay scheduling as FSAppAttempt.getAllowedLocalityLevel.
//
// Per app (assignApp), as FSAppAttempt.assignContainer(node, reserved):
//  1. An app whose AM is not running and whose queue cannot take the AM under maxAMShare is
//     skipped (AM_LIMIT).
//  2. For each scheduler key, ascending (only the reserved key when serving a reservation):
//     a. hasContainerForNode: ANY asks outstanding, relaxLocality allows this node, the ask
//        fits the node's total capability, the node filter's constraint hook accepts the node
//        (CONSTRAINT otherwise), and the leaf and its ancestors stay within their max shares;
//        otherwise try the next key;
//     b. count a scheduling opportunity and compute the allowed locality (getAllowedLocalityLevel);
//     c. node-local if host and rack asks are outstanding; else rack-local if the rack ask is
//        outstanding and allowed (and relaxLocality permits the rack); else off-switch if the
//        ANY ask is outstanding and either the key names at most one location or off-switch is
//        allowed; the first of these decides the app's result on this node (allocation,
//        reservation or nothing);
//     d. otherwise the key waits for locality (LOCALITY_DELAY) and the next key is tried.
//  3. Allocating: the ask fits the node's unallocated resource. Otherwise reserve when the app
//     is starved (usage below its fair share, or min-share starved), the ask is at least
//     reservation-threshold.increment-multiple x increment, the node holds neither another
//     reservation nor preempted room for this app and, for rack/off-switch, the app holds
//     fewer than ceil(nodes x reservable-nodes) reservations in that rack / the cluster.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/policy/am_share.h"

namespace spindle {

using fair::FsApp;
using fair::FsQueue;

void FairScheduler::schedule(NodeId node) {
  killDuePreemptions();
  maybeUpdate();
  attemptScheduling(node);
}

void FairScheduler::attemptScheduling(NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  // Room freed by preemption goes to the apps it was freed for first.
  assignPreemptedContainers(nodeId);
  if (node.reservation() && assignReservedContainer(nodeId)) return;
  int assigned = 0;
  Resource assignedResource;
  // Resources.multiply(node unallocated, 0.5f): truncated per type.
  Resource maxToAssign;
  for (int i = 0; i < settings().types.count(); ++i) {
    maxToAssign.set(i, static_cast<int64_t>(static_cast<double>(node.unallocated().get(i)) *
                                            static_cast<double>(0.5f)));
  }
  while (!node.reservation()) {
    const Assignment a = assignQueue(tree_.root(), nodeId);
    if (a.outcome != Outcome::kAllocated) break;
    ++assigned;
    assignedResource += a.resource;
    if (!shouldContinueAssigning(assigned, maxToAssign, assignedResource)) break;
  }
}

bool FairScheduler::shouldContinueAssigning(int containers, const Resource& maxToAssign,
                                            const Resource& assigned) const {
  const fair::FairSiteConfig& s = config_.site;
  if (!s.assignMultiple) return false;
  if (s.dynamicMaxAssign) return assigned.fitsIn(maxToAssign);
  return s.maxAssign <= 0 || containers < s.maxAssign;
}

FairScheduler::Assignment FairScheduler::assignQueue(FsQueue& q, NodeId node) {
  // assignContainerPreCheck: a reserved node or a queue over its max share takes nothing.
  if (cluster().node(node).reservation() || !q.maxShare.allows(q.usage)) return {};
  if (q.isLeaf()) return assignLeaf(q, node);
  // The children in the policy's order (fair_order.cc), tried until one yields an allocation or
  // a reservation. A try that yields nothing changes no comparator input, so the order stays
  // the one this level started with, as YARN's sorted copy does.
  ensureOrder(q);
  for (size_t i = 0; i < q.childOrder.size(); ++i) {
    const Assignment a = assignQueue(*q.childOrder[i].member, node);
    if (a.outcome != Outcome::kNone) return a;
  }
  return {};
}

FairScheduler::Assignment FairScheduler::assignLeaf(FsQueue& leaf, NodeId nodeId) {
  // fetchAppsWithDemand: runnable apps with outstanding asks, in the policy's order.
  // Apps without pending asks are passed over, and once every app that has some was visited
  // nothing is left to try: on a busy cluster most runnable apps hold containers and ask for
  // nothing, and most heartbeats find no app with asks at all.
  if (leaf.appsWithPendingAsks == 0) return {};
  ensureOrder(leaf);
  const Node& node = cluster().node(nodeId);
  // The leaf's path, which an allocation's decision record names.
  prefetchLine(&leaf.path());
  int32_t pendingLeft = leaf.appsWithPendingAsks;
  for (size_t i = 0; i < leaf.appOrder.size() && pendingLeft > 0; ++i) {
    FsApp& fa = *leaf.appOrder[i].member;
    if (!fa.hasPendingAsks) continue;
    --pendingLeft;
    const Application& a = *fa.app;
    // What assignApp reads lies in five places: start them all loading at once.
    a.prefetchAsks();
    fa.locality.prefetch();
    if (const SkipReason why = nodeFilter().checkBlacklist(a, node); why != SkipReason::kNone) {
      recordSkip(a, nodeId, {}, why,
                 fmt::format("node {} or its rack {} is blacklisted", node.name(), node.rack()));
      continue;
    }
    const Assignment r = assignApp(fa, nodeId, /*reserved=*/false);
    if (r.outcome != Outcome::kNone) return r;
  }
  return {};
}

Resource FairScheduler::maxAmResource(const FsQueue& leaf) const {
  const Resource rootAvailable = cluster().total() - tree_.root().usage;
  return fair::computeMaxAmResource(leaf.fairShare, leaf.maxShare, rootAvailable, leaf.maxAMShare(),
                                    settings().types.count());
}

bool FairScheduler::isOverAmShareLimit(const FsApp& fa, NodeId node) {
  const Application& a = *fa.app;
  if (a.amRunning() || !a.managedAm()) return false;
  // The AM ask is the first active key's ANY request.
  std::optional<SchedulerKey> first;
  Resource amResource;
  a.asks().forEachActiveKey([&](const SchedulerKey& key, const ResourceRequest& any) {
    first = key;
    amResource = any.capability;
    return false;
  });
  if (!first) return true;
  const FsQueue& leaf = *fa.leaf;
  const Resource limit = maxAmResource(leaf);
  if (fair::canRunAppAm(policyOf(leaf), leaf.amUsage, amResource, limit, leaf.maxAMShare())) {
    return false;
  }
  recordSkip(
      a, node, *first, SkipReason::kAmLimit,
      fmt::format("queue {} AM usage {} plus AM {} exceeds its AM limit {} "
                  "(maxAMShare {})",
                  leaf.path(), leaf.amUsage.toString(), amResource.toString(), limit.toString(),
                  leaf.maxAMShare()),
      {{"amLimitMb", double(limit.memoryMb())}, {"amUsedMb", double(leaf.amUsage.memoryMb())}});
  return true;
}

FairScheduler::KeyAsks FairScheduler::keyAsks(const Application& a, const SchedulerKey& key,
                                              const Node& node) const {
  return LocalityAsks::lookUp(a.asks(), key, node);
}

bool FairScheduler::hasContainerForNode(const FsApp& fa, const SchedulerKey& key, NodeId nodeId) {
  return hasContainerForNode(fa, key, nodeId, keyAsks(*fa.app, key, cluster().node(nodeId)));
}

bool FairScheduler::hasContainerForNode(const FsApp& fa, const SchedulerKey& key, NodeId nodeId,
                                        const KeyAsks& asks) {
  const Application& a = *fa.app;
  const Node& node = cluster().node(nodeId);
  const ResourceRequest* any = asks.any;
  if (any == nullptr || any->numContainers <= 0) return false;
  const NodeFilter& filter = nodeFilter();
  if (filter.checkRelaxLocality(asks) != SkipReason::kNone) return false;
  if (!any->capability.fitsIn(node.total())) return false;
  if (const SkipReason why = filter.checkConstraints(a, key, node); why != SkipReason::kNone) {
    recordSkip(a, nodeId, key, why, filter.explainConstraints(a, key, node));
    return false;
  }
  if (!fa.leaf->fitsInMaxShare(any->capability)) {
    recordSkip(a, nodeId, key, SkipReason::kQueueMaxCapacity,
               fmt::format("ask {} would take queue {} (or a parent) over its max share",
                           any->capability.toString(), fa.leaf->path()));
    return false;
  }
  return true;
}

Locality FairScheduler::allowedLocality(FsApp& fa, const SchedulerKey& key) {
  const fair::FairSiteConfig& s = config_.site;
  if (s.continuousSchedulingEnabled) {
    return fa.locality.allowedByTime(key, s.localityDelayNodeMs, s.localityDelayRackMs,
                                     clock().nowMs(), fa.startTime);
  }
  return fa.locality.allowedByCount(key, cluster().numNodes(), s.localityThresholdNode,
                                    s.localityThresholdRack);
}

FairScheduler::Assignment FairScheduler::assignApp(FsApp& fa, NodeId nodeId, bool reserved) {
  if (isOverAmShareLimit(fa, nodeId)) return {};
  if (reserved) {
    // A copy: fulfilling the reservation erases it from reservedOn.
    const SchedulerKey key = fa.reservedOn.at(nodeId);
    return assignAtKey(fa, key, nodeId, /*reserved=*/true).value_or(Assignment{});
  }
  // The active keys ascending; the first that decides ends the walk (the asks change only then).
  Assignment result;
  fa.app->asks().forEachActiveKey([&](const SchedulerKey& key, const ResourceRequest&) {
    if (std::optional<Assignment> r = assignAtKey(fa, key, nodeId, /*reserved=*/false)) {
      result = *r;
      return false;
    }
    return true;
  });
  return result;
}

std::optional<FairScheduler::Assignment> FairScheduler::assignAtKey(FsApp& fa,
                                                                    const SchedulerKey& key,
                                                                    NodeId nodeId, bool reserved) {
  const Application& a = *fa.app;
  const Node& node = cluster().node(nodeId);
  // The key's ANY, rack and host requests, looked up once (nothing below changes the asks
  // before assignAt).
  const KeyAsks asks = keyAsks(a, key, node);
  if (!reserved && !hasContainerForNode(fa, key, nodeId, asks)) return std::nullopt;
  fa.locality.addOpportunity(key);
  const int32_t rack = KeyAsks::count(asks.rack);
  const int32_t host = KeyAsks::count(asks.host);
  const Locality allowed = allowedLocality(fa, key);
  if (rack > 0 && host > 0) return assignAt(fa, key, nodeId, Locality::kNodeLocal, reserved);
  const NodeFilter& filter = nodeFilter();
  if (filter.checkRelaxLocality(asks, Locality::kRackLocal) != SkipReason::kNone) {
    return std::nullopt;
  }
  if (rack > 0 && allowed != Locality::kNodeLocal) {
    return assignAt(fa, key, nodeId, Locality::kRackLocal, reserved);
  }
  if (filter.checkRelaxLocality(asks, Locality::kOffSwitch) != SkipReason::kNone) {
    return std::nullopt;
  }
  if (KeyAsks::count(asks.any) > 0 &&
      (allowed == Locality::kOffSwitch || a.asks().uniqueLocations(key) <= 1)) {
    return assignAt(fa, key, nodeId, Locality::kOffSwitch, reserved);
  }
  recordSkip(a, nodeId, key, SkipReason::kLocalityDelay,
             fmt::format("waiting for a better locality than {} for priority {} (allowed {})",
                         node.name(), key.priority, toString(allowed)),
             {{"schedulingOpportunities", double(fa.locality.opportunities(key))},
              {"numNodes", double(cluster().numNodes())}});
  return std::nullopt;
}

FairScheduler::Assignment FairScheduler::assignAt(FsApp& fa, const SchedulerKey& key, NodeId nodeId,
                                                  Locality locality, bool reserved) {
  Application& a = *fa.app;
  const Resource capability = a.asks().find(key, kAnyResourceName)->capability;
  const Resource free = cluster().node(nodeId).unallocated();
  if (capability.fitsIn(free)) {
    if (reserved) unreserve(fa, nodeId, "reservation fulfilled");
    allocate(a, key, nodeId, locality,
             Reason::format("{} ask at priority {} on {} (queue {})", toString(locality),
                            key.priority, cluster().nodeName(nodeId), fa.leaf->path()));
    fa.locality.onAllocated(key, locality, clock().nowMs());
    return {Outcome::kAllocated, capability};
  }
  // No reservation where preempted room is already held for this app (isPreemptedForApp).
  const auto held = nodePreemption_.find(nodeId);
  const bool preemptedForApp = held != nodePreemption_.end() && held->second.forApp.count(fa.id);
  if (isReservable(fa, capability) && !preemptedForApp &&
      reserve(fa, key, nodeId, locality, reserved)) {
    return {Outcome::kReserved, capability};
  }
  recordSkip(
      a, nodeId, key, SkipReason::kNoNodeFits,
      fmt::format("ask {} does not fit in {} free on {}", capability.toString(), free.toString(),
                  cluster().nodeName(nodeId)),
      {{"askMemoryMb", double(capability.memoryMb())}, {"freeMemoryMb", double(free.memoryMb())}});
  return {};
}

bool FairScheduler::isStarved(const FsApp& fa) const {
  // FSAppAttempt.isStarved: usage below the app's fair share under the leaf policy's
  // calculator, or a min-share starvation set by the last update (preemption only).
  return usageBelowShare(fa.leaf->policy(), fa.app->used(), fa.fairShare) ||
         !fa.minshareStarvation.isZero();
}

bool FairScheduler::isReservable(const FsApp& fa, const Resource& capability) const {
  if (!isStarved(fa)) return false;
  // isAtLeastReservationThreshold under the queue policy's calculator (memory for fair/FIFO).
  Resource threshold;
  const double multiple = config_.site.reservationThresholdIncrementMultiple;
  for (int i = 0; i < settings().types.count(); ++i) {
    threshold.set(i, static_cast<int64_t>(static_cast<double>(settings().bounds.increment.get(i)) *
                                          multiple));
  }
  if (fa.leaf->policy() == fair::PolicyKind::kDrf) {
    return dominant_->greaterThanOrEqual(cluster().total(), capability, threshold);
  }
  return capability.memoryMb() >= threshold.memoryMb();
}

bool FairScheduler::reservationExceedsThreshold(const FsApp& fa, NodeId nodeId,
                                                Locality type) const {
  if (type == Locality::kNodeLocal) return false;
  const std::string& rack = cluster().node(nodeId).rack();
  int existing = 0;
  for (const auto& [n, key] : fa.reservedOn) {
    if (type == Locality::kOffSwitch || cluster().node(n).rack() == rack) ++existing;
  }
  const int nodes = type == Locality::kOffSwitch
                        ? cluster().numNodes()
                        : static_cast<int>(cluster().nodesOnRack(rack).size());
  const int allowed =
      static_cast<int>(std::ceil(nodes * static_cast<double>(config_.site.reservableNodes)));
  return existing >= allowed;
}

bool FairScheduler::reserve(FsApp& fa, const SchedulerKey& key, NodeId nodeId, Locality type,
                            bool alreadyReserved) {
  if (alreadyReserved) return true;  // the existing reservation stays in place
  const Node& node = cluster().node(nodeId);
  if (node.reservation() || reservationExceedsThreshold(fa, nodeId, type)) return false;
  Application& a = app(fa.id);
  const Resource capability = a.asks().find(key, kAnyResourceName)->capability;
  const ContainerId id = a.nextContainerId();
  mutableCluster().reserve(nodeId, id, capability);
  a.addReserved(capability);
  fa.reservedOn[nodeId] = key;
  Decision d;
  d.kind = DecisionKind::kReserve;
  d.time = clock().nowMs();
  d.app = fa.id;
  d.container = id;
  d.node = nodeId;
  d.queue = fa.leaf->path();
  d.key = key;
  d.locality = type;
  d.resource = capability;
  d.reason = fmt::format("ask {} does not fit in {} free on {}; node reserved",
                         capability.toString(), node.unallocated().toString(), node.name());
  record(std::move(d));
  return true;
}

void FairScheduler::unreserve(FsApp& fa, NodeId nodeId, std::string reason) {
  const auto r = cluster().node(nodeId).reservation();
  if (!r) return;
  app(fa.id).removeReserved(r->resource);
  mutableCluster().unreserve(nodeId);
  Decision d;
  d.kind = DecisionKind::kUnreserve;
  d.time = clock().nowMs();
  d.app = fa.id;
  d.container = r->container;
  d.node = nodeId;
  d.queue = fa.leaf->path();
  d.key = fa.reservedOn[nodeId];
  d.resource = r->resource;
  d.reason = std::move(reason);
  record(std::move(d));
  fa.reservedOn.erase(nodeId);
}

bool FairScheduler::assignReservedContainer(NodeId nodeId) {
  const Node& node = cluster().node(nodeId);
  const AppId owner = node.reservation()->container.app();
  auto it = fsApps_.find(owner);
  if (it == fsApps_.end() || !it->second.reservedOn.count(nodeId)) return false;
  FsApp& fa = it->second;
  const SchedulerKey key = fa.reservedOn.at(nodeId);
  // isValidReservation: the app can still use the reservation.
  if (!hasContainerForNode(fa, key, nodeId) || isOverAmShareLimit(fa, nodeId)) {
    unreserve(fa, nodeId, "reservation no longer needed or no longer fits the queue");
    return false;
  }
  if (node.reservation()->resource.fitsIn(node.unallocated())) {
    assignApp(fa, nodeId, /*reserved=*/true);
  }
  return true;
}

}  // namespace spindle
