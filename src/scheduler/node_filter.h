// The node filter: may this node take this request at all? One stage that FIFO, Capacity and
// Fair ask instead of checking node eligibility each on their own: the app's blacklist, the
// node's partition (node label), locality relaxation (relaxLocality=false), and, through one
// extension point, placement constraints and node attributes.
//
//   const NodeFilter& filter = nodeFilter();            // Scheduler owns one
//   if (SkipReason why = filter.checkBlacklist(app, node); why != SkipReason::kNone) {
//     recordSkip(app, node.id(), key, why, "...");       // the scheduler's own text
//   }
//   filter.checkPartition(askPartition, nodePartition, /*respectExclusivity=*/true);
//   filter.checkRelaxLocality(app.asks(), key, node, Locality::kRackLocal);
//   if (filter.checkConstraints(app, key, node) != SkipReason::kNone) {
//     recordSkip(app, node.id(), key, SkipReason::kConstraint,
//                filter.explainConstraints(app, key, node));
//   }
//
// Each check answers SkipReason::kNone (eligible on that count) or the reason the scheduler
// records. The checks are separate questions, not one pass, because YARN's schedulers ask them
// in different orders with other checks in between:
//  - FifoScheduler: blacklist per app (before any key), then per key the constraint hook, then
//    relaxLocality per level while assigning (rack-local, off-switch).
//  - Capacity Scheduler (RegularContainerAllocator): per key partition, then the constraint
//    hook (both in precheckNode), then the queue headroom, then the blacklist
//    (isPlaceBlacklisted), then relaxLocality per level in assignContainersOnNode.
//  - Fair Scheduler: blacklist per app (FSLeafQueue.assignContainer), then per key
//    FSAppAttempt.hasContainerForNode (relaxLocality at any level, then the constraint hook),
//    then relaxLocality per level in assignContainer. No partitions (YARN's Fair Scheduler
//    ignores node labels).
// The filter answers "may this node take the request", never "should we wait for a better
// one": delay scheduling (missed opportunities, thresholds) stays in each scheduler.
//
// Extension point: checkConstraints() is where placement constraints and node attributes are
// checked (YARN's SingleConstraintAppPlacementAllocator.precheckNode calling
// PlacementConstraintsUtil.canSatisfyConstraints). Every scheduler already calls it at YARN's
// place and records SkipReason::kConstraint with explainConstraints()' text. The scheduler's
// SchedulerPlacement (scheduler_placement.h) implements PlacementCheck (the app's
// SchedulingRequest at the key, its multi-level constraint, the allocation-tag store and the
// node attributes) and installs itself the first time an app uses placement.
//
// Cost: every check is inline, allocates nothing and reads only what the schedulers read
// before (no new string compare or map lookup). With no PlacementCheck installed (the
// default) the constraint hook is one predictable branch; an installed check costs one
// virtual call per (app, key, node) considered, and must answer ResourceRequests (which carry
// no constraints) at once.
// Stateless apart from the installed check; not thread-safe to change while scheduling.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "app/application.h"
#include "app/asks.h"
#include "cluster/node.h"
#include "scheduler/decision.h"

namespace spindle {

// One scheduler key's requests at a node's three locality levels, looked up once (null: no
// request there): YARN's getPendingAsk(key, ANY / rack / host).
struct LocalityAsks {
  const ResourceRequest* any = nullptr;
  const ResourceRequest* rack = nullptr;
  const ResourceRequest* host = nullptr;

  static LocalityAsks lookUp(const AskTable& asks, const SchedulerKey& key, const Node& node) {
    return {asks.find(key, kAnyResourceName), asks.find(key, node.rack()),
            asks.find(key, node.name())};
  }
  static int32_t count(const ResourceRequest* r) { return r ? r->numContainers : 0; }
  // AppSchedulingInfo.canDelayTo: no request at that name, or it relaxes locality.
  static bool canDelayTo(const ResourceRequest* r) { return r == nullptr || r->relaxLocality; }
};

// The extension point for placement constraints and node attributes (see the file comment).
class PlacementCheck {
 public:
  virtual ~PlacementCheck();
  // True when the request of `app` at `key` may be placed on `node`. Keys without constraints
  // (every ResourceRequest) answer true.
  virtual bool satisfied(const Application& app, const SchedulerKey& key,
                         const Node& node) const = 0;
  // Why not, for the decision record; called only after satisfied() answered false.
  virtual std::string explain(const Application& app, const SchedulerKey& key,
                              const Node& node) const = 0;
};

class NodeFilter {
 public:
  // Installs the constraint check (not owned; nullptr: none, every node satisfies).
  void setPlacementCheck(const PlacementCheck* check) { placement_ = check; }
  const PlacementCheck* placementCheck() const { return placement_; }

  // kBlacklisted when the app blacklisted the node's host or its rack (YARN's
  // SchedulerAppUtils.isPlaceBlacklisted / AppSchedulingInfo.isPlaceBlacklisted).
  SkipReason checkBlacklist(const Application& app, const Node& node) const {
    const auto& blacklist = app.blacklist();
    if (!blacklist.empty() && (blacklist.count(node.name()) || blacklist.count(node.rack()))) {
      return SkipReason::kBlacklisted;
    }
    return SkipReason::kNone;
  }

  // kPartition when a request for `requested` ("" = the default partition) may not use a node
  // in `nodePartition` (YARN's SchedulerUtils.checkResourceRequestMatchingNodePartition): when
  // respecting exclusivity the partitions must be equal; when ignoring it (the Capacity
  // Scheduler's second pass on a non-exclusive partition) only default-partition requests may
  // use the node. The partition strings are the caller's (a Capacity pass caches the node's).
  SkipReason checkPartition(std::string_view requested, std::string_view nodePartition,
                            bool respectExclusivity) const {
    const bool matches = respectExclusivity ? requested == nodePartition : requested.empty();
    return matches ? SkipReason::kNone : SkipReason::kPartition;
  }

  // kRelaxLocality when relaxLocality forbids placing the key's request on this node at
  // `level`: rack-local needs the rack request to relax (or to be absent), off-switch the ANY
  // request (AppSchedulingInfo.canDelayTo(key, rack or ANY), as the Capacity Scheduler's
  // assignContainersOnNode asks it). Node-local placement is never forbidden by relaxation.
  SkipReason checkRelaxLocality(const AskTable& asks, const SchedulerKey& key, const Node& node,
                                Locality level) const {
    switch (level) {
      case Locality::kNodeLocal: return SkipReason::kNone;
      case Locality::kRackLocal: return verdict(asks.canDelayTo(key, node.rack()));
      case Locality::kOffSwitch: return verdict(asks.canDelayTo(key, kAnyResourceName));
    }
    return SkipReason::kNone;
  }
  // The same on requests looked up once.
  SkipReason checkRelaxLocality(const LocalityAsks& asks, Locality level) const {
    switch (level) {
      case Locality::kNodeLocal: return SkipReason::kNone;
      case Locality::kRackLocal: return verdict(LocalityAsks::canDelayTo(asks.rack));
      case Locality::kOffSwitch: return verdict(LocalityAsks::canDelayTo(asks.any));
    }
    return SkipReason::kNone;
  }
  // kRelaxLocality when relaxLocality forbids this node at every level (FSAppAttempt
  // .hasContainerForNode): a strict ANY request needs an outstanding request for the node's
  // rack, and a strict rack request an outstanding request for the node itself.
  SkipReason checkRelaxLocality(const LocalityAsks& asks) const {
    const bool forRack = LocalityAsks::count(asks.rack) > 0;
    if (!LocalityAsks::canDelayTo(asks.any) && !forRack) return SkipReason::kRelaxLocality;
    if (forRack && !LocalityAsks::canDelayTo(asks.rack) && LocalityAsks::count(asks.host) <= 0) {
      return SkipReason::kRelaxLocality;
    }
    return SkipReason::kNone;
  }

  // The extension point: kConstraint when the installed PlacementCheck refuses the node for
  // the app's request at `key` (placement constraints, node attributes); kNone without one.
  SkipReason checkConstraints(const Application& app, const SchedulerKey& key,
                              const Node& node) const {
    if (placement_ == nullptr) return SkipReason::kNone;
    return placement_->satisfied(app, key, node) ? SkipReason::kNone : SkipReason::kConstraint;
  }
  // The decision text for a kConstraint answer (the PlacementCheck's explanation).
  std::string explainConstraints(const Application& app, const SchedulerKey& key,
                                 const Node& node) const;

 private:
  static SkipReason verdict(bool mayRelax) {
    return mayRelax ? SkipReason::kNone : SkipReason::kRelaxLocality;
  }

  const PlacementCheck* placement_ = nullptr;
};

}  // namespace spindle
