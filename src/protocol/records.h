// The protocol records of Spindle's daemons, named after YARN's protocol records
// (hadoop-yarn-api yarn_service_protos.proto, yarn_server_common_service_protos.proto):
// ResourceTracker (NM -> RM), ApplicationMasterProtocol (AM -> RM) and
// ContainerManagementProtocol (AM or RM -> NM). codec.h turns them into versioned JSON and back.
//
//   NodeHeartbeatRequest hb;
//   hb.nodeStatus.nodeId = "host1:45454";
//   hb.nodeStatus.responseId = last.responseId;
//   std::string body = toJson(hb).dump();
//   Result<NodeHeartbeatResponse> r = decode<NodeHeartbeatResponse>(responseBody);
//
// Ids travel in YARN's string forms (node_id "host:port", container_<ts>_<app>_<att>_<seq>);
// the receiving daemon parses them against its own tables. Field names are YARN's, in
// camelCase as YARN's JSON renderings write them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spindle::protocol {

// The version in every protocol path (/rpc/v1/...): a breaking change of any record below
// becomes /rpc/v2 and both are served while peers move.
inline constexpr int kProtocolVersion = 1;

// Resource: memory in MB, virtual cores.
struct ResourceRecord {
  int64_t memory = 0;
  int64_t vCores = 0;
  bool operator==(const ResourceRecord&) const = default;
};

// NodeAction: what the RM tells a node manager to do next.
enum class NodeAction { NORMAL, RESYNC, SHUTDOWN };
const char* toString(NodeAction a);

// ContainerState as the NM reports it (YARN's ContainerState: NEW, RUNNING, COMPLETE).
enum class ContainerState { NEW, RUNNING, COMPLETE };
const char* toString(ContainerState s);

// ContainerExitStatus.INVALID: no exit status yet.
inline constexpr int32_t kInvalidExitStatus = -1000;

struct ContainerStatus {
  std::string containerId;
  ContainerState state = ContainerState::RUNNING;
  int32_t exitStatus = kInvalidExitStatus;
  std::string diagnostics;
  // NMContainerStatus.allocatedResource: what the container was started with, sent when the
  // NM re-registers so a restarted RM can recover it (absent in heartbeats).
  std::optional<ResourceRecord> allocatedResource{};
};

// ResourceUtilization: memory in MB, CPU in vcores used (a fraction of the node's vcores).
struct ResourceUtilization {
  int64_t pmem = 0;
  int64_t vmem = 0;
  double cpu = 0;
};

struct NodeHealthStatus {
  bool isNodeHealthy = true;
  std::string healthReport;
  int64_t lastHealthReportTime = 0;
};

// NodeAttribute: attributeKey (attributePrefix + attributeName) identifies it; attributeType is
// STRING, the one type YARN has.
struct NodeAttributeRecord {
  std::string attributePrefix;
  std::string attributeName;
  std::string attributeType = "STRING";
  std::string attributeValue;
  bool operator==(const NodeAttributeRecord&) const = default;
};

// --- ResourceTracker ------------------------------------------------------------------------

struct RegisterNodeManagerRequest {
  std::string nodeId;  // host:port
  int32_t httpPort = 0;
  // Spindle addition: the host the RM reaches httpPort at, for simulated NodeManagers whose
  // host names do not resolve (`spindle sls`); "" = the nodeId's host, YARN's only rule.
  std::string httpHost;
  ResourceRecord resource;
  std::string nmVersion;
  std::vector<std::string> nodeLabels;
  // The containers the NM still runs (a re-registration after RESYNC).
  std::vector<ContainerStatus> containerStatuses;
  // spindle.nodemanager.registration.secret of the NM's configuration (where YARN relies on
  // Kerberos); empty when it has none.
  std::string registrationSecret;
  // The node's distributed attributes (prefix nm.yarn.io) from its provider.
  std::vector<NodeAttributeRecord> nodeAttributes;
};

struct RegisterNodeManagerResponse {
  NodeAction nodeAction = NodeAction::NORMAL;
  int64_t rmIdentifier = 0;
  std::string diagnosticsMessage;
  std::string rmVersion;
  ResourceRecord resource;  // the resource the RM accepted for the node
  // false when the RM refused the reported attributes (diagnosticsMessage says why); the node
  // is registered without them.
  bool areNodeAttributesAcceptedByRM = true;
  // false when the RM refused the reported labels (diagnosticsMessage says why): outside
  // distributed node-label configuration, or a label the cluster does not know.
  bool areNodeLabelsAcceptedByRM = true;
};

struct NodeStatus {
  std::string nodeId;
  int32_t responseId = 0;
  std::vector<ContainerStatus> containersStatuses;
  NodeHealthStatus nodeHealthStatus;
  std::vector<std::string> keepAliveApplications;
  // Measured by the NM's ContainersMonitor (absent: not measured yet).
  std::optional<ResourceUtilization> containersUtilization;
  std::optional<ResourceUtilization> nodeUtilization;
};

struct NodeHeartbeatRequest {
  NodeStatus nodeStatus;
  // The node's distributed attributes when they changed since the last report (absent:
  // unchanged; an empty list: the node has none any more).
  std::optional<std::vector<NodeAttributeRecord>> nodeAttributes;
  // The node's labels (its partition) when they changed or the NM's resync interval passed
  // (YARN's NodeHeartbeatRequest.nodeLabels; absent: unchanged; empty: no label).
  std::optional<std::vector<std::string>> nodeLabels;
};

struct NodeHeartbeatResponse {
  int32_t responseId = 0;
  NodeAction nodeAction = NodeAction::NORMAL;
  std::vector<std::string> containersToCleanup;
  std::vector<std::string> applicationsToCleanup;
  int64_t nextHeartBeatInterval = 1000;
  std::string diagnosticsMessage;
  // false when the heartbeat's nodeAttributes were refused (diagnosticsMessage says why).
  bool areNodeAttributesAcceptedByRM = true;
  // false when the heartbeat's nodeLabels were refused (diagnosticsMessage says why).
  bool areNodeLabelsAcceptedByRM = true;
};

// --- ApplicationMasterProtocol ----------------------------------------------------------------
// Every request names its attempt in `applicationAttemptId`, where YARN reads the caller's
// AMRMToken.

// A placement constraint in its PlacementSpec expression form ("notin,node,zk",
// "cardinality,rack,hbase,0,2", "rm.yarn.io/java=1.8"; docs/placement-constraints.md).
// RegisterApplicationMasterRequest.placementConstraints maps a set of source allocation tags
// to one (YARN's Map<Set<String>, PlacementConstraint>).
struct PlacementConstraintEntry {
  std::vector<std::string> allocationTags;
  std::string placementConstraint;
};

struct RegisterApplicationMasterRequest {
  std::string applicationAttemptId;
  std::string host;
  int32_t rpcPort = -1;
  std::string trackingUrl;
  std::vector<PlacementConstraintEntry> placementConstraints;
};

struct Container {
  std::string id;
  std::string nodeId;
  std::string nodeHttpAddress;
  ResourceRecord resource;
  int32_t priority = 0;
  int64_t allocationRequestId = 0;
};

struct RegisterApplicationMasterResponse {
  ResourceRecord maximumCapability;
  std::string queue;
  std::vector<Container> containersFromPreviousAttempts;
};

struct ResourceRequest {
  int32_t priority = 0;
  std::string resourceName = "*";
  ResourceRecord capability;
  int32_t numContainers = 0;
  bool relaxLocality = true;
  std::string nodeLabelExpression;
  int64_t allocationRequestId = 0;
};

struct ResourceBlacklistRequest {
  std::vector<std::string> blacklistAdditions;
  std::vector<std::string> blacklistRemovals;
};

// ResourceSizing: numAllocations containers of `resources` each.
struct ResourceSizingRecord {
  int32_t numAllocations = 0;
  ResourceRecord resources;
};

// SchedulingRequest: an ask with allocation tags and an optional placement constraint
// (its PlacementSpec expression form, as PlacementConstraintEntry).
struct SchedulingRequestRecord {
  int64_t allocationRequestId = 0;
  int32_t priority = 0;
  std::string executionType = "GUARANTEED";  // ExecutionTypeRequest.executionType
  bool enforceExecutionType = false;
  std::vector<std::string> allocationTags;
  std::optional<ResourceSizingRecord> resourceSizing;
  std::string placementConstraint;  // "" = none
};

// RejectedSchedulingRequest: the request (numAllocations = what was rejected) and the
// RejectionReason (COULD_NOT_PLACE_ON_NODE, COULD_NOT_SCHEDULE_ON_NODE); `message` is
// Spindle's detail.
struct RejectedSchedulingRequestRecord {
  std::string reason;
  SchedulingRequestRecord request;
  std::string message;
};

struct AllocateRequest {
  std::string applicationAttemptId;
  // Must equal the last response's responseId (0 on the first call); the previous id repeats
  // the last call, which the RM answers again from its copy without applying it twice.
  int32_t responseId = 0;
  double progress = 0;
  std::vector<ResourceRequest> ask;  // absolute: replaces the ask at (priority, name, id)
  std::vector<std::string> release;
  ResourceBlacklistRequest blacklistRequest;
  std::vector<SchedulingRequestRecord> schedulingRequests;
};

// AMCommand: the RM asks the AM to resynchronise or to shut down.
enum class AMCommand { AM_RESYNC, AM_SHUTDOWN };
const char* toString(AMCommand c);

// NodeReport, as an AllocateResponse's updatedNodes carries it: a node whose state changed
// since the AM's last call (became unusable: LOST, UNHEALTHY, DECOMMISSIONING, ...).
struct NodeReport {
  std::string nodeId;
  std::string nodeState;  // NodeState: RUNNING, UNHEALTHY, LOST, DECOMMISSIONING, ...
  std::string httpAddress;
  std::string rackName = "/default-rack";
  ResourceRecord used;
  ResourceRecord capability;
  int32_t numContainers = 0;
  std::string healthReport;
  int64_t lastHealthReportTime = 0;
  std::vector<std::string> nodeLabels;
  // Why an AM hears of the node (NodeUpdateType in an AllocateResponse's updatedNodes):
  // NODE_USABLE, NODE_UNUSABLE or NODE_DECOMMISSIONING; empty in other reports.
  std::string nodeUpdateType;
  // A DECOMMISSIONING node's seconds left before it is decommissioned anyway (absent: none).
  std::optional<int32_t> decommissioningTimeout;
};

struct AllocateResponse {
  std::optional<AMCommand> amCommand;
  int32_t responseId = 0;
  std::vector<Container> allocatedContainers;
  std::vector<ContainerStatus> completedContainerStatuses;
  ResourceRecord limit;  // headroom
  int32_t numClusterNodes = 0;
  // PreemptionMessage.strictContract's containers (they will be taken).
  std::vector<std::string> preemptContainers;
  std::vector<RejectedSchedulingRequestRecord> rejectedSchedulingRequests;
  std::vector<NodeReport> updatedNodes;
};

// FinalApplicationStatus.
enum class FinalApplicationStatus { UNDEFINED, SUCCEEDED, FAILED, KILLED };
const char* toString(FinalApplicationStatus s);

struct FinishApplicationMasterRequest {
  std::string applicationAttemptId;
  FinalApplicationStatus finalApplicationStatus = FinalApplicationStatus::UNDEFINED;
  std::string diagnostics;
  std::string trackingUrl;
};

struct FinishApplicationMasterResponse {
  bool isUnregistered = false;
};

// --- ResourceManagerAdministrationProtocol (node attributes; served as REST) ----------------

// NodeToAttributes: a host (every NodeManager on it) and attributes.
struct NodeToAttributes {
  std::string node;
  std::vector<NodeAttributeRecord> nodeAttributes;
};

// NodesToAttributesMappingRequest (`yarn nodeattributes -add|-replace|-remove`): operation is
// AttributeMappingOperationType ADD, REPLACE or REMOVE.
struct NodesToAttributesMappingRequest {
  std::string operation;
  std::vector<NodeToAttributes> nodesToAttributes;
  bool failOnUnknownNodes = false;
};

// --- ContainerManagementProtocol ----------------------------------------------------------------

struct ContainerLaunchContext {
  std::vector<std::string> commands;  // joined with spaces and run by /bin/sh -c
  std::map<std::string, std::string> environment;
};

// YARN's StartContainerRequest carries the container's id and resource inside its container
// token; here they are plain fields.
struct StartContainerRequest {
  std::string containerId;
  ResourceRecord resource;
  ContainerLaunchContext containerLaunchContext;
};

struct StartContainersRequest {
  std::vector<StartContainerRequest> startContainerRequest;
};

struct FailedContainer {
  std::string containerId;
  std::string message;
};

struct StartContainersResponse {
  std::vector<std::string> succeededRequests;
  std::vector<FailedContainer> failedRequests;
};

struct StopContainersRequest {
  std::vector<std::string> containerIds;
};

struct StopContainersResponse {
  std::vector<std::string> succeededRequests;
  std::vector<FailedContainer> failedRequests;
};

}  // namespace spindle::protocol
