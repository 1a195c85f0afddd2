#include "dao/decision_json.h"

#include "dao/rest_views.h"

namespace spindle {

using nlohmann::json;

namespace {

bool isAppDecision(DecisionKind k) {
  return k != DecisionKind::kNodeAdded && k != DecisionKind::kNodeRemoved &&
         k != DecisionKind::kNodeUpdated;
}

bool isContainerDecision(DecisionKind k) {
  switch (k) {
    case DecisionKind::kAllocate:
    case DecisionKind::kReserve:
    case DecisionKind::kUnreserve:
    case DecisionKind::kRelease:
    case DecisionKind::kComplete:
    case DecisionKind::kKill:
    case DecisionKind::kPreemptMark: return true;
    default: return false;
  }
}

bool hasKey(DecisionKind k) {
  return k == DecisionKind::kAllocate || k == DecisionKind::kReserve || k == DecisionKind::kSkip ||
         k == DecisionKind::kRequestRejected;
}

bool hasExitStatus(DecisionKind k) {
  return k == DecisionKind::kComplete || k == DecisionKind::kRelease || k == DecisionKind::kKill;
}

}  // namespace

json decisionToJson(const Scheduler& s, const DecisionRecord& d, size_t seq) {
  json j = {{"seq", seq}, {"time", d.time}, {"kind", toString(d.kind)}};
  if (isAppDecision(d.kind)) {
    j["app"] = s.appIdString(d.app);
    const Application* a = s.findApp(d.app);
    j["appName"] = a ? a->submission().name : "";
    j["queue"] = std::string(d.queue);
  }
  if (isContainerDecision(d.kind)) j["container"] = s.containerIdString(d.container);
  if (d.node.valid()) j["node"] = s.cluster().nodeName(d.node);
  if (hasKey(d.kind)) {
    j["priority"] = d.key.priority;
    j["allocationRequestId"] = d.key.allocationRequestId;
  }
  if (d.kind == DecisionKind::kAllocate) j["locality"] = toString(d.locality);
  if (isContainerDecision(d.kind) || d.kind == DecisionKind::kNodeAdded ||
      d.kind == DecisionKind::kNodeUpdated) {
    j["resource"] = resourceByName(s.cluster().types(), d.resource);
  }
  if (isContainerDecision(d.kind)) j["am"] = d.am;
  if (hasExitStatus(d.kind)) j["exitStatus"] = d.exitStatus;
  if (d.kind == DecisionKind::kSkip) j["skip"] = toString(d.skip);
  if (d.kind == DecisionKind::kRequestRejected) j["rejection"] = toString(d.rejection);
  j["reason"] = d.reason.text();
  if (!d.numbers.empty()) {
    json n = json::object();
    for (const auto& [k, v] : d.numbers) n[k] = v;
    j["numbers"] = n;
  }
  return j;
}

}  // namespace spindle
