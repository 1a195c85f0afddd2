// RmCore: application priority, one attempt, an attempt's containers and the administrator's
// refreshQueues (YARN's RMWebServices and ClientRMService / AdminService calls of the same
// names).
#include "app/container_state.h"
#include "dao/rest_views.h"
#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;

namespace {

json attemptJson(const AttemptRecord& at, int64_t ts, AppId app) {
  return {{"id", at.attempt},
          {"appAttemptId",
           protocol::toString(protocol::ApplicationAttemptId{{ts, app.value()}, at.attempt})},
          {"startTime", at.startTime},
          {"finishedTime", at.finishedTime},
          {"containerId", at.amContainerId},
          {"nodeId", at.nodeId},
          {"nodeHttpAddress", at.nodeHttpAddress},
          {"logsLink", ""},
          {"appAttemptState", at.state},
          {"diagnosticsInfo", at.diagnostics},
          {"blacklistedNodes", ""},
          {"nodesBlacklistedBySystem", ""}};
}

}  // namespace

Result<json> RmCore::appPriority(std::string_view appId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  return json{{"priority", sched().findApp(app->id)->priority()}};
}

// ClientRMService.updateApplicationPriority: a final app is refused with YARN's text; the
// scheduler caps and checks the value (CapacityScheduler.checkAndGetApplicationPriority).
Result<json> RmCore::updateAppPriority(std::string_view appId, int32_t priority) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  const Application* a = sched().findApp(app->id);
  if (isFinal(a->state())) {
    return invalidArgument("Application in {} state cannot update priority.", toString(a->state()));
  }
  auto out = driver_->updateAppPriority(app->id, priority);
  if (!out) return invalidArgument("{}", out.status().message());
  apply(*out);
  return appPriority(appId);
}

Result<json> RmCore::appAttempt(std::string_view appId, std::string_view attemptId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  auto parsed = protocol::parseAttemptId(attemptId);
  if (!parsed) return parsed.status();
  const int64_t ts = sched().settings().clusterTimestamp;
  if (parsed->app.clusterTimestamp == ts && parsed->app.seq == app->id.value()) {
    for (const AttemptRecord& at : app->attempts) {
      if (at.attempt == parsed->attempt) return json{{"appAttempt", attemptJson(at, ts, app->id)}};
    }
  }
  return notFound("appAttempt with id: {} not found", attemptId);
}

// The live containers of the attempt, as RMWebServices.getContainers reads them from the
// scheduler (an earlier attempt's containers ended with it: none).
Result<json> RmCore::attemptContainers(std::string_view appId, std::string_view attemptId) {
  SPINDLE_ASSIGN_OR_RETURN(json attempt, appAttempt(appId, attemptId));
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  const uint32_t number = attempt["appAttempt"]["id"].get<uint32_t>();
  const Application* a = sched().findApp(app->id);
  json list = json::array();
  for (ContainerId id : a->liveContainers()) {
    if (id.attempt.attempt != number) continue;
    if (const Container* c = sched().findContainer(id)) list.push_back(containerInfo(*app, *c));
  }
  return json{{"containers", {{"container", list}}}};
}

Result<json> RmCore::attemptContainer(std::string_view appId, std::string_view attemptId,
                                      std::string_view containerId) {
  SPINDLE_ASSIGN_OR_RETURN(json attempt, appAttempt(appId, attemptId));
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  auto id = sched().parseContainerId(containerId);
  if (!id) return id.status();
  const Container* c = sched().findContainer(*id);
  if (c == nullptr || id->app() != app->id ||
      id->attempt.attempt != attempt["appAttempt"]["id"].get<uint32_t>()) {
    return notFound("container with id: {} not found", containerId);
  }
  return json{{"container", containerInfo(*app, *c)}};
}

// YARN's ContainerInfo (the web services' view of a ContainerReport).
json RmCore::containerInfo(const RmApp& app, const Container& c) const {
  const std::string cid = sched().containerIdString(c.id);
  const std::string& nodeId = sched().cluster().nodeName(c.node);
  std::string http;
  if (auto it = nodes_.find(nodeId); it != nodes_.end()) http = it->second->httpAddress;
  const TimeMs now = clock_.nowMs();
  return {{"containerId", cid},
          {"allocatedMB", c.resource.memoryMb()},
          {"allocatedVCores", c.resource.vcores()},
          {"assignedNodeId", nodeId},
          {"priority", c.key.priority},
          {"startedTime", c.allocatedAt},
          {"finishedTime", 0},
          {"elapsedTime", now - c.allocatedAt},
          {"diagnosticsInfo", ""},
          {"logUrl",
           http.empty() ? "" : "http://" + http + "/node/containerlogs/" + cid + "/" + app.user},
          {"containerExitStatus", 0},
          // RMContainerImpl.getContainerState: a live container reports RUNNING.
          {"containerState", "RUNNING"},
          {"nodeHttpAddress", http.empty() ? "" : "http://" + http},
          {"nodeId", nodeId},
          {"allocatedResources", resourceInfo(sched().cluster().types(), c.resource)}};
}

Result<json> RmCore::refreshQueues(const Configuration& read) {
  Configuration conf = read;
  // The ids this RM handed out keep their cluster timestamp.
  conf.set("spindle.cluster.timestamp", conf_.get("spindle.cluster.timestamp").value_or(""));
  auto out = driver_->refreshConfiguration(conf);
  if (!out) {
    return invalidArgument("the new configuration is refused, the old one stays: {}",
                           out.status().message());
  }
  apply(*out);
  return json{{"message", "queues refreshed from the configuration"}};
}

}  // namespace spindle::rm
