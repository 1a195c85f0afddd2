#include "protocol/json_text.h"

#include <charconv>
#include <string_view>

#include "protocol/codec.h"

namespace spindle::protocol {
namespace {

// The members below are written in std::map order (byte order of the keys), as dump() writes
// them; json_text_test checks every record against toJson().dump().

void appendString(std::string& out, std::string_view s) {
  for (const char c : s) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
      out += nlohmann::json(std::string(s)).dump();
      return;
    }
  }
  out += '"';
  out += s;
  out += '"';
}

void appendInt(std::string& out, int64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// ,"key": (or "key": first).
void key(std::string& out, std::string_view k, bool first = false) {
  if (!first) out += ',';
  out += '"';
  out += k;
  out += "\":";
}

void appendStrings(std::string& out, const std::vector<std::string>& v) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    appendString(out, v[i]);
  }
  out += ']';
}

void appendResource(std::string& out, const ResourceRecord& r) {
  out += "{\"memory\":";
  appendInt(out, r.memory);
  out += ",\"vCores\":";
  appendInt(out, r.vCores);
  out += '}';
}

void appendContainer(std::string& out, const Container& c) {
  out += '{';
  key(out, "allocationRequestId", true);
  appendInt(out, c.allocationRequestId);
  key(out, "id");
  appendString(out, c.id);
  key(out, "nodeHttpAddress");
  appendString(out, c.nodeHttpAddress);
  key(out, "nodeId");
  appendString(out, c.nodeId);
  key(out, "priority");
  appendInt(out, c.priority);
  key(out, "resource");
  appendResource(out, c.resource);
  out += '}';
}

void appendStatus(std::string& out, const ContainerStatus& s) {
  out += '{';
  if (s.allocatedResource) {
    key(out, "allocatedResource", true);
    appendResource(out, *s.allocatedResource);
    key(out, "containerId");
  } else {
    key(out, "containerId", true);
  }
  appendString(out, s.containerId);
  key(out, "diagnostics");
  appendString(out, s.diagnostics);
  key(out, "exitStatus");
  appendInt(out, s.exitStatus);
  key(out, "state");
  appendString(out, toString(s.state));
  out += '}';
}

template <typename T, typename Append>
void appendList(std::string& out, const std::vector<T>& v, Append append) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    append(out, v[i]);
  }
  out += ']';
}

// A record this file does not write itself: nlohmann's text of it.
template <typename T>
void appendViaDocument(std::string& out, const T& x) {
  out += toJson(x).dump();
}

// nlohmann's own number format (shortest round trip, ".0" on whole numbers, its exponent form).
void appendDouble(std::string& out, double v) { out += nlohmann::json(v).dump(); }

void appendBool(std::string& out, bool v) { out += v ? "true" : "false"; }

void appendUtilization(std::string& out, const ResourceUtilization& u) {
  out += "{\"cpu\":";
  appendDouble(out, u.cpu);
  out += ",\"pmem\":";
  appendInt(out, u.pmem);
  out += ",\"vmem\":";
  appendInt(out, u.vmem);
  out += '}';
}

void appendAsk(std::string& out, const ResourceRequest& r) {
  out += '{';
  key(out, "allocationRequestId", true);
  appendInt(out, r.allocationRequestId);
  key(out, "capability");
  appendResource(out, r.capability);
  key(out, "nodeLabelExpression");
  appendString(out, r.nodeLabelExpression);
  key(out, "numContainers");
  appendInt(out, r.numContainers);
  key(out, "priority");
  appendInt(out, r.priority);
  key(out, "relaxLocality");
  appendBool(out, r.relaxLocality);
  key(out, "resourceName");
  appendString(out, r.resourceName);
  out += '}';
}

}  // namespace

std::string jsonText(const ContainerStatus& s) {
  std::string out;
  out.reserve(128);
  appendStatus(out, s);
  return out;
}

void appendHeartbeatHead(std::string& out, const NodeHeartbeatRequest& r) {
  out += '{';
  if (r.nodeAttributes) {
    key(out, "nodeAttributes", true);
    appendList(out, *r.nodeAttributes, appendViaDocument<NodeAttributeRecord>);
    out += ',';
  }
  if (r.nodeLabels) {
    key(out, "nodeLabels", true);
    appendStrings(out, *r.nodeLabels);
    out += ',';
  }
  out += "\"nodeStatus\":{\"containersStatuses\":[";
}

void appendHeartbeatTail(std::string& out, const NodeHeartbeatRequest& r) {
  const NodeStatus& s = r.nodeStatus;
  out += ']';
  if (s.containersUtilization) {
    key(out, "containersUtilization");
    appendUtilization(out, *s.containersUtilization);
  }
  key(out, "keepAliveApplications");
  appendStrings(out, s.keepAliveApplications);
  key(out, "nodeHealthStatus");
  out += "{\"healthReport\":";
  appendString(out, s.nodeHealthStatus.healthReport);
  out += ",\"isNodeHealthy\":";
  appendBool(out, s.nodeHealthStatus.isNodeHealthy);
  out += ",\"lastHealthReportTime\":";
  appendInt(out, s.nodeHealthStatus.lastHealthReportTime);
  out += '}';
  key(out, "nodeId");
  appendString(out, s.nodeId);
  if (s.nodeUtilization) {
    key(out, "nodeUtilization");
    appendUtilization(out, *s.nodeUtilization);
  }
  key(out, "responseId");
  appendInt(out, s.responseId);
  out += "}}";
}

std::string jsonText(const NodeHeartbeatRequest& r) {
  return jsonText(
      r,
      [&r](std::string& out) {
        const auto& statuses = r.nodeStatus.containersStatuses;
        for (size_t i = 0; i < statuses.size(); ++i) {
          if (i) out += ',';
          appendStatus(out, statuses[i]);
        }
      },
      256 + 120 * r.nodeStatus.containersStatuses.size());
}

std::string jsonText(const AllocateRequest& r) {
  std::string out;
  out.reserve(256 + 200 * r.ask.size() + 40 * r.release.size());
  out += '{';
  key(out, "applicationAttemptId", true);
  appendString(out, r.applicationAttemptId);
  key(out, "ask");
  appendList(out, r.ask, appendAsk);
  key(out, "blacklistRequest");
  out += "{\"blacklistAdditions\":";
  appendStrings(out, r.blacklistRequest.blacklistAdditions);
  out += ",\"blacklistRemovals\":";
  appendStrings(out, r.blacklistRequest.blacklistRemovals);
  out += '}';
  key(out, "progress");
  appendDouble(out, r.progress);
  key(out, "release");
  appendStrings(out, r.release);
  key(out, "responseId");
  appendInt(out, r.responseId);
  key(out, "schedulingRequests");
  appendList(out, r.schedulingRequests, appendViaDocument<SchedulingRequestRecord>);
  out += '}';
  return out;
}

std::string jsonText(const AllocateResponse& r) {
  std::string out;
  out.reserve(256 + 200 * (r.allocatedContainers.size() + r.completedContainerStatuses.size()));
  out += '{';
  key(out, "allocatedContainers", true);
  appendList(out, r.allocatedContainers, appendContainer);
  if (r.amCommand) {
    key(out, "amCommand");
    appendString(out, toString(*r.amCommand));
  }
  key(out, "completedContainerStatuses");
  appendList(out, r.completedContainerStatuses, appendStatus);
  key(out, "limit");
  appendResource(out, r.limit);
  key(out, "numClusterNodes");
  appendInt(out, r.numClusterNodes);
  key(out, "preempt");
  out += "{\"strictContract\":{\"container\":";
  appendStrings(out, r.preemptContainers);
  out += "}}";
  key(out, "rejectedSchedulingRequests");
  appendList(out, r.rejectedSchedulingRequests, appendViaDocument<RejectedSchedulingRequestRecord>);
  key(out, "responseId");
  appendInt(out, r.responseId);
  key(out, "updatedNodes");
  appendList(out, r.updatedNodes, appendViaDocument<NodeReport>);
  out += '}';
  return out;
}

std::string jsonText(const NodeHeartbeatResponse& r) {
  std::string out;
  out.reserve(256);
  out += '{';
  key(out, "applicationsToCleanup", true);
  appendStrings(out, r.applicationsToCleanup);
  key(out, "areNodeAttributesAcceptedByRM");
  out += r.areNodeAttributesAcceptedByRM ? "true" : "false";
  key(out, "areNodeLabelsAcceptedByRM");
  out += r.areNodeLabelsAcceptedByRM ? "true" : "false";
  key(out, "containersToCleanup");
  appendStrings(out, r.containersToCleanup);
  key(out, "diagnosticsMessage");
  appendString(out, r.diagnosticsMessage);
  key(out, "nextHeartBeatInterval");
  appendInt(out, r.nextHeartBeatInterval);
  key(out, "nodeAction");
  appendString(out, toString(r.nodeAction));
  key(out, "responseId");
  appendInt(out, r.responseId);
  out += '}';
  return out;
}

}  // namespace spindle::protocol
