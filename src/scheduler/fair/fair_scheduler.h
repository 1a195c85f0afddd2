// The Fair Scheduler (YARN's FS/FairScheduler.java, 3.x assignment path; the Hadoop docs'
// FairScheduler page).
//
//   Configuration conf;          // yarn-site keys; yarn.scheduler.fair.allocation.file names
//   conf.set("yarn.resourcemanager.scheduler.class", "fair");   // the allocation file
//   auto fs = FairScheduler::create(conf, clock, rng).value();
//   fs->handle(NodeAdded{"h1", "/r1", Resource::of(8192, 8)});
//   fs->submit({.name = "job", .queue = "default", .user = "alice",
//               .amResource = Resource::of(1024, 1)});           // placed in root.alice
//   fs->handle(NodeHeartbeat{"h1", {}});
//   fs->queues().find("root.alice")->fairShare;
//
// Algorithm:
//  1. Submit: the placement policy picks a queue (or rejects); the leaf is created when missing
//     and allowed (QueueManager.getLeafQueue(create=true)); the submit ACL is checked up the
//     ancestor chain; MaxRunningApps files the app as runnable or waiting.
//  2. Update pass (the update thread): on every MonitorTick, and lazily on the first heartbeat
//     at or after each yarn.scheduler.fair.update-interval-ms of injected-clock time:
//     demand bottom-up (capped at max share), then instantaneous fair shares top-down with each
//     parent's policy; leaves split among runnable apps only.
//     Steady fair shares follow node changes, queue creation and removal, and configuration
//     reloads; they are read only through queues(), which recomputes them when one of those
//     left them stale (a pure function of the tree, the resolved min/max shares and the cluster
//     total, so the value is the one an eager recomputation would have left).
//  3. Node heartbeat (attemptScheduling): an existing reservation on the node is served or
//     dropped first; otherwise root.assignContainer(node) repeats while the node is not
//     reserved, once unless yarn.scheduler.fair.assignmultiple (then up to max.assign
//     containers, or, with dynamic.max.assign, while the total assigned fits in half of the
//     node's unallocated resource at the start of the heartbeat).
//  4. assignContainer descends: a queue over its max share or a reserved node yields nothing;
//     a parent tries children in its policy's order; a leaf tries its runnable apps with
//     pending asks in its policy's order (fair_assign.cc has the per-app steps). The orders are
//     kept sorted between heartbeats rather than sorted at every level of every descent
//     (fair_order.cc); they equal YARN's sorts.
//  5. With yarn.scheduler.fair.preemption (and utilisation above its threshold), the update pass
//     also preempts, in the design spindle.scheduler.fair.preemption.design names: 3.x (default)
//     finds starved apps and preempts for them (fair_preemption.cc), room freed on a node is
//     offered to the starved app first on that node's heartbeats; 2.x sums the leaves'
//     resToPreempt and warns, then kills, containers of the queues most over their fair share
//     (fair_preemption_2x.cc).
//  6. With continuous scheduling, every MonitorTick also runs attemptScheduling on each node
//     (largest unallocated memory first) and delay scheduling uses the time thresholds.
// Invariants (checkSchedulerInvariants): fs_queue.h's queue invariants; every current policy
// order holds exactly its queue's children or runnable apps, with up-to-date views, keys, name
// ranks and hints, sorted by the queue's policy (fair_order.cc); every live app has FS state
// whose cached fields (index, name, leaf, pending-asks flag, marked resource, delay-scheduling
// vector) agree with what they cache; every reservation an app
// records is on a node reserved for that app; every container awaiting a preemption kill (3.x)
// or warned (2.x) is live and marked in its app.
// Single-threaded; deterministic given the clock and events.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "scheduler/fair/config/allocation_config.h"
#include "scheduler/fair/config/allocation_reload.h"
#include "scheduler/fair/fs_queue.h"
#include "scheduler/fair/max_running_apps.h"
#include "scheduler/fair/policy/scheduling_policy.h"
#include "scheduler/scheduler.h"

namespace spindle {

// Every user's only group is one named after the user (the Unix "user private group"
// convention). Hadoop asks the OS (ShellBasedUnixGroupsMapping); tests inject their own.
class UserNameGroupsMapping : public fair::GroupsProvider {
 public:
  std::vector<std::string> groups(const std::string& user) const override { return {user}; }
};

class FairScheduler final : public Scheduler {
 public:
  // Reads the yarn-site keys and the allocation file (yarn.scheduler.fair.allocation.file).
  static Result<std::unique_ptr<FairScheduler>> create(const Configuration& conf,
                                                       const Clock& clock, Rng& rng);
  // As create(), with the allocation file's text given directly.
  static Result<std::unique_ptr<FairScheduler>> createWithAllocation(const Configuration& conf,
                                                                     std::string_view xml,
                                                                     const Clock& clock, Rng& rng);
  FairScheduler(SchedulerSettings settings, fair::FairSchedulerConfig config, const Clock& clock,
                Rng& rng);

  const char* typeName() const override { return "fairScheduler"; }
  std::optional<std::vector<AppId>> appsInQueue(std::string_view queue) const override;
  // FSAppAttempt.getHeadroom: the leaf policy's headroom from the queue's fair share and usage,
  // bounded by min(cluster free, queue max share - queue usage).
  std::optional<Resource> headroom(AppId id) const override;
  // Re-reads the allocation file named by `conf` (and the yarn-site keys). Live apps keep their
  // queues (missing ones are created as dynamic leaves); an app whose queue would become a
  // parent is an error and nothing changes.
  Status refreshConfiguration(const Configuration& conf) override;
  // As above with the allocation file's text.
  Status refreshAllocation(const Configuration& conf, std::string_view xml);
  // FairScheduler.moveApplication (fair_move.cc): the target must be an existing leaf the app's
  // user may submit to; a runnable app must fit the target's maxRunningApps and maxResources at
  // every queue below the lowest common ancestor of the two leaves. Usage and AM usage move
  // with the app; runnability is recomputed (MaxRunningApps rule 3).
  Status moveApp(AppId id, std::string_view queue) override;

  // Reservable queues (fair_reservation.cc): a queue with <reservation> in the allocation file.
  std::vector<std::string> planQueues() const override;
  std::optional<PlanQueueState> planQueueState(std::string_view plan) const override;
  // Reservation queues get weights equal to their entitlement's capacity (the maximum is not
  // used: a Fair queue has no such cap).
  Status setPlanQueues(std::string_view plan, const std::vector<QueueEntitlement>& queues,
                       bool moveOnExpiry) override;
  // Reload of the allocation file at run time (fair_reload.cc; AllocationFileLoaderService):
  // every MonitorTick polls the watcher, which reads the file when it changed and has been
  // quiet for ALLOC_RELOAD_WAIT_MS; the text is validated and installed like a refresh, and on
  // any error the configuration in force stays (logged, retried at the next check). create()
  // watches the file it read; tests inject a probe here.
  void watchAllocationFile(std::unique_ptr<fair::AllocationFileProbe> probe);
  const fair::AllocationReloadWatcher* allocationWatcher() const { return watcher_.get(); }
  // One reload check now (what each MonitorTick runs first).
  void checkAllocationFile();
  // The update thread's period (yarn.scheduler.fair.update-interval-ms): each tick runs the
  // update pass, preemption and (when on) a continuous-scheduling attempt.
  int64_t monitorIntervalMs() const override { return config_.site.updateIntervalMs; }

  void setGroupsProvider(std::shared_ptr<const fair::GroupsProvider> groups) {
    groups_ = std::move(groups);
  }
  const fair::FsQueueTree& queues() const { return tree_; }
  // Every queue's steady fair share (FSQueue.getSteadyFairShare, ComputeFairShares'
  // computeSteadyShares): the cluster split top-down by weight, min and max share over all
  // queues, active or not. A pure function of the tree and the cluster, computed on each call
  // (O(queues)) rather than kept: YARN recomputes it on every node and queue change, which at
  // 1,000 queues cost 0.4 ms per NodeAdded; only views read it.
  std::unordered_map<const fair::FsQueue*, Resource> steadyFairShares() const;
  const fair::FairSiteConfig& site() const { return config_.site; }
  const fair::FsApp* fsApp(AppId id) const;
  // FSLeafQueue.computeMaxAMResource for a leaf: its AM limit now.
  Resource maxAmResource(const fair::FsQueue& leaf) const;
  // Runs the update pass now (FairScheduler.update): demand and instantaneous fair shares.
  void update();
  // The containers of the app marked for preemption (3.x) or warned (2.x): the strict contract
  // of its next allocate response.
  PreemptionMessage preemptionMessage(AppId id) const override;
  // The queue's instantaneous fair share from the last update: by path ("root." optional), or
  // the first leaf with that name.
  std::optional<Resource> fairShare(std::string_view queue) const override;
  // The scenario `starvation:` view (fair_preemption_2x.cc). A leaf is starved when its usage is
  // below min(minShare, demand) or min(fairShare x fairSharePreemptionThreshold, demand) under
  // its policy's calculator (FSLeafQueue.isStarved); its deficit is the 2.x resourceDeficit at
  // the clock's time, whichever design runs. A parent sums its leaves.
  bool queueStarved(const fair::FsQueue& q) const;
  Resource resourceDeficit(const fair::FsQueue& q) const;
  // What the last 2.x preemption check handed to preemptResources; 0 when there was nothing to
  // preempt, when the last update found preemption off or utilisation at or below the
  // threshold, or under the 3.x design.
  const Resource& lastToPreempt() const { return lastToPreempt2x_; }

  // Heartbeat-skip contract (scheduler.h, docs/simulator.md), answered from aggregates kept
  // incrementally (no scan of the apps). A heartbeat of a node that reports nothing changes
  // state when: an app has pending asks (even a full node counts a scheduling opportunity and
  // may be reserved), a reservation exists (it is served or dropped), a preemption kill awaits,
  // preempted room is held for a starved app, or the lazy update pass is due
  // (update-interval-ms since the last one, or none yet). hasPendingDemand() is true when any
  // of these holds anywhere; it relies on MonitorTick arriving every monitorIntervalMs(), as
  // the Driver's cadence (Driver::nextMonitorTick) delivers it, so that a lazy update never
  // falls due between two of their steps. emptyHeartbeatIsNoop(node) checks the node's own
  // reservation and held room.
  bool hasPendingDemand() const override;
  bool emptyHeartbeatIsNoop(NodeId node) const override;

 protected:
  Status admitApp(Application& app) override;
  void onAppRemoved(Application& app) override;
  void schedule(NodeId node) override;
  void onContainerAllocated(Application& app, const Container& c) override;
  void onContainerFinished(Application& app, const Container& c) override;
  // Starts loading every reported container's charge path (prefetchChargePath), then
  // finishes them as the base does: the misses of different containers overlap.
  Status updateCompletedContainers(NodeId node,
                                   std::span<const CompletedContainer> completed) override;
  void onAsksChanged(Application& app) override;
  void onClusterChanged() override;
  void runMonitors() override;
  // The app's leaf's maxContainerAllocation (FSQueue.getMaximumContainerAllocation, inherited),
  // capped at the scheduler maximum (FairScheduler.getMaximumResourceCapability(queue)).
  std::optional<QueueMaximumAllocation> queueMaximumAllocation(
      const Application& app) const override;
  Status checkSchedulerInvariants() const override;

 private:
  enum class Outcome { kNone, kAllocated, kReserved };
  struct Assignment {
    Outcome outcome = Outcome::kNone;
    Resource resource;
  };

  // Reused buffers for one level of the tree (the update pass recurses; level d uses
  // scratch_[d], so no call clobbers its caller's).
  struct LevelScratch {
    std::vector<fair::Schedulable> views;  // the update pass's share inputs
    std::vector<Resource> shares;
  };
  LevelScratch& scratchAt(size_t depth);
  fair::FsApp& fsAppAt(AppId id) { return *appIndex_[id.value()]; }

  // fair_update.cc
  void updateDemand(fair::FsQueue& q);
  void computeShares(fair::FsQueue& q, size_t depth);
  void fillQueueView(fair::Schedulable& v, const fair::FsQueue& q) const;
  void fillAppView(fair::Schedulable& v, const fair::FsApp& a) const;
  // Only what computeShares reads (weight, min, max, active, start time): no name, usage, demand.
  void fillQueueShareView(fair::Schedulable& v, const fair::FsQueue& q) const;
  void fillAppShareView(fair::Schedulable& v, const fair::FsApp& a) const;
  // The persistent views the orders are sorted by (FsQueue/FsApp::view), with the name set once.
  const fair::Schedulable& refreshedView(fair::FsQueue& q) const;
  const fair::Schedulable& refreshedView(fair::FsApp& a) const;
  void splitSteadyShare(const fair::FsQueue& q, size_t depth, std::vector<LevelScratch>& scratch,
                        std::unordered_map<const fair::FsQueue*, Resource>& out) const;
  fair::Schedulable queueView(const fair::FsQueue& q) const;
  fair::Schedulable appView(const fair::FsApp& a) const;
  fair::SchedulingPolicy policyOf(const fair::FsQueue& q) const;
  void maybeUpdate();
  bool updateDue() const;

  // fair_assign.cc
  void attemptScheduling(NodeId node);
  bool shouldContinueAssigning(int containers, const Resource& maxToAssign,
                               const Resource& assigned) const;
  Assignment assignQueue(fair::FsQueue& q, NodeId node);
  Assignment assignLeaf(fair::FsQueue& leaf, NodeId node);
  Assignment assignApp(fair::FsApp& fa, NodeId node, bool reserved);
  // One key of assignApp (step 2): nullopt when the next key is to be tried.
  std::optional<Assignment> assignAtKey(fair::FsApp& fa, const SchedulerKey& key, NodeId node,
                                        bool reserved);
  Assignment assignAt(fair::FsApp& fa, const SchedulerKey& key, NodeId node, Locality locality,
                      bool reserved);
  Locality allowedLocality(fair::FsApp& fa, const SchedulerKey& key);
  bool hasContainerForNode(const fair::FsApp& fa, const SchedulerKey& key, NodeId node);
  // One key's ANY, rack and host requests for a node (null when absent): what AskTable's
  // count and canDelayTo look up, looked up once; the node filter reads them as they are.
  using KeyAsks = LocalityAsks;
  KeyAsks keyAsks(const Application& a, const SchedulerKey& key, const Node& node) const;
  bool hasContainerForNode(const fair::FsApp& fa, const SchedulerKey& key, NodeId node,
                           const KeyAsks& asks);
  bool isOverAmShareLimit(const fair::FsApp& fa, NodeId node);
  bool assignReservedContainer(NodeId node);
  bool isReservable(const fair::FsApp& fa, const Resource& capability) const;
  bool isStarved(const fair::FsApp& fa) const;
  bool reservationExceedsThreshold(const fair::FsApp& fa, NodeId node, Locality type) const;
  bool reserve(fair::FsApp& fa, const SchedulerKey& key, NodeId node, Locality type,
               bool alreadyReserved);
  void unreserve(fair::FsApp& fa, NodeId node, std::string reason);

  // fair_order.cc: the policy orders of the descent.
  int comparePolicy(fair::PolicyKind kind, const fair::Schedulable& a,
                    const fair::Schedulable& b) const;
  // The order of members (OrderEntry) under `kind`: the fair policy compares the kept keys,
  // the others the members' views.
  auto orderLess(fair::PolicyKind kind) const {
    return [this, kind](const auto& x, const auto& y) {
      if (kind == fair::PolicyKind::kFair) return fair::compareFairShareKeys(x.key, y.key) < 0;
      return comparePolicy(kind, x.member->view, y.member->view) < 0;
    };
  }
  bool orderCurrent(const fair::FsQueue& q) const {
    return !q.orderStale && q.orderEpoch == ordersEpoch_;
  }
  // Rebuilds q's order (its children, or for a leaf its runnable apps) when stale.
  void ensureOrder(fair::FsQueue& q);
  // A container of `fa` allocated (sign +1) or finished (-1): usage of its leaf and ancestors,
  // and the app and those queues moved to their new places in the orders.
  void chargeContainer(fair::FsApp& fa, const Resource& r, int sign);
  // Prefetches what chargeContainer reads for a container of `app`; changes nothing.
  void prefetchChargePath(AppId app) const;
  // Every order stale (min/max shares or the cluster changed).
  void allOrdersChanged() { ++ordersEpoch_; }
  // The update pass set the demands of q's children (or apps): q's order, when current, takes
  // them and stays current.
  void demandsChanged(fair::FsQueue& q);
  // A current order holds exactly the members, with up-to-date views, sorted.
  Status checkOrder(const fair::FsQueue& q) const;

  // fair_preemption.cc
  struct NodePreemption {
    std::set<ContainerId> containers;  // marked victims on the node
    std::map<AppId, Resource> forApp;  // freed room held for starved apps
    Resource total;
  };
  struct Victims {
    std::vector<ContainerId> containers;
    int amCount = 0;
  };
  bool shouldAttemptPreemption() const;
  bool usageBelowShare(fair::PolicyKind policy, const Resource& usage, const Resource& share) const;
  void updateStarvedApps(fair::FsQueue& leaf, std::vector<AppId>& starved);
  Resource fairShareStarvation(fair::FsApp& fa);
  Resource minShareStarvation(fair::FsQueue& leaf);
  void preemptForStarvedApps(std::vector<AppId> starved);
  std::vector<ContainerId> identifyContainersToPreempt(fair::FsApp& starved);
  std::vector<ResourceRequest> starvedResourceRequests(const fair::FsApp& starved) const;
  std::optional<Victims> bestVictims(const Resource& request, const std::vector<NodeId>& nodes);
  void markVictim(ContainerId c, const fair::FsApp& starved, const ResourceRequest& rr);
  std::optional<Victims> victimsOnNode(const Resource& request, NodeId node, int maxAm);
  bool canContainerBePreempted(const Container& c, const Resource& alreadyConsidering) const;
  void killDuePreemptions();
  void assignPreemptedContainers(NodeId node);
  void forgetPreemptedContainer(const Container& c);

  // fair_move.cc
  Status verifyMoveConstraints(const Application& app, const fair::FsQueue& from,
                               const fair::FsQueue& to) const;

  // fair_preemption_2x.cc: the 2.x design (FairScheduler.preemptTasksIfNecessary).
  struct LeafClocks2x {
    TimeMs lastTimeAtMinShare = 0;
    TimeMs lastTimeAtFairShareThreshold = 0;
  };
  bool starvedFor(const fair::FsQueue& leaf, const Resource& share) const;
  Resource resourceDeficit2x(const fair::FsQueue& leaf, TimeMs now, std::string* why) const;
  void updateStarvationStats2x();
  void preemptTasksIfNecessary2x();
  void preemptResources2x(Resource toPreempt, const std::string& why);
  std::optional<ContainerId> preemptContainer2x(const fair::FsQueue& q,
                                                std::map<const fair::FsQueue*, Resource>& usage);
  void warnOrKill2x(ContainerId c, const std::string& why);

  // fair_scheduler.cc
  std::optional<QueueMaximumAllocation> leafMaximumAllocation(const fair::FsQueue& leaf) const;
  void syncPendingAsks(fair::FsApp& fa, const Application& app);
  bool holdsPreemptedRoom() const;
  Result<fair::FsQueue*> placeApp(const Application& app, const std::vector<std::string>& groups);
  // Plan queues (fair_reservation.cc).
  fair::FsQueue* planQueue(std::string_view name) const;
  Result<std::string> reservationQueueFor(const Application& app, const fair::FsQueue& plan) const;
  void restorePlanQueues(fair::FsQueueTree& next) const;
  Status installConfig(fair::FairSchedulerConfig config);
  void keepPoliciesOfExistingQueues(fair::AllocationConfig& next) const;

  fair::FairSchedulerConfig config_;
  fair::FsQueueTree tree_;
  // Each plan queue's reservation queues with their entitlements as the follower last set them
  // (plan path -> queues), re-applied to the tree a reload builds.
  std::map<std::string, std::vector<QueueEntitlement>> planChildren_;
  fair::MaxRunningApps maxRunning_;
  std::map<AppId, fair::FsApp> fsApps_;  // live apps, by id
  std::vector<fair::FsApp*> appIndex_;   // fsApps_ by AppId value (null once removed)
  std::deque<LevelScratch> scratch_;
  std::shared_ptr<const fair::GroupsProvider> groups_;
  std::shared_ptr<const ResourceCalculator> dominant_;
  std::optional<TimeMs> lastUpdate_;
  uint64_t ordersEpoch_ = 1;  // fair_order.cc: an order built in an older epoch is stale
  std::map<NodeId, NodePreemption> nodePreemption_;
  std::map<ContainerId, TimeMs> killAt_;  // marked containers and when they are killed
  std::unique_ptr<fair::AllocationReloadWatcher> watcher_;  // fair_reload.cc

  std::map<ContainerId, std::string> killWhy_;  // the starved app each was marked for
  int32_t appsWithPendingAsks_ = 0;             // live apps whose asks have something pending
  int64_t heartbeatIntervalMs_ = 1000;  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms
  // 2.x preemption state.
  std::map<std::string, LeafClocks2x> leafClocks2x_;  // by leaf path
  std::vector<ContainerId> warned2x_;                 // warnedContainers, in warning order
  std::map<ContainerId, TimeMs> warnedAt2x_;          // FSAppAttempt.preemptionMap of every app
  TimeMs lastPreemptCheck2x_ = 0;                     // lastPreemptCheckTime
  Resource lastToPreempt2x_;
};

}  // namespace spindle
