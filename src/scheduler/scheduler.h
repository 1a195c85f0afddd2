// The scheduler core: the bookkeeping every scheduler shares (YARN's AbstractYarnScheduler)
// and the event entry point. FIFO, Capacity and Fair derive from it and supply placement.
// Front ends reach it through a Driver (driver.h), which owns it and returns each event's
// Outcome; tests may drive it directly.
//
//   SimulatedClock clock;
//   Rng rng(42);
//   auto driver = Driver::create(conf, clock, rng).value();   // owns createScheduler's result
//   DecisionLog log;
//   driver->setDecisionSink(&log);
//   driver->handle(NodeAdded{"h1", "/r1", Resource::of(8192, 8)});
//   auto sub = driver->submit({.name = "a", .amResource = Resource::of(1024, 1)});
//   AppId app = sub->admission()->app;                        // accepted or rejected
//   auto out = driver->handle(NodeHeartbeat{"h1", {}});       // out->containers: the AM's
//   SPINDLE_CHECK_OK(driver->scheduler().checkInvariants());
//
// Algorithm of handle():
//  1. Validate the event against current state (unknown node/app/container, bad asks): an
//     error changes nothing.
//  2. Apply it: node and app bookkeeping here; a heartbeat first completes the reported
//     containers (updateCompletedContainers), then calls the derived scheduler's
//     schedule(node).
//  3. Write what the front end must do to the Outcome (setOutcome: containers allocated,
//     finished, killed, marked; apps accepted, rejected, finished) and record decisions with
//     reasons to the sink (an observer; formatting deferred to the sinks that read text).
//  4. Bring derived state up to date (finishEvent), so that every const method, and the REST
//     views built on them, read the scheduler between events without changing anything.
// Invariants (checkInvariants, run by tests and the runner after every step, and once at the
// end of every benchmark; linear in nodes + apps + containers):
//  1. cluster totals equal the sum over nodes; node allocated equals its containers;
//  2. each app's used, amUsed and reserved equal the sums of its live containers, its AM
//     containers and its node reservations; nothing is negative;
//  3. every live container is on a live node and belongs to a live app;
//  4. every cache equals what it caches: the container table and the apps' live-container
//     indexes, the nodes' container sets, the live-app index, each app's managedAm flag and
//     AskTable caches (checkContainerIndexes, checkAppCaches);
//  5. derived-scheduler invariants (queue usage sums, ordering caches) via
//     checkSchedulerInvariants().
// Single-threaded; deterministic given the clock, seed and events.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "app/application.h"
#include "app/container.h"
#include "app/container_table.h"
#include "base/clock.h"
#include "base/rng.h"
#include "base/status.h"
#include "cluster/cluster.h"
#include "config/configuration.h"
#include "resource/resource_calculator.h"
#include "scheduler/decision.h"
#include "scheduler/events.h"
#include "scheduler/node_filter.h"
#include "scheduler/outcome.h"
#include "scheduler/preemption_report.h"
#include "scheduler/scheduling_request.h"

namespace spindle {

class SchedulerPlacement;

// The AM container's scheduler key: priority 0 (RMAppAttemptImpl's AM_CONTAINER_PRIORITY).
inline constexpr SchedulerKey kAmKey{0, 0};
// Container sequence numbers carry the RM epoch above this bit (YARN's
// ResourceManager.EPOCH_BIT_SHIFT): container_e<epoch>_... after a restart.
inline constexpr int kEpochShift = 40;

// What the scheduler asks an AM to give back (YARN's PreemptionMessage): `containers` is the
// strict contract (they will be killed), `negotiable` the PreemptionContract's containers (the
// AM may instead return equivalent resources). The AM reads it on its next allocate response.
struct PreemptionMessage {
  std::vector<ContainerId> containers;
  std::vector<ContainerId> negotiable;
  // The PreemptionContract's one ANY ResourceRequest, as its total (capability x count): what
  // the AM may give back instead of the negotiable containers; zero when there are none.
  Resource negotiableResource;
  bool empty() const { return containers.empty() && negotiable.empty(); }
};

// Settings every scheduler reads, parsed and validated once when it is created (STYLE rule 9):
// a malformed value fails creation with file, line and property. Nothing reads a raw key later.
struct SchedulerSettings {
  ResourceTypes types;
  std::shared_ptr<const ResourceCalculator> calculator;
  AllocationBounds bounds;
  // The "cluster timestamp" in application_<ts>_<seq> ids (the RM start time in YARN).
  int64_t clusterTimestamp = 0;
  // spindle.cluster.epoch: the RM's epoch (bumped in the state store at each start), carried in
  // container ids as container_e<epoch>_... (YARN's ResourceManager.EPOCH_BIT_SHIFT = 40).
  uint64_t epoch = 0;
  // yarn.resourcemanager.am.max-attempts: attempts an app may make before it FAILS; >= 1, as
  // ResourceManager.validateConfigs requires.
  int32_t maxAppAttempts = 2;
  bool aclEnabled = false;  // yarn.acl.enable: queue ACLs are checked
  // yarn.cluster.max-application-priority: the cap on application priorities.
  int32_t maxApplicationPriority = 0;
  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms; > 0, as ResourceTrackerService
  // requires.
  int64_t nmHeartbeatIntervalMs = 1000;
  // yarn.resourcemanager.placement-constraints.*: who places SchedulingRequests.
  PlacementSettings placement;
  // The merged raw configuration: the Capacity Scheduler re-parses its own keys from it on a
  // refresh and when node labels change. Everything else reads the typed fields above.
  Configuration conf;
};

// One reservation queue's share as the reservation system sets it (YARN's QueueEntitlement):
// fractions of its plan queue.
struct QueueEntitlement {
  std::string queue;  // the queue's own name: the reservation id, or "<plan>-default"
  float capacity = 0;
  float maxCapacity = 1;
  bool operator==(const QueueEntitlement&) const = default;
};

// What the plan follower reads of one plan queue (Scheduler::planQueueState).
struct PlanQueueState {
  std::string path;          // the plan queue's full path
  std::string defaultQueue;  // the default reservation queue's own name, "<plan>-default"
  // Capacity Scheduler: the cluster x the plan queue's absolute capacity
  // (CapacitySchedulerPlanFollower.getPlanResources); Fair Scheduler: its steady fair share.
  Resource planResources;
  // The reservation queues under it by name (the default queue excluded) with the resources
  // they are guaranteed now (getReservationQueueResourceIfExists).
  std::map<std::string, Resource> reservationQueues;
};

class Scheduler {
 public:
  Scheduler(SchedulerSettings settings, const Clock& clock, Rng& rng);
  virtual ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // "fifoScheduler", "capacityScheduler", "fairScheduler": the REST schedulerInfo type.
  virtual const char* typeName() const = 0;

  Status handle(const SchedulerEvent& event);
  // AppAdded returns the new id (or the rejection) through here as well.
  Result<AppId> submit(const AppSubmission& submission);

  // The observer of the decision stream (decision.h); nullptr for none.
  void setDecisionSink(DecisionSink* sink) { sink_ = sink; }
  // Where the scheduler writes the actions of each event (outcome.h); the Driver sets and
  // clears it around every event. nullptr (the default) writes none.
  void setOutcome(Outcome* outcome) { outcome_ = outcome; }
  // Decision records made so far (a repeated skip is not recorded), with or without a sink.
  int64_t decisionCount() const { return decisionCount_; }

  const SchedulerSettings& settings() const { return settings_; }
  const ResourceCalculator& calculator() const { return *settings_.calculator; }
  const Cluster& cluster() const { return cluster_; }
  const Clock& clock() const { return clock_; }
  const std::map<AppId, std::unique_ptr<Application>>& apps() const { return apps_; }
  const Application* findApp(AppId id) const;
  // Finished or rejected apps, in id order.
  std::vector<AppId> finishedAppIds() const;
  const Container* findContainer(ContainerId id) const;
  // Live containers: find(id), size(), and `for (const auto& [id, c] : containers())` in a
  // deterministic order (not by id).
  const ContainerTable& containers() const { return containers_; }
  // The last skip recorded for a pending app: "why is my app pending".
  const Decision* lastSkip(AppId id) const;
  // Whether a node may take an app's request (blacklist, partition, relaxLocality, placement
  // constraints): the stage every scheduler asks (node_filter.h).
  const NodeFilter& nodeFilter() const { return nodeFilter_; }
  // Installs the node filter's placement-constraint and node-attribute check (not owned;
  // nullptr, the default: no constraints).
  void setPlacementCheck(const PlacementCheck* check) { nodeFilter_.setPlacementCheck(check); }
  // The placement-constraint state (allocation tags, node attributes, SchedulingRequests);
  // null until an app uses placement (a SchedulingRequest, registered constraints, a tagged
  // container). scheduler_placement.h.
  const SchedulerPlacement* placement() const { return placement_.get(); }

  // Apps in a queue, in the scheduler's order; nullopt when the queue does not exist
  // (YARN's getAppsInQueue returns null).
  virtual std::optional<std::vector<AppId>> appsInQueue(std::string_view queue) const = 0;

  // The app's diagnostics while its AM waits (RMAppImpl's diagnostics, as the scheduler sets
  // them): "" once the AM runs or for an unknown app. The base form names the last reason the AM
  // was passed over; the Capacity Scheduler writes YARN's activation texts.
  virtual std::string amDiagnostics(const Application& app) const;

  // The headroom the scheduler reports to the app's AM on its next allocate response (YARN's
  // Allocation.getResourceLimit); nullopt for an unknown or finished app.
  virtual std::optional<Resource> headroom(AppId id) const = 0;

  // Replaces the scheduler's configuration at run time (`yarn rmadmin -refreshQueues`). The new
  // configuration is validated first; on any error nothing changes and every error is returned.
  // Schedulers without reloadable settings return failedPrecondition.
  virtual Status refreshConfiguration(const Configuration& conf);

  // Moves a live app to another queue (`yarn application -movetoqueue`, YARN's
  // moveApplication): its live containers' usage moves with it. The scheduler validates the
  // target first; on any error nothing changes. Schedulers without queue moves (FIFO) refuse.
  virtual Status moveApp(AppId id, std::string_view queue);
  // Changes a live app's priority (`yarn application -updatePriority`, YARN's
  // YarnScheduler.updateApplicationPriority). The base keeps the priority as it is, as
  // AbstractYarnScheduler does (the front end reports the unchanged value); the Capacity Scheduler
  // caps it at yarn.cluster.max-application-priority, checks the leaf's priority ACL and moves the
  // app to its new place in the leaf's order. Errors (nothing changes): an unknown or finished
  // app, a priority the queue's ACL refuses.
  virtual Status updateAppPriority(AppId id, int32_t priority);
  // `rmadmin -removeFromClusterNodeLabels` (RMNodeLabelsManager.removeFromClusterNodeLabels):
  // every label must exist, no live node may carry it and no queue may use it
  // (labelInUse). Errors change nothing.
  Status removeNodeLabels(const std::vector<std::string>& labels);
  // `rmadmin -replaceLabelsOnNode` for one node (its name; at most one label, a cluster label,
  // or none for the default partition). The node must be empty (no container, no reservation):
  // Spindle moves no running usage between partitions. Errors change nothing.
  Status replaceNodeLabels(std::string_view node, const std::vector<std::string>& labels);

  // The preemption message for the app's next allocate response; empty until a preemption
  // policy marks containers of this app. Record a kPreemptMark decision whenever it grows:
  // the Outcome then lists the container (ContainerAction::kPreemptionMarked) and the app
  // (preemptionMessageGrew), and a simulator wakes the idle AM to read the message.
  virtual PreemptionMessage preemptionMessage(AppId) const { return {}; }

  // How often MonitorTick is due, in injected-clock ms (YARN's SchedulingMonitor
  // monitoring_interval, the Fair Scheduler's update-interval-ms); 0 = the scheduler needs no
  // ticks. The Driver keeps the cadence (Driver::nextMonitorTick) and re-reads it after every
  // tick, so a refreshed configuration takes effect from the next one. A MonitorTick runs
  // every monitor once.
  virtual int64_t monitorIntervalMs() const { return 0; }

  // The queue's instantaneous fair share (a full path or a leaf's own name); nullopt for an
  // unknown queue or a scheduler without fair shares. The simulator's metrics record it.
  virtual std::optional<Resource> fairShare(std::string_view) const { return std::nullopt; }

  // The figures of the last capacity-preemption round; nullptr when none ran (or the scheduler
  // has no such policy).
  virtual const PreemptionRoundReport* lastPreemptionRound() const { return nullptr; }

  // --- Reservable queues (the reservation system drives them; scheduler/reservation_system.h) ---
  // Full paths of the plan queues (a Capacity leaf marked `reservable`, a Fair queue with a
  // <reservation> element), in configuration order; none for FIFO.
  virtual std::vector<std::string> planQueues() const { return {}; }
  // A plan queue by full path or short name; nullopt when it is not one.
  virtual std::optional<PlanQueueState> planQueueState(std::string_view) const {
    return std::nullopt;
  }
  // Replaces a plan queue's reservation queues by `queues` (the default queue first), each with
  // its entitlement: new names are created, existing ones resized, and the ones left out
  // removed. The apps of a removed queue move to the default queue when `moveOnExpiry` (an app
  // the default queue refuses is killed), else they are killed (AbstractSchedulerPlanFollower's
  // cleanupExpiredQueues); moves are in the Outcome as AppAction::kMoved, kills as kFinished
  // KILLED. Errors change nothing: an unknown plan, a name used elsewhere, a bad capacity or
  // capacities summing above 1. Schedulers without plan queues refuse.
  virtual Status setPlanQueues(std::string_view plan, const std::vector<QueueEntitlement>& queues,
                               bool moveOnExpiry);

  // The NODE_UPDATE fast path for simulators: the same as handle(NodeHeartbeat) without the
  // name lookup. Errors as handle().
  Status heartbeat(NodeId node, const std::vector<CompletedContainer>& completed);
  // Heartbeat-skip contract (Driver::emptyHeartbeatIsNoop, docs/simulator.md):
  // emptyHeartbeatIsNoop(n) may return true only when a heartbeat from live node n reporting no
  // completed containers would allocate, reserve and record nothing and change no state; and
  // whenever hasPendingDemand() is false, emptyHeartbeatIsNoop must hold for every node. The
  // defaults are the conservative ones.
  virtual bool hasPendingDemand() const;
  virtual bool emptyHeartbeatIsNoop(NodeId) const { return !hasPendingDemand(); }

  // A new attempt after the AM container was lost (RMAppAttemptImpl fails; RMAppImpl starts
  // another attempt while yarn.resourcemanager.am.max-attempts allow, else the app FAILS). The
  // old attempt's containers are killed (no work-preserving restart), its asks dropped, and the
  // new attempt asks for an AM container. Errors: unknown or finished app, AM still running.
  // `countsAsFailure` false: a new attempt regardless of the attempts made (an RM restart lost
  // the AM container, not the app). With `keepContainers` (the submission's
  // keep-containers-across-application-attempts, RMAppAttemptImpl's
  // transferStateFromPreviousAttempt) the old attempt's running containers stay: they keep
  // their ids and usage and the new attempt's AM is told about them.
  Status restartAttempt(AppId id, bool countsAsFailure = true, bool keepContainers = false);

  std::string appIdString(AppId id) const;
  std::string attemptIdString(AttemptId id) const;
  std::string containerIdString(ContainerId id) const;
  // Parses container_<ts>_<app>_<attempt>_<seq> (and the container_e<epoch>_ form).
  Result<ContainerId> parseContainerId(std::string_view s) const;

  Status checkInvariants() const;

  // Brings up to date what node events leave for later: the Capacity Scheduler re-resolves its
  // queues (O(queues)) once after a run of NodeAdded / NodeRemoved / NodeResourceUpdate events
  // instead of after each, so that adding 50,000 nodes stays fast. Every other event ends with
  // its derived state up to date (finishEvent). A front end calls settle() before reading views
  // after node events; the views themselves never change anything.
  virtual void settle() {}

  // Bulk admission, for a restart that submits every stored app at once (RmCore::recover): in
  // between, a submission or an app's removal leaves the work it would do on the apps waiting in
  // the queues (the Capacity Scheduler's activation pass over a leaf's pending apps, which costs
  // O(pending) per submission and so grows with the square of the apps recovered) to
  // endBulkAdmission(), which does it once, over the queues in their order. Every other event
  // works as usual.
  void beginBulkAdmission() { bulkAdmission_ = true; }
  void endBulkAdmission();
  bool inBulkAdmission() const { return bulkAdmission_; }

 protected:
  // endBulkAdmission()'s deferred work (the Capacity Scheduler activates what fits).
  virtual void onBulkAdmissionEnded() {}
  // Hooks for the derived scheduler.
  // Queue placement and admission; an error rejects the app (recorded as kAppRejected).
  virtual Status admitApp(Application& app) = 0;
  virtual void onAppRemoved(Application& app) = 0;
  // Allocate on this node (the NODE_UPDATE path).
  virtual void schedule(NodeId node) = 0;
  virtual void onContainerAllocated(Application& app, const Container& c) = 0;
  virtual void onContainerFinished(Application& app, const Container& c) = 0;
  // The containers a node reported finished in its heartbeat (AbstractYarnScheduler's
  // updateCompletedContainers): checks that each runs on the node (an error changes nothing;
  // stale ids are ignored, as YARN does), then finishes each in order (kComplete). A scheduler
  // may override it to work on the batch as a whole and then call this one.
  virtual Status updateCompletedContainers(NodeId node,
                                           std::span<const CompletedContainer> completed);
  virtual void onAsksChanged(Application& app) = 0;
  virtual void onClusterChanged() {}
  // Cluster node labels were added (AddNodeLabels); an error fails the event.
  virtual Status onNodeLabelsAdded() {
    onClusterChanged();
    return Status::ok();
  }
  // Scheduler rules for an AM's asks (e.g. the Capacity Scheduler's node-label access),
  // checked after normalisation and before anything is applied.
  virtual Status validateAsks(const Application&, const std::vector<ResourceRequest>&) const {
    return Status::ok();
  }
  // The app's queue limit on the size of one container (YARN's
  // getMaximumResourceCapability(queue), the Fair Scheduler's maxContainerAllocation): asks
  // above it are refused, normalisation caps at it. nullopt: only the scheduler's maximum
  // allocation applies.
  struct QueueMaximumAllocation {
    Resource maximum;
    std::string queue;
  };
  virtual std::optional<QueueMaximumAllocation> queueMaximumAllocation(const Application&) const {
    return std::nullopt;
  }
  // The queue that uses cluster label `label` (its accessible-node-labels), "" when none: such a
  // label cannot be removed.
  virtual std::string labelInUse(const std::string&) const { return ""; }
  virtual void runMonitors() {}
  // PlaceContainer with reserved=true: make `resource` at `key` the node's reserved container
  // for the app (scenarios set up preemption states with it). Schedulers without node
  // reservations refuse.
  virtual Status placeReservation(Application& app, NodeId node, const SchedulerKey& key,
                                  const Resource& resource);
  virtual Status checkSchedulerInvariants() const { return Status::ok(); }
  // Whether SchedulingRequests may be handed to this scheduler (the `scheduler` handler); YARN:
  // only the Capacity Scheduler.
  virtual bool supportsSchedulingRequests() const { return false; }
  // The placement processor's commit of one allocation of the app's request at `key` (its ANY
  // ask, count 1, is in the app's asks) on `node`: true when the scheduler allocated it (YARN's
  // attemptAllocationOnNode; AbstractYarnScheduler's answers false, only the Capacity Scheduler
  // commits).
  virtual bool attemptAllocationOnNode(Application&, const SchedulerKey&, NodeId) { return false; }
  // Runs at the end of every entry point that changes state (handle, submit, heartbeat,
  // restartAttempt, and the derived refreshConfiguration and moveApp, through EventScope):
  // the derived scheduler brings what it derives lazily within an event up to date (except
  // what node events defer to settle()). Const methods never do.
  virtual void finishEvent() {}
  // Calls finishEvent() when it goes out of scope: the first line of each such entry point.
  // Nested entry points (handle calling submit) run it again, which finds nothing to do.
  class EventScope {
   public:
    explicit EventScope(Scheduler& s) : s_(s) {}
    ~EventScope() { s_.finishEvent(); }
    EventScope(const EventScope&) = delete;
    EventScope& operator=(const EventScope&) = delete;

   private:
    Scheduler& s_;
  };

  // Shared steps for derived schedulers.
  Application& app(AppId id) { return *apps_.at(id); }
  Cluster& mutableCluster() { return cluster_; }
  Rng& rng() { return rng_; }
  // Takes one container of `key` at `locality` from the app's asks and places it on the node.
  // `reason` is deferred (Reason::format): rendered only by a sink that reads it.
  Container& allocate(Application& app, const SchedulerKey& key, NodeId node, Locality locality,
                      const Reason& reason);
  // Ends a live container: releases its resources and records `kind` with the exit status.
  void finishContainer(ContainerId id, ContainerEvent event, int32_t exitStatus, DecisionKind kind,
                       const Reason& reason);
  // Records a skip, once per change of (reason, key) for that app, so waiting apps do not flood
  // the log; the latest is kept for lastSkip(). Returns the record's serial (never 0).
  uint64_t recordSkip(const Application& app, NodeId node, const SchedulerKey& key, SkipReason why,
                      std::string text, std::vector<std::pair<std::string, double>> numbers = {});
  // When the app's latest skip is still the record `serial` names, moves its time to now and
  // returns true: what recordSkip would do with that record's very content, for a caller that
  // knows the content is unchanged (the same inputs) without building it again.
  bool repeatSkip(AppId app, uint64_t serial, TimeMs now);
  // The serial of the app's latest skip record, 0 when it has none.
  uint64_t lastSkipSerial(AppId app) const {
    return app.value() < lastSkipSerial_.size() ? lastSkipSerial_[app.value()] : 0;
  }
  void record(Decision d);
  // Writes AppAction::kMoved for the app to the Outcome (a plan queue's expired reservation).
  void recordAppMoved(AppId id, const std::string& queue);

 private:
  Status onNodeAdded(const NodeAdded& e);
  Status onNodeRemoved(const NodeRemoved& e);
  Status onNodeResourceUpdate(const NodeResourceUpdate& e);
  Status onHeartbeat(const NodeHeartbeat& e);
  Status onAppRemoved(const AppRemoved& e);
  Status onAppAllocate(const AppAllocate& e);
  Status onPlaceContainer(const PlaceContainer& e);
  Status onContainerFinishedEvent(const ContainerFinished& e);
  Status onRegisterApplicationMaster(const RegisterApplicationMaster& e);
  Status onNodeAttributesUpdate(const NodeAttributesUpdate& e);
  // SchedulingRequests of an allocate call (scheduling_requests.cc): checked before anything of
  // the call is applied, then handed to the configured handler.
  Status checkSchedulingRequests(const Application& app, const AppAllocate& e,
                                 std::vector<SchedulingRequest>& normalized) const;
  void applySchedulingRequests(Application& app, std::vector<SchedulingRequest> requests);
  // The placement processor on one batch (placement_processor.cc), retries included.
  void runPlacementProcessor(Application& app, const std::vector<SchedulerKey>& keys);
  void rejectSchedulingRequest(const Application& app, const SchedulingRequest& r, int32_t count,
                               RejectionReason reason, std::string message);
  SchedulerPlacement& ensurePlacement();
  Result<std::vector<ResourceRequest>> normalizeAsks(const std::vector<ResourceRequest>& asks,
                                                     const Application& app) const;
  Status checkQueueMaximum(const Application& app, const ResourceRequest& rr,
                           const QueueMaximumAllocation& queueMax) const;
  Result<NodeId> nodeByName(std::string_view name) const;
  void forgetSkip(AppId id);
  Result<Application*> liveApp(AppId id);
  Application* liveAppOrNull(AppId id) const {
    return id.value() < liveById_.size() ? liveById_[id.value()] : nullptr;
  }
  // Moves the app through RMAppImpl's table; FINAL_SAVING completes at once (the core's state
  // store write is synchronous), continuing to the arc's afterSave state.
  Status transitionApp(Application& app, AppEvent event, AppTransitionContext ctx = {});
  // checkInvariants' parts (scheduler.cc lists the caches each covers).
  Status checkContainerIndexes() const;
  Status checkAppCaches() const;

  SchedulerSettings settings_;
  const Clock& clock_;
  Rng& rng_;
  Cluster cluster_;
  NodeFilter nodeFilter_;
  std::map<AppId, std::unique_ptr<Application>> apps_;  // live apps, by id (submission order)
  std::map<AppId, std::unique_ptr<Application>> finishedApps_;
  ContainerTable containers_;  // live containers
  std::unordered_map<AppId, Decision> lastSkip_;
  // Per app id value: the serial of the record lastSkip_ holds for it, 0 for none, so the
  // allocation path's forgetSkip() reads one word instead of hashing into lastSkip_.
  std::vector<uint64_t> lastSkipSerial_;
  uint64_t skipSerials_ = 0;
  // Live apps by id value (ids are dense); null for finished, rejected or unused ids. The hot
  // paths (container release) read it instead of walking apps_.
  std::vector<Application*> liveById_;
  uint32_t nextAppSeq_ = 1;
  void emit(const Decision& d) {
    ++decisionCount_;
    if (sink_) sink_->record(d.view());
  }
  void addContainerChange(ContainerAction action, const Container& c, int32_t exitStatus);

  DecisionSink* sink_ = nullptr;
  Outcome* outcome_ = nullptr;
  std::unique_ptr<SchedulerPlacement> placement_;
  int64_t decisionCount_ = 0;
  bool bulkAdmission_ = false;
  std::vector<const Container*> reported_;  // heartbeat(): the reported containers, reused
};

// Reads yarn-site.xml keys shared by all schedulers: resource types, calculator (FIFO uses the
// memory-only calculator, as YARN's FifoScheduler does; others read their own key), allocation
// bounds and the fields of SchedulerSettings. `calculatorClass` overrides the calculator choice
// when non-empty. Errors name the file, line and property.
Result<SchedulerSettings> schedulerSettingsFromConfig(const Configuration& conf,
                                                      std::string_view calculatorClass,
                                                      bool fairIncrements);

}  // namespace spindle
