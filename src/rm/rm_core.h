// The ResourceManager's state machine: what the RM does with each protocol call, on the one
// scheduler thread, around the Driver that owns the scheduler. No I/O and no threads here:
// the daemon (resource_manager.h) decodes requests on its I/O thread, runs these methods on
// its scheduler thread and writes the answers; tests call them directly on a SimulatedClock.
//
//   RealClock clock;
//   auto core = RmCore::create(settings, conf, clock, "127.0.0.1:8088").value();
//   auto reg = core->registerNode(request);             // ResourceTracker
//   auto hb = core->nodeHeartbeat(heartbeat);           // allocation happens here
//   for (AmLaunch& l : core->takeLaunches()) ...        // AM containers to start on their NMs
//   core->tick();                                       // liveness monitors, scheduler monitors
//
// What it keeps beside the scheduler (YARN's RMNodeImpl, RMAppImpl and RMAppAttemptImpl parts
// the scheduler does not hold):
//  1. Nodes by node id: HTTP address, last heartbeat and its response (responseId), the
//     containers the node must clean up, RUNNING or LOST. A LOST node stays listed.
//  2. Apps by id: the submission context (the AM's launch command), the AM's registration,
//     progress, final status and diagnostics, the last allocate response (responseId), and the
//     containers allocated and completed since the AM's last allocate call, the SchedulingRequests
//     it sent and the rejected ones not yet returned.
//  3. Centralised node attributes by host (also for hosts without a node yet) and each node's
//     distributed attributes as last accepted (rm_node_attributes.cc).
// Each Driver event's Outcome is applied at once (apply()): AM containers become launches,
// other allocations wait for the AM's next allocate, completions go to the AM, kills and
// releases go to their node's cleanup list, and a lost AM container fails its attempt (a new
// attempt while yarn.resourcemanager.am.max-attempts allows, as RMAppImpl does).
// Durable state (rm_recovery.cc; YARN's RMStateStore and work-preserving restart, YARN-556):
// with a StateStore, every call that changes an app or attempt writes the changed apps and
// their attempts in one batch before it returns (so before the daemon answers); a failed write
// goes to the store failure handler (the daemon stops: it does not run without durability).
// At create() the store is opened, loaded and its epoch bumped; apps come back (finished ones
// finished, live ones with their current attempt), container ids carry the epoch, NMs
// re-register with their containers (recovered into the scheduler, charging queue usage as an
// allocation does), AMs are told AM_RESYNC and re-register. For
// yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms after a recovery nothing new
// is allocated, so resources held by containers not yet reported are not handed out; then a
// recovered attempt whose AM container no NM reported starts again.
// Thread-compatible: one thread calls everything.
#pragma once

#include <atomic>
#include <functional>
#include <set>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "base/rng.h"
#include "base/status.h"
#include "config/configuration.h"
#include "dao/decision_store.h"
#include "placement/node_attributes.h"
#include "protocol/records.h"
#include "protocol/rest_records.h"
#include "rm/reservation_requests.h"
#include "rm/rm_settings.h"
#include "scheduler/driver.h"
#include "scheduler/groups.h"
#include "store/state_store.h"
#include "topology/rack_resolver.h"

namespace spindle::rm {

class ActivitiesRecorder;  // rm_activities.h

// An AM container to start on its node (YARN's ApplicationMasterLauncher's job).
struct AmLaunch {
  std::string nodeHttpAddress;  // host:port of the node manager
  protocol::StartContainersRequest request;
};

// YARN's NodeState as the RM keeps it (RMNodeImpl): UNHEALTHY while the NM's health script
// says so, DECOMMISSIONING / DECOMMISSIONED through the exclude file and -refreshNodes.
enum class RmNodeState { RUNNING, UNHEALTHY, DECOMMISSIONING, DECOMMISSIONED, LOST };
const char* toString(RmNodeState s);
// The node heartbeats (RUNNING, UNHEALTHY, DECOMMISSIONING).
bool isActive(RmNodeState s);
// The scheduler holds the node (RUNNING, DECOMMISSIONING); an UNHEALTHY node is removed from
// it, as RMNodeImpl sends NodeRemovedSchedulerEvent when a node turns unhealthy.
bool inScheduler(RmNodeState s);

// RefreshNodesRequest (`rmadmin -refreshNodes`, AdminService.refreshNodes). NORMAL rereads
// the include and exclude files and decommissions excluded nodes at once; GRACEFUL rereads them
// and puts excluded nodes in DECOMMISSIONING until they drain or `timeoutS` passes (unset:
// yarn.resourcemanager.nodemanager-graceful-decommission-timeout-secs; -1: no timeout);
// FORCEFUL decommissions every DECOMMISSIONING node now.
enum class DecommissionType { NORMAL, GRACEFUL, FORCEFUL };
struct RefreshNodesRequest {
  DecommissionType type = DecommissionType::NORMAL;
  std::optional<int64_t> timeoutS;
};

class RmCore {
 public:
  // `schedulerAddress` is what AMs are told to call (SPINDLE_RM_ADDRESS in their environment).
  // With a `store` (not yet opened): opens it (a corrupt or incompatible store is
  // InvalidArgument naming it, a failing one FailedPrecondition), recovers what it holds and
  // bumps its epoch.
  static Result<std::unique_ptr<RmCore>> create(const RmSettings& settings, Configuration conf,
                                                const Clock& clock, std::string schedulerAddress,
                                                std::unique_ptr<store::StateStore> store = nullptr);
  ~RmCore();

  // --- Durable state (rm_recovery.cc) ---
  // Called when a store write fails or is fenced; the default logs it. The daemon's handler
  // stops the process (the state already answered stays in the store).
  // True once a store write failed or was fenced: what this core did since is not durable, so
  // its answers must not reach clients (RmService answers StandbyException instead). Any thread.
  bool storeFailed() const { return storeFailed_.load(std::memory_order_acquire); }
  void setStoreFailureHandler(std::function<void(const store::StoreStatus&)> h) {
    onStoreFailure_ = std::move(h);
  }
  const store::StateStore* stateStore() const { return store_.get(); }
  // The epoch of this start (0 without a store).
  uint64_t epoch() const { return epoch_; }
  // Apps recovered from the store at create().
  size_t recoveredApps() const { return recoveredApps_; }
  // Within the scheduling wait after a recovery (nothing new is allocated).
  bool inSchedulingWait() const;
  // Writes the apps changed since the last write (each public call does it before returning).
  void flush();

  // --- ResourceTracker (NM -> RM) ---
  // A refused node is an answer (SHUTDOWN with the reason), not an error. `rack` is the node's
  // rack when the caller resolved it already (the daemon does, on its I/O thread, so a topology
  // script never runs on the scheduler thread); without it the rack resolver is asked here.
  protocol::RegisterNodeManagerResponse registerNode(
      const protocol::RegisterNodeManagerRequest& r,
      const std::optional<std::string>& rack = std::nullopt);
  // Errors: a malformed container id. An unknown or LOST node is answered RESYNC.
  Result<protocol::NodeHeartbeatResponse> nodeHeartbeat(const protocol::NodeHeartbeatRequest& r);

  // --- ApplicationMasterProtocol (AM -> RM) ---
  Result<protocol::RegisterApplicationMasterResponse> registerAm(
      const protocol::RegisterApplicationMasterRequest& r);
  Result<protocol::AllocateResponse> allocate(const protocol::AllocateRequest& r);
  Result<protocol::FinishApplicationMasterResponse> finishAm(
      const protocol::FinishApplicationMasterRequest& r);

  // --- Client (REST) ---
  // POST apps/new-application: {"application-id", "maximum-resource-capability"}.
  nlohmann::json newApplication();
  // POST apps: the app id; errors: an id not issued by newApplication, a bad context.
  Result<std::string> submit(const protocol::SubmissionContext& ctx, const std::string& user);
  // PUT apps/{id}/state KILLED: {"state": ...} after the kill (a finished app keeps its state).
  Result<nlohmann::json> killApp(std::string_view appId);

  // --- Access (rm_access.cc) ---
  // With yarn.acl.enable, YARN's checks before a write: each answers the AccessControlException
  // message when `user` may not do it, nullopt when allowed (also for an unknown app or queue:
  // the call itself then answers 404 or 400). Without yarn.acl.enable, always nullopt.
  // Submitting: RMAppManager's check, the queue's acl_submit_applications or
  // acl_administer_queue (or an ancestor's).
  std::optional<std::string> denySubmit(const std::string& user,
                                        const protocol::SubmissionContext& ctx) const;
  // Killing, moving, changing priority (ClientRMService.checkAccess with MODIFY_APP): the app's
  // owner, a yarn.admin.acl administrator, or the app queue's acl_administer_queue.
  std::optional<std::string> denyModify(std::string_view appId, const std::string& user) const;
  // Moving additionally needs submit access to the target (moveApplicationAcrossQueues).
  std::optional<std::string> denyMove(std::string_view appId, const std::string& user,
                                      const std::string& target) const;
  // yarn.admin.acl (AdminService.checkAcls).
  bool isAdmin(const std::string& user) const;

  // --- Reservations (rm_reservation.cc): ClientRMService's reservation verbs over the
  // Driver's ReservationSystem. Without yarn.resourcemanager.reservation-system.enable each is
  // FailedPrecondition "Reservation is not enabled. Please enable & try again"; a refusal is
  // InvalidArgument with YARN's exception and message, the plans unchanged. ---
  // POST reservation/new-reservation: {"reservation-id"}.
  Result<nlohmann::json> newReservation();
  Result<nlohmann::json> submitReservation(const ReservationSubmission& r, const std::string& user);
  Result<nlohmann::json> updateReservation(const ReservationUpdate& r, const std::string& user);
  Result<nlohmann::json> deleteReservation(const std::optional<reservation::ReservationId>& id,
                                           const std::string& user);
  // GET reservation/list: ReservationListInfo of the queue's plan.
  Result<nlohmann::json> listReservations(const ReservationListRequest& r);
  // ClientRMService.checkReservationACLs, with yarn.acl.enable and yarn.acl.reservation-enable:
  // the AccessControlException message when `user` may not do `acl` on the plan of `queue`
  // (an empty queue, for update and delete: the reservation's plan), nullopt when allowed. Allowed:
  // the reservation's owner, a user in the plan queue's acl_<acl> or in its
  // acl_administer_reservations (unset: everyone). Also nullopt for an unknown queue or
  // reservation (the verb answers 400). A malformed ACL value is InvalidArgument naming the key.
  enum class ReservationAcl { kSubmit, kList, kAdminister };
  Result<std::optional<std::string>> denyReservation(
      const std::string& user, ReservationAcl acl, const std::string& queue,
      const std::optional<reservation::ReservationId>& id) const;

  // --- REST views (YARN's shapes; src/dao renders the scheduler, this adds the RM's part) ---
  nlohmann::json clusterInfo();
  nlohmann::json metrics();
  nlohmann::json scheduler();
  // GET apps with YARN's filters (states, state, finalStatus, user, queue, limit,
  // startedTimeBegin/End, finishedTimeBegin/End, applicationTypes, applicationTags).
  Result<nlohmann::json> apps(const std::map<std::string, std::string>& query);
  Result<nlohmann::json> app(std::string_view appId);
  Result<nlohmann::json> appState(std::string_view appId);
  // GET apps/{id}/appattempts: every attempt (YARN's AppAttemptsInfo).
  Result<nlohmann::json> appAttempts(std::string_view appId);
  // GET and PUT apps/{id}/queue (`yarn application -movetoqueue`, Scheduler::moveApp).
  Result<nlohmann::json> appQueue(std::string_view appId);
  Result<nlohmann::json> moveApp(std::string_view appId, const std::string& queue);
  // GET nodes with `states` (default: every state).
  Result<nlohmann::json> nodes(const std::map<std::string, std::string>& query);
  Result<nlohmann::json> node(std::string_view nodeId);
  // GET spindle/apps and spindle/nodes: one page of the filtered list, sorted and searched on
  // each entry's table fields, only the page's entries built in full (webui/list_page.h).
  Result<nlohmann::json> appsPage(const std::map<std::string, std::string>& query);
  Result<nlohmann::json> nodesPage(const std::map<std::string, std::string>& query);
  // GET spindle/node-summary: nodes by state, partition and attribute (webui::nodeSummary).
  nlohmann::json nodeSummary();

  // --- Recent decisions (rm_decisions.cc): the scheduler's decision stream, kept in a ring ---
  // GET spindle/decisions (DecisionStore::query's filters).
  Result<nlohmann::json> decisions(const std::map<std::string, std::string>& query) const;
  // GET spindle/app-decisions/{appid}: the app's recent decisions and why it waits; 404 unknown.
  Result<nlohmann::json> appDecisions(std::string_view appId);

  // --- Node attributes (rm_node_attributes.cc) ---
  // `yarn nodeattributes -add|-replace|-remove` (AdminService.mapAttributesToNodes): by host,
  // for every NodeManager on it and for those that register later. Errors (nothing changes):
  // a bad attribute (naming host and attribute), REMOVE of one the host lacks, an unknown host
  // with failOnUnknownNodes.
  Result<nlohmann::json> mapAttributesToNodes(const protocol::NodesToAttributesMappingRequest& r);
  // yarn.admin.acl's check of an admin call (AdminService.checkAcls): the refusal's message.
  std::optional<std::string> denyAdmin(const std::string& user, std::string_view method) const;
  // GetClusterNodeAttributes, GetAttributesToNodes (`attributes`: comma list of prefix/name or
  // name), GetNodesToAttributes (`nodes`: comma list of hosts) as JSON.
  nlohmann::json clusterNodeAttributes() const;
  Result<nlohmann::json> attributesToNodes(const std::map<std::string, std::string>& q) const;
  Result<nlohmann::json> nodesToAttributes(const std::map<std::string, std::string>& q) const;

  // --- Client operations (rm_client_ops.cc) ---
  // GET apps/{id}/priority and PUT (ClientRMService.updateApplicationPriority through the
  // scheduler's updateAppPriority): {"priority": N}, the effective priority after the change.
  // Errors: unknown app (404), a finished app "Application in <state> state cannot update
  // priority." (400), the queue's priority ACL (400).
  Result<nlohmann::json> appPriority(std::string_view appId);
  Result<nlohmann::json> updateAppPriority(std::string_view appId, int32_t priority);
  // GET apps/{id}/appattempts/{attemptId}: one AppAttemptInfo ({"appAttempt": {...}}).
  Result<nlohmann::json> appAttempt(std::string_view appId, std::string_view attemptId);
  // GET apps/{id}/appattempts/{attemptId}/containers[/{containerId}]: the attempt's live
  // containers as YARN's ContainerInfo ({"containers": {"container": [...]}}, {"container"}).
  Result<nlohmann::json> attemptContainers(std::string_view appId, std::string_view attemptId);
  Result<nlohmann::json> attemptContainer(std::string_view appId, std::string_view attemptId,
                                          std::string_view containerId);
  // GET scheduler/activities[?nodeId=] and scheduler/app-activities/{appId}
  // (rm_activities.cc): the decision records as YARN's ActivitiesInfo / AppActivitiesInfo.
  Result<nlohmann::json> activities(const std::map<std::string, std::string>& query);
  Result<nlohmann::json> appActivities(std::string_view appId,
                                       const std::map<std::string, std::string>& query);
  // Node labels (rm_node_labels.cc): GetClusterNodeLabels, Add/RemoveFromClusterNodeLabels,
  // GetNodeToLabels, GetLabelsToNodes, ReplaceLabelsOnNode.
  nlohmann::json clusterNodeLabels() const;
  Result<nlohmann::json> addClusterNodeLabels(const std::vector<NodeLabel>& labels);
  Result<nlohmann::json> removeClusterNodeLabels(const std::vector<std::string>& labels);
  nlohmann::json nodeToLabels() const;
  Result<nlohmann::json> labelsToNodes(const std::map<std::string, std::string>& query) const;
  // node id (host:port, or a host for every node on it) -> its labels (at most one).
  Result<nlohmann::json> replaceLabelsOnNodes(
      const std::vector<std::pair<std::string, std::vector<std::string>>>& mapping);
  Result<nlohmann::json> nodeLabelsOf(std::string_view nodeId) const;
  // `rmadmin -refreshQueues` with the configuration read from the --conf folder: validated
  // first; on an error nothing changes (Driver::refreshConfiguration).
  Result<nlohmann::json> refreshQueues(const Configuration& conf);
  // The --conf folder the daemon was started with ("" in tests): refreshQueues reads it.
  void setConfDir(std::string dir) { confDir_ = std::move(dir); }
  const std::string& confDir() const { return confDir_; }
  // --- Node lists (rm_nodes_admin.cc) ---
  // yarn.resourcemanager.nodes.include-path / exclude-path, read at create() and on refresh.
  // Errors (nothing changes): a configured file that cannot be read. The answer lists the nodes
  // that changed state: {"refreshNodes": {"decommissioned": [...], "decommissioning": [...],
  // "recommissioned": [...]}}.
  Result<nlohmann::json> refreshNodes(const RefreshNodesRequest& r);

  // --- Time and the launcher ---
  // NM and AM liveness (yarn.nm.liveness-monitor / yarn.am.liveness-monitor expiry) and the
  // scheduler's due monitor tick.
  void tick();
  // The launcher could not start an AM container: its attempt fails with `why`.
  void amLaunchFailed(const std::string& containerId, const std::string& why);
  // AM containers allocated since the last call.
  std::vector<AmLaunch> takeLaunches();

  // Where AMs reach the RM (known once the server has bound its port).
  void setSchedulerAddress(std::string address) { schedulerAddress_ = std::move(address); }
  const Driver& driver() const { return *driver_; }
  const RmSettings& settings() const { return settings_; }
  // Host -> rack (net.topology.*, YARN's RackResolver), cached per host. Thread-safe: the
  // daemon's I/O threads resolve a registering NM's host with it.
  topology::RackResolver& rackResolver() const { return *racks_; }

 private:
  struct RmNode;
  struct RmApp;
  struct FlushOnReturn;
  RmCore(RmSettings settings, Configuration conf, const Clock& clock, std::string schedAddr);
  // Recovery (rm_recovery.cc).
  static Status openStore(store::StateStore& s, Configuration& conf, store::StoreSnapshot& snap,
                          uint64_t& epoch);
  Status recover(const store::StoreSnapshot& snap);
  void recoverApp(const store::StoredApp& stored, std::vector<store::StoredAttempt> attempts);
  // The NM's containers at its registration: recovered into the scheduler, or cleaned up.
  void recoverContainers(RmNode& n, const std::vector<protocol::ContainerStatus>& statuses);
  // After the scheduling wait: recovered attempts whose AM container never came back restart.
  void endSchedulingWait();
  void markDirty(AppId id) {
    if (store_) dirty_.insert(id);
  }
  // A reservation added, changed or gone: the next flush writes or erases its record.
  void markReservationDirty(const std::string& id) {
    if (store_) dirtyReservations_.insert(id);
  }
  // The stored reservations back into their plans, then one plan follower run so their
  // queues exist before the apps submitted to them are recovered (rm_reservation.cc).
  Status recoverReservations(const store::StoreSnapshot& snap);
  // The record of a reservation for the store.
  void putReservation(store::StoreBatch& batch, const std::string& id) const;

  const Scheduler& sched() const { return driver_->scheduler(); }
  void attachDecisionStore();
  RmApp* findApp(AppId id);
  Result<RmApp*> appFor(std::string_view appId);
  Result<RmApp*> attemptFor(const std::string& attemptId, bool allowFinished = false);
  void apply(const Outcome& out);
  // The current attempt failed: a new one, or the app FAILS once am.max-attempts attempts
  // that count (AttemptRecord::countsTowardsMaxAttempts) have failed. `amExitStatus`: the AM
  // container's exit status when its end is the cause.
  void failAttempt(AppId id, const std::string& why,
                   int32_t amExitStatus = ContainerExitStatus::INVALID);
  void addCleanup(NodeId node, const std::string& containerId);
  void loseNode(RmNode& n, TimeMs silentMs);
  // A known node changed state: every live app's next allocate response lists it in
  // updatedNodes with its new state and why (`updateType`: NODE_USABLE, NODE_UNUSABLE,
  // NODE_DECOMMISSIONING).
  void reportNodeUpdate(const RmNode& n, const char* updateType);
  // rm_nodes_admin.cc: host lists, health, decommissioning.
  Status loadHostLists();
  bool hostAllowed(const std::string& nodeId) const;
  // RUNNING <-> UNHEALTHY from the NM's health report.
  void updateHealth(RmNode& n, const protocol::NodeHealthStatus& h);
  // To DECOMMISSIONED: out of the scheduler (its containers end ABORTED), SHUTDOWN next.
  void decommissionNode(RmNode& n, const std::string& why);
  // After a DECOMMISSIONING node's heartbeat: nothing new fits on it; when it has drained
  // (DecommissioningNodesWatcher), it is DECOMMISSIONED and the answer is the SHUTDOWN message.
  std::optional<std::string> afterDecommissioningHeartbeat(RmNode& n);
  void tickDecommissioning(TimeMs now);
  nlohmann::json utilizationJson(const RmNode& n) const;
  nlohmann::json appJson(const Application& a);
  // With the query's deSelects applied.
  nlohmann::json appJson(const Application& a, const std::map<std::string, std::string>& query);
  nlohmann::json nodeJson(const RmNode& n);
  std::string appFinalStatus(const Application& a) const;
  // The apps and nodes that pass the REST filters of the query, in id order.
  Result<std::vector<const Application*>> matchingApps(
      const std::map<std::string, std::string>& query);
  Result<std::vector<const RmNode*>> matchingNodes(const std::map<std::string, std::string>& query);
  // The fields the web UI's tables sort and search on, with the values of the full entry.
  nlohmann::json appField(const Application& a, std::string_view field) const;
  nlohmann::json appRow(const Application& a, const std::vector<std::string>& fields) const;
  nlohmann::json nodeRow(const RmNode& n, const std::vector<std::string>& fields) const;
  nlohmann::json containerInfo(const RmApp& app, const Container& c) const;
  bool appLive(AppId id) const;
  const RmApp* findApp(AppId id) const;
  // The scheduler's queue ACL (or an ancestor's) allows `user`; false for an unknown queue,
  // true under FIFO (its one queue is open to everyone).
  bool queueAllows(const std::string& queue, QueueAcl acl, const std::string& user) const;
  bool queueKnown(const std::string& queue) const;
  // Node attributes (rm_node_attributes.cc).
  Status checkDistributed(const std::vector<protocol::NodeAttributeRecord>& attrs) const;
  // Node labels (rm_node_labels.cc): `labels` for node `n` as ReplaceLabelsOnNode checks them
  // (`name` is how the caller named the node), and the change itself.
  Status checkNodeLabels(const RmNode& n, std::string_view name,
                         const std::vector<std::string>& labels) const;
  Status relabelNode(RmNode& n, const std::vector<std::string>& labels);
  // Labels a NodeManager reports (registration or heartbeat): "" when accepted, else why not.
  std::string nodeReportedLabelsRefusal() const;
  std::string applyReportedLabels(RmNode& n, const std::vector<std::string>& labels);
  std::map<std::string, std::string> registrationAttributes(
      const std::string& host, const std::vector<protocol::NodeAttributeRecord>& distributed) const;
  std::map<std::string, std::map<std::string, placement::NodeAttribute>> hostAttributes() const;
  nlohmann::json nodeAttributesInfo(const RmNode& n) const;

  RmSettings settings_;
  Configuration conf_;
  const Clock& clock_;
  std::string schedulerAddress_;
  TimeMs startedOn_;
  Rng rng_;
  std::unique_ptr<Driver> driver_;
  GroupsProvider groups_;  // for the ACLs
  std::shared_ptr<topology::RackResolver> racks_;
  std::map<std::string, std::unique_ptr<RmNode>, std::less<>> nodes_;
  std::map<AppId, std::unique_ptr<RmApp>> apps_;
  std::vector<AmLaunch> launches_;
  uint32_t nextAppSeq_ = 1;
  std::vector<uint32_t> issued_;  // ids handed out by newApplication, not yet submitted
  // Centralised node attributes by host (by "prefix/name"), also for hosts without a node yet.
  std::map<std::string, std::map<std::string, placement::NodeAttribute>, std::less<>> centralized_;
  std::string confDir_;
  // The decision records the activities endpoints answer from (rm_activities.cc).
  std::unique_ptr<ActivitiesRecorder> activities_;
  // The recent decisions (rm_decisions.cc).
  std::unique_ptr<DecisionStore> decisionStore_;
  std::unique_ptr<DecisionStoreSink> decisionSink_;
  DecisionFanOut decisionSinks_;
  // Hosts (or host:port) of yarn.resourcemanager.nodes.include-path and exclude-path.
  std::vector<std::string> includes_, excludes_;
  // Diagnostics a node reported for a completed container, until apply() hands them on.
  std::map<ContainerId, std::string> nodeDiagnostics_;
  // Durable state.
  std::unique_ptr<store::StateStore> store_;
  std::function<void(const store::StoreStatus&)> onStoreFailure_;
  std::atomic<bool> storeFailed_{false};
  std::set<AppId> dirty_;                    // apps changed since the last flush
  std::set<std::string> dirtyReservations_;  // reservation ids changed since the last flush
  uint64_t epoch_ = 0;
  size_t recoveredApps_ = 0;
  size_t reservationsRecovered_ = 0;
  TimeMs schedulingWaitUntil_ = 0;
  std::optional<TimeMs> recoveredAt_;  // when apps were recovered from the store
  bool waitEnded_ = true;
  bool placingRecovered_ = false;  // apply(): an allocation is a recovered container
  std::set<AppId> awaitingAm_;     // recovered attempts whose AM container is not reported yet
};

}  // namespace spindle::rm
