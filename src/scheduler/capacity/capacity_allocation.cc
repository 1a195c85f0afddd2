#include "scheduler/capacity/capacity_allocation.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "base/hot_path.h"

namespace spindle {

using Mode = SchedulingMode;

CapacityAllocator::CapacityAllocator(CapacityScheduler& cs, NodeId node)
    : cs_(cs),
      rc_(cs.calculator()),
      cfg_(cs.config_),
      nodeId_(node),
      node_(cs.cluster().node(node)),
      filter_(cs.nodeFilter()),
      partition_(node_.partition()),
      R_(cs.partitionResource(partition_)),
      cluster_(cs.cluster().total()),
      minAlloc_(cs.settings().bounds.minimum),
      numNodes_(cs.cluster().numNodes()),
      continueLooking_(cs.config_.reservationsContinueLookAllNodes && partition_.empty()) {}

int CapacityAllocator::run() {
  if (node_.reservation()) return serveReservation() ? 1 : 0;
  int assigned = 0;
  int offSwitch = 0;
  const int maxOffSwitch = std::max(1, cfg_.maximumOffswitchAssignments);
  while (rc_.computeAvailableContainers(node_.unallocated(), minAlloc_) > 0) {
    Outcome o = assignRoot(Mode::kRespectExclusivity);
    if (!o.assigned() && !partition_.empty() && !cs_.cluster().isExclusive(partition_)) {
      o = assignRoot(Mode::kIgnoreExclusivity);
    }
    if (!o.assigned()) break;
    ++assigned;
    if (o.state == State::kReserved) break;
    if (o.locality == Locality::kOffSwitch && ++offSwitch >= maxOffSwitch) break;
    if (!cfg_.multipleAssignmentsEnabled) break;
    if (cfg_.maximumContainerAssignments != -1 && assigned >= cfg_.maximumContainerAssignments) {
      break;
    }
  }
  return assigned;
}

// allocateContainersToNode / LeafQueue.assignContainers: only the reserving app is considered on a
// reserved node.
bool CapacityAllocator::serveReservation() {
  const AppId appId = node_.reservation()->container.app();
  CsApp* found = cs_.csAppOrNull(appId);
  if (found == nullptr) return false;
  CsApp& s = *found;
  auto rit = s.reservations.find(nodeId_);
  if (rit == s.reservations.end()) return false;
  const SchedulerKey key = rit->second.key;
  if (s.app->asks().count(key, kAnyResourceName) <= 0) {
    cs_.unreserve(s, nodeId_, "unreserved: the application no longer asks for it");
    return false;
  }
  Limits limits;
  limits.limit = cs_.partitionResource(kDefaultPartition);
  limits.headroom = limits.limit;
  Outcome o = assignOnNode(s, key, limits, Mode::kRespectExclusivity, /*reservedHere=*/true);
  if (o.assigned()) return o.state == State::kAllocated;
  cs_.unreserve(s, nodeId_, "unreserved: the reserved ask can no longer be placed here");
  return false;
}

CapacityAllocator::Outcome CapacityAllocator::assignRoot(Mode mode) {
  Limits limits;
  limits.limit = mode == Mode::kRespectExclusivity ? R_ : cs_.partitionResource(kDefaultPartition);
  return assignParent(*cs_.tree_->root(), limits, mode);
}

bool CapacityAllocator::hasPendingFor(const CsQueue& q, Mode mode) const {
  const std::string& p = mode == Mode::kRespectExclusivity ? partition_ : kDefaultPartition;
  auto it = q.usages.find(p);
  return it != q.usages.end() && !it->second.pending.isZero();
}

bool CapacityAllocator::appHasPendingFor(const CsApp& s, Mode mode) const {
  return s.pendingIn(mode == Mode::kRespectExclusivity ? partition_ : kDefaultPartition);
}

// AbstractCSQueue.canAssignToThisQueue (from ParentQueue.assignContainers); sets limits.headroom.
bool CapacityAllocator::canAssignToThisQueue(const CsQueue& q, Limits& limits,
                                             const Resource& couldUnreserve, Mode mode) const {
  const Resource current = mode == Mode::kRespectExclusivity
                               ? rc_.min(cluster_, q.cap(partition_).effectiveMax, limits.limit)
                               : R_;
  const Resource& used = q.usage(partition_).used;
  limits.headroom = current - used;
  if (!rc_.greaterThanOrEqual(cluster_, used, current)) return true;
  if (continueLooking_ && rc_.greaterThan(cluster_, couldUnreserve, Resource()) &&
      rc_.lessThan(cluster_, used - couldUnreserve, current)) {
    limits.amountNeededUnreserve = used - current;
    return true;
  }
  return false;
}

CapacityAllocator::Outcome CapacityAllocator::assignParent(CsQueue& q, Limits& limits, Mode mode) {
  if (mode == Mode::kRespectExclusivity && !q.config().canAccess(partition_) && q.parent()) {
    return {};
  }
  if (!hasPendingFor(q, mode)) return {};
  if (!canAssignToThisQueue(q, limits, q.usage(partition_).reserved, mode)) return {};
  // The children's ordering values, as of the call (PriorityUtilizationQueueOrderingPolicy). The
  // default partition ranks the parent's childKeys cache in place: the keys change only when a
  // descent assigns, and then this call returns at once. Other partitions take a snapshot. `skip`
  // marks the children that are no candidates or were already offered; scratch space per tree depth
  // (no allocation per call).
  const size_t depth = static_cast<size_t>(q.depth());
  const size_t n = q.children().size();
  const bool cached = partition_.empty();
  std::vector<QueueSortEntry>& snapshot = cs_.sortScratch_.at(depth);
  std::vector<uint8_t>& skip = cs_.skipScratch_.at(depth);
  skip.assign(n, 0);
  if (!cached) snapshot.assign(n, QueueSortEntry());
  for (size_t i = 0; i < n; ++i) {
    CsQueue* c = q.children()[i];
    if (cached) {
      const CsQueue::ChildKey& k = q.childKeys[i];
      if (!k.pending || mode != Mode::kRespectExclusivity) {
        if (!hasPendingFor(*c, mode)) skip[i] = 1;  // it would return nothing
      }
      continue;
    }
    if (!hasPendingFor(*c, mode)) {
      skip[i] = 1;
      continue;
    }
    QueueSortEntry& e = snapshot[i];
    e.queue = c;
    const ResolvedCapacity& cap = c->cap(partition_);
    const Resource used = c->usage(partition_).used;
    e.accessible = c->config().canAccess(partition_);
    e.absCapacity = static_cast<float>(cap.absCapacity);
    e.usedCapacity = rc_.isInvalidDivisor(cap.effectiveMin) || cap.effectiveMin.isZero()
                         ? 0.0f
                         : static_cast<float>(rc_.divide(R_, used, cap.effectiveMin));
    e.absUsedCapacity =
        rc_.isInvalidDivisor(R_) ? 0.0f : static_cast<float>(rc_.divide(R_, used, R_));
    e.priority = c->config().priority;
    auto pc = c->config().partitions.find(partition_);
    if (pc != c->config().partitions.end() && pc->second.capacity.mode == CapacityMode::kAbsolute) {
      e.configuredMin = &pc->second.capacity.absolute;
    }
  }
  auto entry = [&](size_t i) -> const QueueSortEntry& {
    return cached ? q.childKeys[i] : snapshot[i];
  };
  const bool respectPriority = q.priorityUtilization;
  Outcome last;
  // Selection in comparator order, lazily (usually the first child assigns): each round scans
  // the remaining children in configured order and keeps the running best, as a stable
  // selection sort does.
  const bool simple = cached && q.simpleChildOrder;
  for (;;) {
    size_t best = n;
    if (simple) {
      // What compareQueues reduces to without priorities, zero or absolute capacities.
      for (size_t j = 0; j < n; ++j) {
        if (skip[j]) continue;
        if (best == n) {
          best = j;
          continue;
        }
        const CsQueue::ChildKey& a = q.childKeys[j];
        const CsQueue::ChildKey& b = q.childKeys[best];
        int c = queue_ordering_detail::compareDouble(a.usedCapacity, b.usedCapacity);
        if (c == 0) c = queue_ordering_detail::compareDouble(b.absCapacity, a.absCapacity);
        if (c < 0) best = j;
      }
    } else {
      for (size_t j = 0; j < n; ++j) {
        if (skip[j]) continue;
        if (best == n || compareQueues(entry(j), entry(best), partition_, respectPriority) < 0) {
          best = j;
        }
      }
    }
    if (best == n) break;
    skip[best] = 1;
    CsQueue& child = *q.children()[best];
    if (q.childKeys[best].leaf) prefetchLeaf(child);
    // getResourceLimitsOfChild: min(parent limit, parent max) - parent used + child used.
    Limits childLimits;
    const Resource net =
        limits.blockedHeadroom.isZero() ? limits.limit : limits.limit - limits.blockedHeadroom;
    childLimits.limit = rc_.roundDown(rc_.min(cluster_, net, q.cap(partition_).effectiveMax) -
                                          q.usage(partition_).used + child.usage(partition_).used,
                                      minAlloc_);
    last = child.isLeaf() ? assignLeaf(child, childLimits, mode)
                          : assignParent(child, childLimits, mode);
    if (last.assigned()) return last;
    if (last.state == State::kQueueSkipped) {
      limits.blockedHeadroom += last.blockedHeadroom.clampedAtZero();
    }
  }
  if (last.state == State::kQueueSkipped) {
    last.blockedHeadroom = limits.blockedHeadroom;
    return last;
  }
  return {};
}

Resource CapacityAllocator::userLimitFor(const CsQueue& leaf, const CsUser& user, Mode mode) {
  for (const auto& [u, ul] : userLimits_) {
    if (u == &user) return ul;
  }
  Resource ul;
  {
    const ResolvedCapacity& cap = leaf.cap(partition_);
    UserLimitInputs in;
    in.partitionResource = R_;
    in.queueGuaranteed = cap.effectiveMin;
    in.queueMaxDown =
        mode == Mode::kRespectExclusivity ? rc_.roundDown(cap.effectiveMax, minAlloc_) : R_;
    in.minAlloc = minAlloc_;
    in.consumedRatio = leaf.usageRatio(partition_);
    in.activeUsersUsed = leaf.activeUsersUsed(partition_);
    in.activeUsersWeight = leaf.activeUsersWeight;
    in.minimumUserLimitPercent = leaf.minimumUserLimitPercent;
    in.userLimitFactor = leaf.userLimitFactor;
    in.mode = mode;
    ul = userLimitForWeight(rc_, computeUserLimit(rc_, in), user.weight, minAlloc_);
  }
  userLimits_.emplace_back(&user, ul);
  return ul;
}

// LeafQueue.canAssignToUser: fails when the user's used is strictly above its limit.
bool CapacityAllocator::canAssignToUser(const CsQueue& leaf, const CsApp& s, const Resource& limit,
                                        Limits& limits) const {
  (void)leaf;
  const Resource used = s.user->usedIn(partition_);
  if (!rc_.greaterThan(cluster_, used, limit)) return true;
  if (continueLooking_ && rc_.lessThanOrEqual(cluster_, used - s.totalReserved(), limit)) {
    limits.amountNeededUnreserve = used - limit;
    return true;
  }
  return false;
}

// FifoOrderingPolicyWithExclusivePartitions: the leaf keeps one FIFO order
// per exclusive-enforced partition (apps by their AM's partition) and one for all other apps; a
// node of an enforced partition iterates only that partition's apps, any other node only the
// rest. nullptr when the leaf does not isolate.
const std::set<std::string>* CapacityAllocator::enforcedPartitions(const CsQueue& q) const {
  if (!q.fifoWithPartitions) return nullptr;
  const QueueConfig& c = q.config();
  if (c.exclusiveEnforcedPartitions.empty()) return nullptr;
  return &c.exclusiveEnforcedPartitions;
}

bool CapacityAllocator::enforcedPartitionAdmits(const std::set<std::string>& enforced,
                                                const CsApp& s) const {
  if (enforced.count(partition_)) return s.amPartition == partition_;
  return enforced.count(s.amPartition) == 0;
}

// The chain leaf -> first schedulable app -> its asks is a series of dependent cache misses;
// starting it here, before the child's limits are computed, overlaps it with that work.
void CapacityAllocator::prefetchLeaf(const CsQueue& leaf) const {
  leaf.prefetchHot();
  const CsApp* head = leaf.head;
  if (head == nullptr) return;
  prefetchLine(&*leaf.schedulable.begin());
  head->prefetch();
  prefetchRange(head->app, sizeof(Application));
}

CapacityAllocator::Outcome CapacityAllocator::assignLeaf(CsQueue& q, Limits& limits, Mode mode) {
  if (mode == Mode::kRespectExclusivity && partition_.empty()) {
    // updateCurrentResourceLimits: the limit AM limits and headroom use.
    q.currentLimit = rc_.roundDown(
        rc_.min(cluster_, q.cap(kDefaultPartition).effectiveMax, limits.limit), minAlloc_);
  }
  if (mode == Mode::kRespectExclusivity && !q.config().canAccess(partition_)) return {};
  if (!hasPendingFor(q, mode)) return {};
  userLimits_.clear();
  bool needQueueCheck = true;
  const std::set<std::string>* enforced = enforcedPartitions(q);
  for (const AppOrderKey& k : q.schedulable) {
    CsApp& s = *cs_.csAppOrNull(k.app);  // the first one was prefetched by prefetchLeaf
    if (!appHasPendingFor(s, mode)) continue;
    if (enforced && !enforcedPartitionAdmits(*enforced, s)) continue;
    if (needQueueCheck) {
      const Resource reserved = s.totalReserved();
      if (!canAssignToThisQueue(q, limits, reserved, mode)) {
        const Resource used = q.usage(partition_).used;
        skip(s, {}, SkipReason::kQueueMaxCapacity,
             fmt::format("queue {} uses {} of its limit {}", q.path(), used.toString(),
                         (used + limits.headroom).toString()),
             {{"queueUsedMb", double(used.memoryMb())},
              {"queueLimitMb", double((used + limits.headroom).memoryMb())}});
        return {};
      }
      if (!continueLooking_ || reserved.isZero()) needQueueCheck = false;
    }
    const Resource ul = userLimitFor(q, *s.user, mode);
    if (!canAssignToUser(q, s, ul, limits)) {
      const Resource used = q.users.at(s.app->user()).usedIn(partition_);
      skip(s, {}, SkipReason::kUserLimit,
           fmt::format("user {} uses {} above its limit {} in queue {}", s.app->user(),
                       used.toString(), ul.toString(), q.path()),
           {{"userUsedMb", double(used.memoryMb())}, {"userLimitMb", double(ul.memoryMb())}});
      continue;
    }
    Outcome o = assignApp(s, limits, mode);
    if (o.assigned()) return o;
    if (o.state == State::kAppSkipped) continue;
    if (o.state == State::kQueueSkipped) {
      o.blockedHeadroom = limits.headroom;
      return o;
    }
    return {};  // nothing allocated and not skipped: respect FIFO order
  }
  return {};
}

CapacityAllocator::Outcome CapacityAllocator::assignApp(CsApp& s, Limits& limits, Mode mode) {
  Outcome result = Outcome::of(State::kAppSkipped);
  s.app->asks().forEachActiveKey([&](const SchedulerKey& key, const ResourceRequest&) {
    Outcome o = allocateKey(s, key, limits, mode);
    if (o.state == State::kPrioritySkipped) return true;
    result = o;
    return false;
  });
  return result;
}

std::string CapacityAllocator::keyPartition(const CsApp& s, const SchedulerKey& key) const {
  return cs_.keyPartition(s, *s.app->asks().find(key, kAnyResourceName));
}

bool CapacityAllocator::shouldAllocOrReserve(const CsApp& s, const SchedulerKey& key,
                                             const Resource& cap) const {
  auto rr = s.reReservations.find(key);
  return shouldAllocOrReserveNewContainer(
      rc_, s.app->asks().count(key, kAnyResourceName), s.reserved(key),
      rr == s.reReservations.end() ? 0 : rr->second, cap, s.leaf->maximumAllocation, minAlloc_);
}

// RegularContainerAllocator.preCheckForNodeCandidateSet, then tryAllocateOnNode.
CapacityAllocator::Outcome CapacityAllocator::allocateKey(CsApp& s, const SchedulerKey& key,
                                                          Limits& limits, Mode mode) {
  Application& app = *s.app;
  const ResourceRequest* any = app.asks().find(key, kAnyResourceName);
  if (any == nullptr || any->numContainers <= 0) return Outcome::of(State::kPrioritySkipped);
  // precheckNode: the request's partition, then placement constraints (the node filter's).
  const std::string keyP = cs_.keyPartition(s, *any);
  if (const SkipReason why =
          filter_.checkPartition(keyP, partition_, mode == Mode::kRespectExclusivity);
      why != SkipReason::kNone) {
    skip(
        s, key, why,
        fmt::format("asks for partition '{}', node {} is in '{}'", keyP, node_.name(), partition_));
    return Outcome::of(State::kPrioritySkipped);
  }
  if (const SkipReason why = filter_.checkConstraints(app, key, node_); why != SkipReason::kNone) {
    skip(s, key, why, filter_.explainConstraints(app, key, node_));
    return Outcome::of(State::kPrioritySkipped);
  }
  if (!cfg_.reservationsContinueLookAllNodes && !shouldAllocOrReserve(s, key, any->capability)) {
    return Outcome::of(State::kPrioritySkipped);
  }
  const bool waitingForAm = !app.amRunning() && !s.amResource.isZero();
  if (mode == Mode::kIgnoreExclusivity && waitingForAm) {
    // RegularContainerAllocator: an AM is never placed ignoring exclusivity
    // (SKIP_AM_ALLOCATION_IN_IGNORE_EXCLUSIVE_MODE).
    skip(s, key, SkipReason::kPartition,
         fmt::format("Skipping assigning to Node in Ignore Exclusivity mode: the AM is never "
                     "placed on node {} of non-exclusive partition '{}'",
                     node_.name(), partition_));
    return Outcome::of(State::kAppSkipped);
  }
  // checkHeadroom: headroom (+ the app's reservation when continue-looking) >= the ask.
  const Resource couldUnreserve = continueLooking_ ? s.totalReserved() : Resource();
  if (!rc_.greaterThanOrEqual(cluster_, limits.headroom + couldUnreserve, any->capability)) {
    skip(s, key, SkipReason::kQueueMaxCapacity,
         fmt::format("queue headroom {} is below the ask {}", limits.headroom.toString(),
                     any->capability.toString()),
         {{"headroomMb", double(limits.headroom.memoryMb())},
          {"askMb", double(any->capability.memoryMb())}});
    return Outcome::of(State::kQueueSkipped);
  }
  if (const SkipReason why = filter_.checkBlacklist(app, node_); why != SkipReason::kNone) {
    skip(s, key, why,
         fmt::format("node {} or its rack {} is blacklisted", node_.name(), node_.rack()));
    return Outcome::of(State::kAppSkipped);
  }
  app.addSchedulingOpportunity(key);
  if (mode == Mode::kIgnoreExclusivity) {
    const int64_t missed = ++s.missedNonPartitioned[key];
    if (missed < numNodes_) {
      skip(s, key, SkipReason::kPartition,
           fmt::format("a default-partition ask waits {} of {} opportunities before using "
                       "non-exclusive partition '{}'",
                       missed, numNodes_, partition_),
           {{"missedNonPartitioned", double(missed)}, {"threshold", double(numNodes_)}});
      return Outcome::of(State::kAppSkipped);
    }
  }
  Outcome o = assignOnNode(s, key, limits, mode, /*reservedHere=*/false);
  if (o.state == State::kPrioritySkipped) {
    app.setSchedulingOpportunities(key, app.schedulingOpportunities(key) - 1);
  }
  return o;
}

// RegularContainerAllocator.assignContainersOnNode (delay scheduling).
CapacityAllocator::Outcome CapacityAllocator::assignOnNode(CsApp& s, const SchedulerKey& key,
                                                           Limits& limits, Mode mode,
                                                           bool reservedHere) {
  const AskTable& asks = s.app->asks();
  const std::string& host = node_.name();
  const std::string& rack = node_.rack();
  const int64_t missed = s.app->schedulingOpportunities(key);
  if (asks.count(key, host) > 0 && asks.count(key, rack) > 0) {
    Outcome o = assignContainer(s, key, Locality::kNodeLocal, limits, mode, reservedHere);
    if (o.assigned()) return o;
  }
  if (asks.count(key, rack) > 0) {
    if (const SkipReason why = filter_.checkRelaxLocality(asks, key, node_, Locality::kRackLocal);
        why != SkipReason::kNone) {
      skip(s, key, why, fmt::format("relaxLocality=false on rack {} forbids {}", rack, host));
      return Outcome::of(State::kPrioritySkipped);
    }
    const int64_t threshold = rackLocalThreshold(numNodes_, cfg_.nodeLocalityDelay);
    if (missed > threshold) {
      Outcome o = assignContainer(s, key, Locality::kRackLocal, limits, mode, reservedHere);
      if (o.assigned()) return o;
    }
  }
  const int32_t outstanding = asks.count(key, kAnyResourceName);
  if (outstanding > 0) {
    if (const SkipReason why = filter_.checkRelaxLocality(asks, key, node_, Locality::kOffSwitch);
        why != SkipReason::kNone) {
      skip(s, key, why,
           fmt::format("relaxLocality=false on ANY forbids off-switch placement on {}", host));
      return Outcome::of(State::kPrioritySkipped);
    }
    OffSwitchInputs in{
        asks.uniqueLocations(key),       numNodes_, outstanding, missed, cfg_.nodeLocalityDelay,
        cfg_.rackLocalityAdditionalDelay};
    Outcome o;
    if (reservedHere || offSwitchAllowed(in)) {
      o = assignContainer(s, key, Locality::kOffSwitch, limits, mode, reservedHere);
    } else {
      const double threshold = numNodes_ == 0 ? 0 : offSwitchThreshold(in);
      skip(s, key, SkipReason::kLocalityDelay,
           fmt::format("delay scheduling: {} missed opportunities, off-switch needs more than {}",
                       missed, threshold),
           {{"missedOpportunities", double(missed)}, {"threshold", threshold}});
      o.state = State::kLocalitySkipped;
    }
    // An off-switch refusal skips the whole app, not just this key.
    if (o.state == State::kLocalitySkipped) o.state = State::kAppSkipped;
    return o;
  }
  return Outcome::of(State::kPrioritySkipped);
}

// RegularContainerAllocator.assignContainer (container fit, reservations).
CapacityAllocator::Outcome CapacityAllocator::assignContainer(CsApp& s, const SchedulerKey& key,
                                                              Locality locality, Limits& limits,
                                                              Mode mode, bool reservedHere) {
  const Resource cap = s.app->asks().find(key, kAnyResourceName)->capability;
  if (!rc_.fitsIn(cap, node_.total())) {
    skip(s, key, SkipReason::kNoNodeFits,
         fmt::format("ask {} is larger than node {} ({})", cap.toString(), node_.name(),
                     node_.total().toString()));
    return Outcome::of(State::kLocalitySkipped);
  }
  const bool should = shouldAllocOrReserve(s, key, cap);
  const int64_t available = rc_.computeAvailableContainers(node_.unallocated(), cap);
  const Resource needUnreserve =
      rc_.max(cluster_, cap - limits.headroom, limits.amountNeededUnreserve);
  const bool needToUnreserve = rc_.isAnyMajorResourceAboveZero(needUnreserve);
  if (available > 0) {
    std::optional<NodeId> swap;
    if (!reservedHere && continueLooking_ && (!should || needToUnreserve)) {
      swap = findNodeToUnreserve(s, key, needToUnreserve ? needUnreserve : cap);
      if (!swap) {
        skip(s, key, SkipReason::kQueueMaxCapacity,
             "over a limit and no reservation of this ask to swap (continue looking)");
        return Outcome::of(State::kLocalitySkipped);
      }
    }
    return commitAllocation(s, key, locality, mode, reservedHere, swap);
  }
  if (should || reservedHere) {
    if (continueLooking_ && !reservedHere && needToUnreserve)
      return Outcome::of(State::kLocalitySkipped);
    return commitReservation(s, key, locality, mode, reservedHere);
  }
  skip(s, key, SkipReason::kNoNodeFits,
       fmt::format("ask {} does not fit in {} free on {}; enough reservations already",
                   cap.toString(), node_.unallocated().toString(), node_.name()),
       {{"askMemoryMb", double(cap.memoryMb())},
        {"freeMemoryMb", double(node_.unallocated().memoryMb())}});
  return Outcome::of(State::kLocalitySkipped);
}

std::optional<NodeId> CapacityAllocator::findNodeToUnreserve(const CsApp& s,
                                                             const SchedulerKey& key,
                                                             const Resource& amount) const {
  for (const auto& [node, r] : s.reservations) {
    if (node != nodeId_ && r.key == key && r.partition.empty() && rc_.fitsIn(amount, r.resource)) {
      return node;
    }
  }
  return std::nullopt;
}

// AbstractCSQueue.accept up the path: no queue may go over its maximum.
bool CapacityAllocator::acceptable(CsApp& s, const SchedulerKey& key, const Resource& net,
                                   Mode mode) {
  if (!rc_.greaterThan(cluster_, net, Resource())) return true;
  for (const CsQueue* q = s.leaf; q != nullptr; q = q->parent()) {
    const Resource& max = mode == Mode::kRespectExclusivity ? q->cap(partition_).effectiveMax : R_;
    const Resource after = q->usage(partition_).used + net;
    if (!rc_.fitsIn(after, max)) {
      skip(s, key, SkipReason::kQueueMaxCapacity,
           fmt::format("{} more would take queue {} to {}, over its maximum {}", net.toString(),
                       q->path(), after.toString(), max.toString()),
           {{"queueUsedMb", double(q->usage(partition_).used.memoryMb())},
            {"queueMaxMb", double(max.memoryMb())}});
      return false;
    }
  }
  return true;
}

bool CapacityAllocator::commitPlacement(CsApp& s, const SchedulerKey& key) {
  const ResourceRequest* any = s.app->asks().find(key, kAnyResourceName);
  if (any == nullptr || any->numContainers <= 0) return false;
  if (!rc_.fitsIn(any->capability, node_.unallocated())) return false;
  const Resource ul = userLimitFor(*s.leaf, *s.user, Mode::kRespectExclusivity);
  const Resource used = s.leaf->users.at(s.app->user()).usedIn(partition_);
  if (rc_.greaterThan(cluster_, used, ul)) {
    skip(s, key, SkipReason::kUserLimit,
         fmt::format("user {} uses {} above its limit {} in queue {}", s.app->user(),
                     used.toString(), ul.toString(), s.leaf->path()));
    return false;
  }
  if (!acceptable(s, key, any->capability, Mode::kRespectExclusivity)) return false;
  cs_.allocate(*s.app, key, nodeId_, Locality::kNodeLocal,
               Reason::format("placed by the placement processor at priority {} on {}",
                              key.priority, node_.name()));
  return true;
}

CapacityAllocator::Outcome CapacityAllocator::commitAllocation(CsApp& s, const SchedulerKey& key,
                                                               Locality locality, Mode mode,
                                                               bool reservedHere,
                                                               std::optional<NodeId> swap) {
  const Resource cap = s.app->asks().find(key, kAnyResourceName)->capability;
  Resource net = cap;
  if (reservedHere) net -= s.reservations.at(nodeId_).resource;
  if (swap && s.reservations.at(*swap).partition == partition_) {
    net -= s.reservations.at(*swap).resource;
  }
  if (!acceptable(s, key, net, mode)) return {};
  if (swap) {
    cs_.unreserve(
        s, *swap,
        fmt::format("unreserved to allocate on {} instead (continue looking)", node_.name()));
  }
  if (reservedHere) cs_.unreserve(s, nodeId_, "reservation fulfilled");
  cs_.allocate(
      *s.app, key, nodeId_, locality,
      Reason::format("{} at priority {} on {}{}", toString(locality), key.priority, node_.name(),
                     reservedHere                       ? " (from reservation)"
                     : mode == Mode::kIgnoreExclusivity ? " (ignoring exclusivity)"
                                                        : ""));
  if (!reservedHere && locality != Locality::kOffSwitch &&
      (locality == Locality::kNodeLocal || cfg_.rackLocalityFullReset)) {
    s.app->setSchedulingOpportunities(key, 0);
  }
  if (partition_.empty()) s.missedNonPartitioned.erase(key);
  return Outcome::of(State::kAllocated, locality);
}

CapacityAllocator::Outcome CapacityAllocator::commitReservation(CsApp& s, const SchedulerKey& key,
                                                                Locality locality, Mode mode,
                                                                bool reservedHere) {
  const Resource cap = s.app->asks().find(key, kAnyResourceName)->capability;
  if (!reservedHere && !acceptable(s, key, cap, mode)) return {};
  cs_.reserve(s, nodeId_, key, cap);
  return Outcome::of(State::kReserved, locality);
}

void CapacityAllocator::skip(const CsApp& s, const SchedulerKey& key, SkipReason why,
                             std::string text,
                             std::vector<std::pair<std::string, double>> numbers) {
  cs_.recordSkip(*s.app, nodeId_, key, why, std::move(text), std::move(numbers));
}

// --- The scheduler's entry points ---------------------------------------------------------------

int CapacityScheduler::allocateOnNode(NodeId node) {
  if (!preemption_.executor.killable().empty()) reclaimKillable(node);
  CapacityAllocator pass(*this, node);
  return pass.run();
}

bool CapacityScheduler::hasPendingDemand() const {
  for (const auto& [partition, usage] : tree_->root()->usages) {
    if (!usage.pending.isZero()) return true;
  }
  return false;
}

bool CapacityScheduler::emptyHeartbeatIsNoop(NodeId node) const {
  if (!config_.scheduleAsynchronously) {
    const Node& n = cluster().node(node);
    if (!n.reservation() &&
        calculator().computeAvailableContainers(n.unallocated(), settings().bounds.minimum) == 0) {
      return true;
    }
  }
  return !hasPendingDemand();
}

void CapacityScheduler::schedule(NodeId node) {
  sync();
  if (config_.scheduleAsynchronously) {
    globalPass();
    return;
  }
  allocateOnNode(node);
}

}  // namespace spindle

namespace spindle {

bool CapacityScheduler::attemptAllocationOnNode(Application& app, const SchedulerKey& key,
                                                NodeId node) {
  sync();
  CsApp* s = csAppOrNull(app.id());
  // An app whose AM has not been activated sends no allocate calls; a stopped one commits
  // nothing (YARN: appAttempt.isStopped()).
  if (s == nullptr || s->phase != CsAppPhase::kActive) return false;
  CapacityAllocator pass(*this, node);
  return pass.commitPlacement(*s, key);
}

}  // namespace spindle
