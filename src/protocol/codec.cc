#include "protocol/codec.h"

#include <array>

namespace spindle::protocol {

using nlohmann::json;

namespace {

template <typename E, size_t N>
E readEnum(JsonFields& f, std::string_view key, const std::array<E, N>& values, E def,
           bool required) {
  if (!required && !f.has(key)) return def;
  const std::string s = f.str(key);
  if (!f.ok()) return def;
  std::string known;
  for (E v : values) {
    if (s == toString(v)) return v;
    known += (known.empty() ? "" : ", ") + std::string(toString(v));
  }
  f.fail(key, "unknown value '" + s + "' (one of " + known + ")");
  return def;
}

constexpr std::array kNodeActions{NodeAction::NORMAL, NodeAction::RESYNC, NodeAction::SHUTDOWN};
constexpr std::array kContainerStates{ContainerState::NEW, ContainerState::RUNNING,
                                      ContainerState::COMPLETE};
constexpr std::array kAmCommands{AMCommand::AM_RESYNC, AMCommand::AM_SHUTDOWN};
constexpr std::array kFinalStatuses{FinalApplicationStatus::UNDEFINED,
                                    FinalApplicationStatus::SUCCEEDED,
                                    FinalApplicationStatus::FAILED, FinalApplicationStatus::KILLED};

template <typename T>
json list(const std::vector<T>& v) {
  json a = json::array();
  for (const T& x : v) a.push_back(toJson(x));
  return a;
}

template <typename T>
std::vector<T> readList(JsonFields& f, std::string_view key) {
  std::vector<T> out;
  for (JsonFields& e : f.objects(key)) {
    out.emplace_back();
    read(e, out.back());
  }
  return out;
}

void nonNegative(JsonFields& f, std::string_view key, int64_t v) {
  if (v < 0) f.fail(key, "must not be negative, got " + std::to_string(v));
}

void nonEmpty(JsonFields& f, std::string_view key, const std::string& v) {
  if (f.ok() && v.empty()) f.fail(key, "must not be empty");
}

}  // namespace

const char* toString(NodeAction a) {
  switch (a) {
    case NodeAction::NORMAL: return "NORMAL";
    case NodeAction::RESYNC: return "RESYNC";
    case NodeAction::SHUTDOWN: return "SHUTDOWN";
  }
  return "?";
}

const char* toString(ContainerState s) {
  switch (s) {
    case ContainerState::NEW: return "NEW";
    case ContainerState::RUNNING: return "RUNNING";
    case ContainerState::COMPLETE: return "COMPLETE";
  }
  return "?";
}

const char* toString(AMCommand c) {
  switch (c) {
    case AMCommand::AM_RESYNC: return "AM_RESYNC";
    case AMCommand::AM_SHUTDOWN: return "AM_SHUTDOWN";
  }
  return "?";
}

const char* toString(FinalApplicationStatus s) {
  switch (s) {
    case FinalApplicationStatus::UNDEFINED: return "UNDEFINED";
    case FinalApplicationStatus::SUCCEEDED: return "SUCCEEDED";
    case FinalApplicationStatus::FAILED: return "FAILED";
    case FinalApplicationStatus::KILLED: return "KILLED";
  }
  return "?";
}

json toJson(const FailedContainer& c) {
  return {{"containerId", c.containerId}, {"message", c.message}};
}
void read(JsonFields& f, FailedContainer& c) {
  c.containerId = f.str("containerId");
  c.message = f.str("message", "");
}

// --- Shared records ---------------------------------------------------------------------------

json toJson(const ResourceRecord& r) { return {{"memory", r.memory}, {"vCores", r.vCores}}; }
void read(JsonFields& f, ResourceRecord& r) {
  r.memory = f.int64("memory");
  r.vCores = f.int64("vCores");
  nonNegative(f, "memory", r.memory);
  nonNegative(f, "vCores", r.vCores);
}

json toJson(const ContainerStatus& s) {
  json j = {{"containerId", s.containerId},
            {"state", toString(s.state)},
            {"exitStatus", s.exitStatus},
            {"diagnostics", s.diagnostics}};
  if (s.allocatedResource) j["allocatedResource"] = toJson(*s.allocatedResource);
  return j;
}
void read(JsonFields& f, ContainerStatus& s) {
  s.containerId = f.str("containerId");
  nonEmpty(f, "containerId", s.containerId);
  s.state = readEnum(f, "state", kContainerStates, ContainerState::RUNNING, true);
  s.exitStatus = f.int32("exitStatus", kInvalidExitStatus);
  s.diagnostics = f.str("diagnostics", "");
  if (auto r = f.optObject("allocatedResource")) {
    s.allocatedResource.emplace();
    read(*r, *s.allocatedResource);
  }
  if (f.ok() && s.state == ContainerState::COMPLETE && s.exitStatus == kInvalidExitStatus) {
    f.fail("exitStatus", "a COMPLETE container needs its exit status");
  }
}

json toJson(const Container& c) {
  return {{"id", c.id},
          {"nodeId", c.nodeId},
          {"nodeHttpAddress", c.nodeHttpAddress},
          {"resource", toJson(c.resource)},
          {"priority", c.priority},
          {"allocationRequestId", c.allocationRequestId}};
}
void read(JsonFields& f, Container& c) {
  c.id = f.str("id");
  c.nodeId = f.str("nodeId");
  c.nodeHttpAddress = f.str("nodeHttpAddress", "");
  JsonFields r = f.object("resource");
  read(r, c.resource);
  c.priority = f.int32("priority", 0);
  c.allocationRequestId = f.int64("allocationRequestId", 0);
}

json toJson(const NodeAttributeRecord& a) {
  return {{"attributeKey",
           {{"attributePrefix", a.attributePrefix}, {"attributeName", a.attributeName}}},
          {"attributeType", a.attributeType},
          {"attributeValue", a.attributeValue}};
}
void read(JsonFields& f, NodeAttributeRecord& a) {
  JsonFields k = f.object("attributeKey");
  a.attributePrefix = k.str("attributePrefix");
  a.attributeName = k.str("attributeName");
  nonEmpty(k, "attributeName", a.attributeName);
  a.attributeType = f.str("attributeType", "STRING");
  if (f.ok() && a.attributeType != "STRING") {
    f.fail("attributeType", "unknown value '" + a.attributeType + "' (one of STRING)");
  }
  a.attributeValue = f.str("attributeValue", "");
}

namespace {

std::optional<std::vector<NodeAttributeRecord>> readAttributes(JsonFields& f,
                                                               std::string_view key) {
  if (!f.has(key)) return std::nullopt;
  return readList<NodeAttributeRecord>(f, key);
}

}  // namespace

// --- ResourceTracker ------------------------------------------------------------------------

json toJson(const RegisterNodeManagerRequest& r) {
  return {{"nodeId", r.nodeId},
          {"httpPort", r.httpPort},
          {"httpHost", r.httpHost},
          {"resource", toJson(r.resource)},
          {"nmVersion", r.nmVersion},
          {"nodeLabels", r.nodeLabels},
          {"containerStatuses", list(r.containerStatuses)},
          {"registrationSecret", r.registrationSecret},
          {"nodeAttributes", list(r.nodeAttributes)}};
}
void read(JsonFields& f, RegisterNodeManagerRequest& r) {
  r.nodeId = f.str("nodeId");
  if (f.ok()) {
    const size_t colon = r.nodeId.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == r.nodeId.size()) {
      f.fail("nodeId", "expected host:port, got '" + r.nodeId + "'");
    }
  }
  r.httpPort = f.int32("httpPort");
  if (f.ok() && (r.httpPort <= 0 || r.httpPort > 65535)) {
    f.fail("httpPort", "not a port number: " + std::to_string(r.httpPort));
  }
  r.httpHost = f.str("httpHost", "");
  JsonFields res = f.object("resource");
  read(res, r.resource);
  r.nmVersion = f.str("nmVersion", "");
  r.nodeLabels = f.strings("nodeLabels");
  r.containerStatuses = readList<ContainerStatus>(f, "containerStatuses");
  r.registrationSecret = f.str("registrationSecret", "");
  r.nodeAttributes = readList<NodeAttributeRecord>(f, "nodeAttributes");
}

json toJson(const RegisterNodeManagerResponse& r) {
  return {{"nodeAction", toString(r.nodeAction)},
          {"rmIdentifier", r.rmIdentifier},
          {"diagnosticsMessage", r.diagnosticsMessage},
          {"rmVersion", r.rmVersion},
          {"resource", toJson(r.resource)},
          {"areNodeAttributesAcceptedByRM", r.areNodeAttributesAcceptedByRM},
          {"areNodeLabelsAcceptedByRM", r.areNodeLabelsAcceptedByRM}};
}
void read(JsonFields& f, RegisterNodeManagerResponse& r) {
  r.nodeAction = readEnum(f, "nodeAction", kNodeActions, NodeAction::NORMAL, true);
  r.rmIdentifier = f.int64("rmIdentifier", 0);
  r.diagnosticsMessage = f.str("diagnosticsMessage", "");
  r.rmVersion = f.str("rmVersion", "");
  if (auto res = f.optObject("resource")) read(*res, r.resource);
  r.areNodeAttributesAcceptedByRM = f.boolean("areNodeAttributesAcceptedByRM", true);
  r.areNodeLabelsAcceptedByRM = f.boolean("areNodeLabelsAcceptedByRM", true);
}

json toJson(const NodeHeartbeatRequest& r) {
  const NodeStatus& s = r.nodeStatus;
  json j = {{"nodeStatus",
             {{"nodeId", s.nodeId},
              {"responseId", s.responseId},
              {"containersStatuses", list(s.containersStatuses)},
              {"nodeHealthStatus",
               {{"isNodeHealthy", s.nodeHealthStatus.isNodeHealthy},
                {"healthReport", s.nodeHealthStatus.healthReport},
                {"lastHealthReportTime", s.nodeHealthStatus.lastHealthReportTime}}},
              {"keepAliveApplications", s.keepAliveApplications}}}};
  if (r.nodeAttributes) j["nodeAttributes"] = list(*r.nodeAttributes);
  if (r.nodeLabels) j["nodeLabels"] = *r.nodeLabels;
  auto util = [](const ResourceUtilization& u) {
    return json{{"pmem", u.pmem}, {"vmem", u.vmem}, {"cpu", u.cpu}};
  };
  if (s.containersUtilization)
    j["nodeStatus"]["containersUtilization"] = util(*s.containersUtilization);
  if (s.nodeUtilization) j["nodeStatus"]["nodeUtilization"] = util(*s.nodeUtilization);
  return j;
}
void read(JsonFields& f, NodeHeartbeatRequest& r) {
  JsonFields s = f.object("nodeStatus");
  NodeStatus& n = r.nodeStatus;
  n.nodeId = s.str("nodeId");
  nonEmpty(s, "nodeId", n.nodeId);
  n.responseId = s.int32("responseId");
  n.containersStatuses = readList<ContainerStatus>(s, "containersStatuses");
  if (auto h = s.optObject("nodeHealthStatus")) {
    n.nodeHealthStatus.isNodeHealthy = h->boolean("isNodeHealthy", true);
    n.nodeHealthStatus.healthReport = h->str("healthReport", "");
    n.nodeHealthStatus.lastHealthReportTime = h->int64("lastHealthReportTime", 0);
  }
  n.keepAliveApplications = s.strings("keepAliveApplications");
  for (const char* key : {"containersUtilization", "nodeUtilization"}) {
    auto u = s.optObject(key);
    if (!u) continue;
    ResourceUtilization v;
    v.pmem = u->int64("pmem", 0);
    v.vmem = u->int64("vmem", 0);
    v.cpu = u->number("cpu", 0);
    (std::string_view(key) == "nodeUtilization" ? n.nodeUtilization : n.containersUtilization) = v;
  }
  r.nodeAttributes = readAttributes(f, "nodeAttributes");
  if (f.has("nodeLabels")) r.nodeLabels = f.strings("nodeLabels");
}

json toJson(const NodeHeartbeatResponse& r) {
  return {{"responseId", r.responseId},
          {"nodeAction", toString(r.nodeAction)},
          {"containersToCleanup", r.containersToCleanup},
          {"applicationsToCleanup", r.applicationsToCleanup},
          {"nextHeartBeatInterval", r.nextHeartBeatInterval},
          {"diagnosticsMessage", r.diagnosticsMessage},
          {"areNodeAttributesAcceptedByRM", r.areNodeAttributesAcceptedByRM},
          {"areNodeLabelsAcceptedByRM", r.areNodeLabelsAcceptedByRM}};
}
void read(JsonFields& f, NodeHeartbeatResponse& r) {
  r.responseId = f.int32("responseId");
  r.nodeAction = readEnum(f, "nodeAction", kNodeActions, NodeAction::NORMAL, true);
  r.containersToCleanup = f.strings("containersToCleanup");
  r.applicationsToCleanup = f.strings("applicationsToCleanup");
  r.nextHeartBeatInterval = f.int64("nextHeartBeatInterval", 1000);
  if (f.ok() && r.nextHeartBeatInterval <= 0) {
    f.fail("nextHeartBeatInterval", "must be positive");
  }
  r.diagnosticsMessage = f.str("diagnosticsMessage", "");
  r.areNodeAttributesAcceptedByRM = f.boolean("areNodeAttributesAcceptedByRM", true);
  r.areNodeLabelsAcceptedByRM = f.boolean("areNodeLabelsAcceptedByRM", true);
}

// --- ApplicationMasterProtocol ----------------------------------------------------------------

json toJson(const PlacementConstraintEntry& e) {
  return {{"allocationTags", e.allocationTags}, {"placementConstraint", e.placementConstraint}};
}
void read(JsonFields& f, PlacementConstraintEntry& e) {
  e.allocationTags = f.strings("allocationTags");
  e.placementConstraint = f.str("placementConstraint");
  nonEmpty(f, "placementConstraint", e.placementConstraint);
}

json toJson(const SchedulingRequestRecord& r) {
  json j = {
      {"allocationRequestId", r.allocationRequestId},
      {"priority", r.priority},
      {"executionType",
       {{"executionType", r.executionType}, {"enforceExecutionType", r.enforceExecutionType}}},
      {"allocationTags", r.allocationTags}};
  if (r.resourceSizing) {
    j["resourceSizing"] = {{"numAllocations", r.resourceSizing->numAllocations},
                           {"resources", toJson(r.resourceSizing->resources)}};
  }
  if (!r.placementConstraint.empty()) j["placementConstraint"] = r.placementConstraint;
  return j;
}
void read(JsonFields& f, SchedulingRequestRecord& r) {
  r.allocationRequestId = f.int64("allocationRequestId", 0);
  r.priority = f.int32("priority", 0);
  if (auto e = f.optObject("executionType")) {
    r.executionType = e->str("executionType", "GUARANTEED");
    if (e->ok() && r.executionType != "GUARANTEED" && r.executionType != "OPPORTUNISTIC") {
      e->fail("executionType",
              "unknown value '" + r.executionType + "' (one of GUARANTEED, OPPORTUNISTIC)");
    }
    r.enforceExecutionType = e->boolean("enforceExecutionType", false);
  }
  r.allocationTags = f.strings("allocationTags");
  if (auto s = f.optObject("resourceSizing")) {
    ResourceSizingRecord sizing;
    sizing.numAllocations = s->int32("numAllocations");
    nonNegative(*s, "numAllocations", sizing.numAllocations);
    JsonFields res = s->object("resources");
    read(res, sizing.resources);
    r.resourceSizing = sizing;
  }
  r.placementConstraint = f.str("placementConstraint", "");
}

json toJson(const RejectedSchedulingRequestRecord& r) {
  return {{"reason", r.reason}, {"request", toJson(r.request)}, {"message", r.message}};
}
void read(JsonFields& f, RejectedSchedulingRequestRecord& r) {
  r.reason = f.str("reason");
  JsonFields q = f.object("request");
  read(q, r.request);
  r.message = f.str("message", "");
}

json toJson(const RegisterApplicationMasterRequest& r) {
  return {{"applicationAttemptId", r.applicationAttemptId},
          {"host", r.host},
          {"rpcPort", r.rpcPort},
          {"trackingUrl", r.trackingUrl},
          {"placementConstraints", list(r.placementConstraints)}};
}
void read(JsonFields& f, RegisterApplicationMasterRequest& r) {
  r.applicationAttemptId = f.str("applicationAttemptId");
  nonEmpty(f, "applicationAttemptId", r.applicationAttemptId);
  r.host = f.str("host", "");
  r.rpcPort = f.int32("rpcPort", -1);
  r.trackingUrl = f.str("trackingUrl", "");
  r.placementConstraints = readList<PlacementConstraintEntry>(f, "placementConstraints");
}

json toJson(const RegisterApplicationMasterResponse& r) {
  return {{"maximumCapability", toJson(r.maximumCapability)},
          {"queue", r.queue},
          {"containersFromPreviousAttempts", list(r.containersFromPreviousAttempts)}};
}
void read(JsonFields& f, RegisterApplicationMasterResponse& r) {
  JsonFields m = f.object("maximumCapability");
  read(m, r.maximumCapability);
  r.queue = f.str("queue", "");
  r.containersFromPreviousAttempts = readList<Container>(f, "containersFromPreviousAttempts");
}

json toJson(const ResourceRequest& r) {
  return {{"priority", r.priority},
          {"resourceName", r.resourceName},
          {"capability", toJson(r.capability)},
          {"numContainers", r.numContainers},
          {"relaxLocality", r.relaxLocality},
          {"nodeLabelExpression", r.nodeLabelExpression},
          {"allocationRequestId", r.allocationRequestId}};
}
void read(JsonFields& f, ResourceRequest& r) {
  r.priority = f.int32("priority");
  r.resourceName = f.str("resourceName", "*");
  nonEmpty(f, "resourceName", r.resourceName);
  JsonFields c = f.object("capability");
  read(c, r.capability);
  r.numContainers = f.int32("numContainers");
  nonNegative(f, "numContainers", r.numContainers);
  r.relaxLocality = f.boolean("relaxLocality", true);
  r.nodeLabelExpression = f.str("nodeLabelExpression", "");
  r.allocationRequestId = f.int64("allocationRequestId", 0);
}

json toJson(const AllocateRequest& r) {
  return {{"applicationAttemptId", r.applicationAttemptId},
          {"responseId", r.responseId},
          {"progress", r.progress},
          {"ask", list(r.ask)},
          {"release", r.release},
          {"blacklistRequest",
           {{"blacklistAdditions", r.blacklistRequest.blacklistAdditions},
            {"blacklistRemovals", r.blacklistRequest.blacklistRemovals}}},
          {"schedulingRequests", list(r.schedulingRequests)}};
}
void read(JsonFields& f, AllocateRequest& r) {
  r.applicationAttemptId = f.str("applicationAttemptId");
  nonEmpty(f, "applicationAttemptId", r.applicationAttemptId);
  r.responseId = f.int32("responseId");
  r.progress = f.number("progress", 0);
  if (f.ok() && !(r.progress >= 0 && r.progress <= 1)) {
    f.fail("progress", "must be between 0 and 1, got " + std::to_string(r.progress));
  }
  r.ask = readList<ResourceRequest>(f, "ask");
  r.release = f.strings("release");
  if (auto b = f.optObject("blacklistRequest")) {
    r.blacklistRequest.blacklistAdditions = b->strings("blacklistAdditions");
    r.blacklistRequest.blacklistRemovals = b->strings("blacklistRemovals");
  }
  r.schedulingRequests = readList<SchedulingRequestRecord>(f, "schedulingRequests");
}

json toJson(const NodeReport& n) {
  json j = {{"nodeId", n.nodeId},
            {"nodeState", n.nodeState},
            {"httpAddress", n.httpAddress},
            {"rackName", n.rackName},
            {"used", toJson(n.used)},
            {"capability", toJson(n.capability)},
            {"numContainers", n.numContainers},
            {"healthReport", n.healthReport},
            {"lastHealthReportTime", n.lastHealthReportTime},
            {"nodeLabels", n.nodeLabels}};
  if (!n.nodeUpdateType.empty()) j["nodeUpdateType"] = n.nodeUpdateType;
  if (n.decommissioningTimeout) j["decommissioningTimeout"] = *n.decommissioningTimeout;
  return j;
}
void read(JsonFields& f, NodeReport& n) {
  n.nodeId = f.str("nodeId");
  nonEmpty(f, "nodeId", n.nodeId);
  n.nodeState = f.str("nodeState");
  n.httpAddress = f.str("httpAddress", "");
  n.rackName = f.str("rackName", "/default-rack");
  if (auto u = f.optObject("used")) read(*u, n.used);
  if (auto c = f.optObject("capability")) read(*c, n.capability);
  n.numContainers = f.int32("numContainers", 0);
  n.healthReport = f.str("healthReport", "");
  n.lastHealthReportTime = f.int64("lastHealthReportTime", 0);
  n.nodeLabels = f.strings("nodeLabels");
  n.nodeUpdateType = f.str("nodeUpdateType", "");
  if (f.has("decommissioningTimeout")) n.decommissioningTimeout = f.int32("decommissioningTimeout");
}

json toJson(const AllocateResponse& r) {
  json j = {{"responseId", r.responseId},
            {"allocatedContainers", list(r.allocatedContainers)},
            {"completedContainerStatuses", list(r.completedContainerStatuses)},
            {"limit", toJson(r.limit)},
            {"numClusterNodes", r.numClusterNodes},
            {"preempt", {{"strictContract", {{"container", r.preemptContainers}}}}},
            {"rejectedSchedulingRequests", list(r.rejectedSchedulingRequests)},
            {"updatedNodes", list(r.updatedNodes)}};
  if (r.amCommand) j["amCommand"] = toString(*r.amCommand);
  return j;
}
void read(JsonFields& f, AllocateResponse& r) {
  if (f.has("amCommand")) {
    r.amCommand = readEnum(f, "amCommand", kAmCommands, AMCommand::AM_RESYNC, true);
  }
  r.responseId = f.int32("responseId");
  r.allocatedContainers = readList<Container>(f, "allocatedContainers");
  r.completedContainerStatuses = readList<ContainerStatus>(f, "completedContainerStatuses");
  if (auto l = f.optObject("limit")) read(*l, r.limit);
  r.numClusterNodes = f.int32("numClusterNodes", 0);
  if (auto p = f.optObject("preempt")) {
    if (auto s = p->optObject("strictContract")) r.preemptContainers = s->strings("container");
  }
  r.rejectedSchedulingRequests =
      readList<RejectedSchedulingRequestRecord>(f, "rejectedSchedulingRequests");
  r.updatedNodes = readList<NodeReport>(f, "updatedNodes");
}

json toJson(const FinishApplicationMasterRequest& r) {
  return {{"applicationAttemptId", r.applicationAttemptId},
          {"finalApplicationStatus", toString(r.finalApplicationStatus)},
          {"diagnostics", r.diagnostics},
          {"trackingUrl", r.trackingUrl}};
}
void read(JsonFields& f, FinishApplicationMasterRequest& r) {
  r.applicationAttemptId = f.str("applicationAttemptId");
  nonEmpty(f, "applicationAttemptId", r.applicationAttemptId);
  r.finalApplicationStatus = readEnum(f, "finalApplicationStatus", kFinalStatuses,
                                      FinalApplicationStatus::UNDEFINED, true);
  r.diagnostics = f.str("diagnostics", "");
  r.trackingUrl = f.str("trackingUrl", "");
}

json toJson(const FinishApplicationMasterResponse& r) {
  return {{"isUnregistered", r.isUnregistered}};
}
void read(JsonFields& f, FinishApplicationMasterResponse& r) {
  r.isUnregistered = f.boolean("isUnregistered", false);
}

// --- ResourceManagerAdministrationProtocol ---------------------------------------------------

json toJson(const NodeToAttributes& n) {
  return {{"node", n.node}, {"nodeAttributes", list(n.nodeAttributes)}};
}
void read(JsonFields& f, NodeToAttributes& n) {
  n.node = f.str("node");
  nonEmpty(f, "node", n.node);
  n.nodeAttributes = readList<NodeAttributeRecord>(f, "nodeAttributes");
}

json toJson(const NodesToAttributesMappingRequest& r) {
  return {{"operation", r.operation},
          {"nodesToAttributes", list(r.nodesToAttributes)},
          {"failOnUnknownNodes", r.failOnUnknownNodes}};
}
void read(JsonFields& f, NodesToAttributesMappingRequest& r) {
  r.operation = f.str("operation");
  if (f.ok() && r.operation != "ADD" && r.operation != "REPLACE" && r.operation != "REMOVE") {
    f.fail("operation", "unknown value '" + r.operation + "' (one of ADD, REPLACE, REMOVE)");
  }
  r.nodesToAttributes = readList<NodeToAttributes>(f, "nodesToAttributes");
  if (f.ok() && r.nodesToAttributes.empty()) {
    f.fail("nodesToAttributes", "No node-to-attributes mappings are specified");
  }
  r.failOnUnknownNodes = f.boolean("failOnUnknownNodes", false);
}

// --- ContainerManagementProtocol ----------------------------------------------------------------

json toJson(const StartContainersRequest& r) {
  json list = json::array();
  for (const StartContainerRequest& s : r.startContainerRequest) {
    list.push_back({{"containerId", s.containerId},
                    {"resource", toJson(s.resource)},
                    {"containerLaunchContext",
                     {{"commands", s.containerLaunchContext.commands},
                      {"environment", s.containerLaunchContext.environment}}}});
  }
  return {{"startContainerRequest", list}};
}
void read(JsonFields& f, StartContainersRequest& r) {
  for (JsonFields& e : f.objects("startContainerRequest")) {
    StartContainerRequest s;
    s.containerId = e.str("containerId");
    nonEmpty(e, "containerId", s.containerId);
    JsonFields res = e.object("resource");
    read(res, s.resource);
    JsonFields ctx = e.object("containerLaunchContext");
    s.containerLaunchContext.commands = ctx.strings("commands");
    if (ctx.ok() && s.containerLaunchContext.commands.empty()) {
      ctx.fail("commands", "at least one command is needed");
    }
    s.containerLaunchContext.environment = ctx.stringMap("environment");
    r.startContainerRequest.push_back(std::move(s));
  }
  if (f.ok() && r.startContainerRequest.empty()) {
    f.fail("startContainerRequest", "at least one container is needed");
  }
}

json toJson(const StartContainersResponse& r) {
  return {{"succeededRequests", r.succeededRequests}, {"failedRequests", list(r.failedRequests)}};
}
void read(JsonFields& f, StartContainersResponse& r) {
  r.succeededRequests = f.strings("succeededRequests");
  r.failedRequests = readList<FailedContainer>(f, "failedRequests");
}

json toJson(const StopContainersRequest& r) { return {{"containerIds", r.containerIds}}; }
void read(JsonFields& f, StopContainersRequest& r) {
  r.containerIds = f.strings("containerIds");
  if (f.ok() && r.containerIds.empty()) f.fail("containerIds", "at least one id is needed");
}

json toJson(const StopContainersResponse& r) {
  return {{"succeededRequests", r.succeededRequests}, {"failedRequests", list(r.failedRequests)}};
}
void read(JsonFields& f, StopContainersResponse& r) {
  r.succeededRequests = f.strings("succeededRequests");
  r.failedRequests = readList<FailedContainer>(f, "failedRequests");
}

}  // namespace spindle::protocol
