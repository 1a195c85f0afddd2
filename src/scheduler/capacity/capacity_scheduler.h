// The Capacity Scheduler: hierarchical queues with guaranteed and maximum capacities per node
// partition, user limits, AM limits, delay scheduling and reservations, as YARN's
// CapacityScheduler (reference: shared/reference/yarn/capacity-scheduler.md).
//
//   auto cs = CapacityScheduler::create(conf, clock, rng);  // yarn-site + capacity-scheduler keys
//   cs.value()->handle(NodeAdded{"h1", "/r1", Resource::of(8192, 8)});
//   cs.value()->submit({.queue = "a", .user = "alice", .amResource = Resource::of(1024, 1)});
//   cs.value()->handle(NodeHeartbeat{"h1", {}});           // allocation (heartbeat mode)
//
// Files: capacity_scheduler.cc (apps, admission, activation, usage bookkeeping, views),
// capacity_allocation.cc (the per-node allocation path), capacity_refresh.cc
// (refreshQueues), capacity_async.cc (asynchronous scheduling), cs_queue.* (queue tree),
// cs_math.* (formulas), queue_ordering.* (child ordering), queue_placement.* (mappings),
// capacity preemption: preemption_monitor.* (monitor keys, state between rounds),
// cs_preemption_snapshot.cc (the policy's snapshot), preemption_executor.* (mark -> wait -> kill),
// capacity_preemption.cc (rounds, AM messages, lazy preemption, placed reservations).
//
// Heartbeat mode, per NODE_UPDATE (CapacityScheduler.allocateContainersToNode):
//  1. a node holding a reservation serves only that reservation (fulfil, re-reserve or
//     unreserve) and nothing else;
//  2. otherwise root.assignContainers(RESPECT) is called while the node fits minAlloc, the last
//     call assigned something that was not a reservation, fewer than
//     maximum-offswitch-assignments OFF_SWITCH containers and fewer than
//     maximum-container-assignments containers were assigned, and multiple assignments are on;
//     a call that assigns nothing on a non-exclusive labelled node is retried in IGNORE mode;
//  3. each root call descends parent -> sorted children -> leaf -> apps in policy order -> the
//     app's scheduler keys, and yields at most one container or reservation, committed only if
//     no queue on the path goes over its maximum (YARN's accept()).
//
// Asynchronous mode (schedule-asynchronously.enable=true): YARN runs scheduling threads that
// visit nodes independently of heartbeats. Spindle keeps the core single-threaded and
// deterministic: every heartbeat and every MonitorTick runs one *global pass*. A pass takes nodes
// from an ordered index (most unallocated memory first, then node id), runs steps 1-3 on each
// and moves on; it ends after min(#nodes, 32) consecutive visits that assigned nothing, or when
// every node was visited once. The index is updated in O(log n) per allocation or release, so a
// pass costs O(log n) per container plus the idle visits. Same inputs, same decisions.
//
// Invariants: see cs_queue.h (queue aggregates) and cs_app.h (per-app state);
// checkSchedulerInvariants() verifies all of them, and recomputes every cache the allocation
// path keeps (child ordering keys, simpleChildOrder, app ordering keys and each leaf's head,
// the app and node indexes; capacity_invariants.cc) and compares. Single-threaded.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler/capacity/config/capacity_config.h"
#include "scheduler/capacity/cs_app.h"
#include "scheduler/capacity/cs_math.h"
#include "scheduler/capacity/cs_queue.h"
#include "scheduler/capacity/preemption_monitor.h"
#include "scheduler/capacity/queue_ordering.h"
#include "scheduler/groups.h"
#include "scheduler/scheduler.h"

namespace spindle {

class CapacityScheduler final : public Scheduler {
 public:
  // Reads yarn-site keys (allocation bounds, resource types, yarn.acl.enable,
  // yarn.cluster.max-application-priority, group mapping) and the capacity-scheduler keys.
  static Result<std::unique_ptr<CapacityScheduler>> create(const Configuration& conf,
                                                           const Clock& clock, Rng& rng);
  CapacityScheduler(SchedulerSettings settings, CapacityConfig config, GroupsProvider groups,
                    const Clock& clock, Rng& rng);
  ~CapacityScheduler() override;

  const char* typeName() const override { return "capacityScheduler"; }
  std::optional<std::vector<AppId>> appsInQueue(std::string_view queue) const override;
  std::optional<Resource> headroom(AppId id) const override;
  Status refreshConfiguration(const Configuration& conf) override;
  // CapacityScheduler.updateApplicationPriority (capacity_priority.cc): capped at the cluster
  // maximum, checked against the leaf's priority ACL, re-ordered in the leaf.
  Status updateAppPriority(AppId id, int32_t priority) override;
  // The first queue (preorder) whose accessible-node-labels names `label`.
  std::string labelInUse(const std::string& label) const override;
  // allocateContainersToNode: a heartbeat-driven node with no reservation that cannot fit minAlloc
  // is skipped before anything is tried (no counters move), so such an empty heartbeat changes
  // nothing. In async mode every heartbeat runs a global pass, so only the no-demand rule of the
  // base applies.
  bool emptyHeartbeatIsNoop(NodeId node) const override;
  // From root's incremental pending aggregates (invariant 1 of cs_queue.h): O(partitions), not
  // O(apps) as the base's scan.
  bool hasPendingDemand() const override;
  // Resolves the queues against the nodes added, removed or resized since the last event.
  void settle() override { sync(); }
  // The refresh after parsing: validates against the running apps and swaps the tree, or
  // changes nothing and returns every error.
  Status refreshWithConfig(CapacityConfig next);

  // --- Plan queues (capacity_reservation.cc; plan_queues.h) ---
  std::vector<std::string> planQueues() const override;
  std::optional<PlanQueueState> planQueueState(std::string_view plan) const override;
  Status setPlanQueues(std::string_view plan, const std::vector<QueueEntitlement>& queues,
                       bool moveOnExpiry) override;

  // --- Read-only views (REST, tests) ---
  const CapacityConfig& config() const { return config_; }
  const QueueTree& queues() const;
  const CsQueue* findQueue(const std::string& nameOrPath) const;
  const CsApp* csApp(AppId id) const;
  Resource partitionResource(const std::string& partition) const;
  const std::map<std::string, Resource>& partitionResources() const;
  // The user's limit in a leaf for a partition (RESPECT mode), with the user's weight.
  Resource userLimit(const CsQueue& leaf, const std::string& user,
                     const std::string& partition) const;
  int numClusterNodes() const { return cluster().numNodes(); }
  // Problems found when node labels changed and the capacity keys were re-parsed.
  const std::vector<std::string>& configWarnings() const { return configWarnings_; }
  bool asynchronous() const { return config_.scheduleAsynchronously; }

  // --- Capacity preemption (preemption_monitor.h; capacity_preemption.cc,
  // cs_preemption_snapshot.cc) monitoring_interval while the proportional policy is enabled, else
  // 0.
  int64_t monitorIntervalMs() const override { return preemption_.config.intervalMs(); }
  const PreemptionRoundReport* lastPreemptionRound() const override {
    return preemption_.lastRound ? &*preemption_.lastRound : nullptr;
  }
  // The negotiable contract (the CS never sends a strict one; YARN's PreemptionMessage).
  PreemptionMessage preemptionMessage(AppId app) const override;
  // The policy's input, taken from the live state (YARN's TempQueuePerPartition,
  // preemption_snapshot.h); queuesOnly leaves out apps, containers and nodes
  // (PreemptionSnapshot::queuesOnly).
  Result<preemption::PreemptionSnapshot> buildPreemptionSnapshot(bool queuesOnly = false) const;
  const MonitorConfig& monitorConfig() const { return preemption_.config; }
  const PreemptionExecutor& preemptionExecutor() const { return preemption_.executor; }
  // Tests only: edits (or fails) every snapshot before the round plans on it.
  void setPreemptionSnapshotHook(std::function<Status(preemption::PreemptionSnapshot&)> hook) {
    preemption_.snapshotHook = std::move(hook);
  }

 protected:
  Status admitApp(Application& app) override;
  // The leaf's maximum-allocation-mb/-vcores where it narrows the cluster's maximum: asks above
  // it are refused at allocate time and normalisation is capped at it
  // (CapacityScheduler.getMaximumResourceCapability(queueName)).
  std::optional<QueueMaximumAllocation> queueMaximumAllocation(
      const Application& app) const override;
  std::optional<QueueMaximumAllocation> leafMaximumAllocation(const CsQueue& leaf) const;
  // YARN's AM launch diagnostics: "not yet activated" (AM limits) or "Activated, waiting for
  // resources to be assigned for AM" with the queue's figures and the last reason it was skipped.
  std::string amDiagnostics(const Application& app) const override;
  void onAppRemoved(Application& app) override;
  void schedule(NodeId node) override;
  void onContainerAllocated(Application& app, const Container& c) override;
  void onContainerFinished(Application& app, const Container& c) override;
  void onAsksChanged(Application& app) override;
  void onClusterChanged() override;
  Status onNodeLabelsAdded() override;
  Status validateAsks(const Application& app,
                      const std::vector<ResourceRequest>& asks) const override;
  void runMonitors() override;
  Status placeReservation(Application& app, NodeId node, const SchedulerKey& key,
                          const Resource& resource) override;
  Status checkSchedulerInvariants() const override;
  bool supportsSchedulingRequests() const override { return true; }
  bool attemptAllocationOnNode(Application& app, const SchedulerKey& key, NodeId node) override;

 private:
  // checkSchedulerInvariants' cache checks (capacity_invariants.cc lists what each covers).
  Status checkClusterCaches() const;
  Status checkChildKeys() const;
  Status checkAppOrders() const;
  Status checkAppIndexes() const;
  Status checkNodeIndex() const;

  friend class CapacityAllocator;

  // --- Cluster state (node, label and queue changes mark it dirty; finishEvent() brings it up
  // to date at the end of every event but a node event, settle() after node events, so views
  // read it without changing anything) ---
  void finishEvent() override;
  void onBulkAdmissionEnded() override;
  // Brings the derived state up to date now (a no-op when clean): the paths that read it
  // within an event call it first.
  void sync();
  void syncNow();
  void countNewNodes();
  void recountPartitions();
  // Re-parses the capacity keys when the cluster's node labels changed (AddNodeLabels).
  void reparseForLabels();

  // --- Admission (capacity_scheduler.cc) ---
  Result<CsQueue*> placeApp(const Application& app) const;
  Status checkSubmitAccess(const CsQueue& leaf, const std::string& user) const;
  Result<int32_t> admittedPriority(const CsQueue& leaf, const Application& app,
                                   const std::string& appId) const;
  void updateMaximumApplications(CsQueue& q);
  bool canBeRunnable(const CsQueue& leaf, const std::string& user) const;
  void makeRunnable(CsApp& s);
  void recordNotRunnable(const CsApp& s);
  void activateApplications(CsQueue& leaf);
  // The AM-limit skip of a pending app (queue or user level), repeated when its figures are
  // those of the app's current record (CsApp::amLimitSkip), recorded anew otherwise.
  void skipAtAmLimit(CsApp& s, bool userLevel, const std::string& leafPath, const Resource& limit,
                     const Resource& used, TimeMs now);
  static std::string amLimitSkipText(const CsApp& s, const CsApp::AmLimitSkip& k);
  void promoteNonRunnable();
  void removeFromLeaf(CsApp& s);
  void updateDraining(CsQueue* q);

  // --- Plan queues (capacity_reservation.cc) ---
  // CapacityScheduler.resolveReservationQueueName: the reservation's queue (or the plan's
  // default queue) for an app submitted to a plan queue.
  Result<CsQueue*> reservationQueueFor(const Application& app, CsQueue& plan) const;
  Status checkPlanQueues(const CsQueue& plan, const std::vector<QueueEntitlement>& queues) const;
  // Applies a changed set of entitlements to the plan's reservation queues in place (the
  // configuration, the tree and the derived state of the queues it touches), as a refresh
  // would leave them; the expired queues must be empty.
  Status editPlanQueues(CsQueue& plan, const std::vector<QueueEntitlement>& queues);
  // Moves an app between two reservation queues of one plan with its usage (the expiry move).
  void moveWithinPlan(CsApp& s, CsQueue& to);

  // --- Usage bookkeeping ---
  void addUsage(CsApp& s, const std::string& partition, const Resource& r, bool reservation,
                int sign);
  void refreshPending(CsApp& s);
  std::string keyPartition(const CsApp& s, const ResourceRequest& any) const;
  const std::string& unlabelledPartition(const CsApp& s) const;
  Resource partitionLimit(const CsQueue& leaf, const std::string& p) const;
  void reorder(CsApp& s);
  AppOrderKey orderKeyFor(const CsApp& s) const;
  void setSchedulable(CsApp& s, bool on);
  // Sets leaf.head from leaf.schedulable (after every change of the set).
  void updateHead(CsQueue& leaf);
  void setUserActive(CsApp& s, bool on);
  // Updates the leaf's usage-ratio and active-used sums after user.used[p] changed by delta.
  void userUsageChanged(CsQueue& leaf, CsUser& user, const std::string& p, const Resource& delta);
  void recomputeUserRatios();
  // Recomputes q's entry in its parent's childKeys (default partition).
  void updateChildKey(CsQueue& q);

  // --- Reservations ---
  void reserve(CsApp& s, NodeId node, const SchedulerKey& key, const Resource& r,
               const std::string& why = {});
  void unreserve(CsApp& s, NodeId node, const std::string& why);
  void dropReservationRecord(CsApp& s, NodeId node);

  // --- Async (capacity_async.cc) ---
  void globalPass();
  void indexNode(NodeId node);
  void unindexNode(NodeId node);
  void rebuildNodeIndex();

  // --- Capacity preemption (capacity_preemption.cc) ---
  void runPreemptionRound();
  Status preemptionRound();
  // One plan on a snapshot of the live state (the snapshot hook applied).
  Result<preemption::PreemptionPlan> planPreemption(bool queuesOnly) const;
  void applyPreemptionPlan(const preemption::PreemptionPlan& plan, PreemptionRoundReport& report);
  void killReservation(ContainerId id, const preemption::PreemptionPlan& plan);
  // Lazy preemption: kills killable containers on the node when a queue under its guarantee
  // needs their room for its next container (called before each node's allocation pass).
  void reclaimKillable(NodeId node);

  // The allocation path for one node (capacity_allocation.cc).
  int allocateOnNode(NodeId node);

  CapacityConfig config_;
  // Each plan queue's reservation queues with their entitlements (plan path -> queues, the
  // default queue first), applied to every configuration the scheduler parses
  // (expandPlanQueues); empty until the reservation system sets them.
  std::map<std::string, std::vector<QueueEntitlement>> planChildren_;
  ClusterLabels parsedLabels_;               // the labels config_ was parsed against
  std::vector<std::string> configWarnings_;  // re-parses that failed (config_ kept)
  GroupsProvider groups_;
  bool aclEnabled_ = false;
  int32_t clusterMaxPriority_ = 0;
  std::unique_ptr<QueueTree> tree_;
  std::unordered_map<AppId, CsApp> csApps_;
  // csApps_ by id value (ids are dense; map nodes are stable): the allocation path's lookup.
  std::vector<CsApp*> csById_;
  CsApp* csAppOrNull(AppId id) const {
    return id.value() < csById_.size() ? csById_[id.value()] : nullptr;
  }
  std::map<std::string, int> userRunnable_;  // runnable apps per user, all queues
  std::set<AppId> nonRunnable_;              // submission order
  std::map<NodeId, AppId> reservedNodes_;    // every CsApp reservation, by node

  // Cluster data derived by syncNow() (see finishEvent()).
  bool dirty_ = true;
  bool onlyNodesChanged_ = false;  // dirty from node events alone: left for settle()
  // partition -> total resource, as the queues were last resolved against (syncNow copies
  // countedPartitions_), so that everything derived from it agrees while node events wait.
  std::map<std::string, Resource> partitions_;
  // The same, up to date: nodes are added to it as they come (countNewNodes), other node changes
  // recount it (recountPartitions_).
  std::map<std::string, Resource> countedPartitions_;
  size_t nodesCounted_ = 0;  // node ids below it are in countedPartitions_
  bool recountPartitions_ = true;
  Resource defaultPartitionResource_;
  bool noPartitionDivisor_ = true;  // defaultPartitionResource_ is an invalid divisor

  // Child-ordering scratch space per tree depth (capacity_allocation.cc).
  std::vector<std::vector<QueueSortEntry>> sortScratch_;
  std::vector<std::vector<uint8_t>> skipScratch_;

  // Async node index: (-unallocated memory, node id), and each node's key in it by node id
  // value (kNotIndexed when the node is not in the index).
  static constexpr int64_t kNotIndexed = 1;  // keys are <= 0
  std::set<std::pair<int64_t, NodeId>> nodeIndex_;
  std::vector<int64_t> nodeKey_;
  // The node a global pass is visiting: it stays out of the index until the pass ends, so its
  // allocations skip the re-index (invalid outside a pass).
  NodeId visitingNode_;

  CsPreemptionState preemption_;
};

}  // namespace spindle
