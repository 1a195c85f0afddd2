// RmCore: the client side of the REST API (YARN's RMWebServices): new-application, submit,
// kill, and the cluster, app and node views.
#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/ranges.h>

#include "base/strings.h"
#include "dao/rest_views.h"
#include "protocol/yarn_ids.h"
#include "rm/rm_core.h"
#include "rm/rm_core_internal.h"

namespace spindle::rm {

using nlohmann::json;

namespace {

// YarnApplicationState, what the REST API and the CLI show.
const std::vector<std::string>& yarnAppStates() {
  static const std::vector<std::string> kStates = {"NEW",     "NEW_SAVING", "SUBMITTED", "ACCEPTED",
                                                   "RUNNING", "FINISHED",   "FAILED",    "KILLED"};
  return kStates;
}

Result<int64_t> timeParam(const std::map<std::string, std::string>& q, const std::string& key,
                          int64_t def) {
  auto it = q.find(key);
  if (it == q.end()) return def;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  if (ec != std::errc() || end != it->second.data() + it->second.size()) {
    return invalidArgument("{} '{}' is not a number", key, it->second);
  }
  if (v < 0) return invalidArgument("{} must be greater than 0", key);
  return v;
}

}  // namespace

// --- Client -----------------------------------------------------------------------------------

json RmCore::newApplication() {
  const uint32_t seq = nextAppSeq_++;
  issued_.push_back(seq);
  const Resource& max = sched().settings().bounds.maximum;
  return {{"application-id",
           protocol::toString(protocol::ApplicationId{sched().settings().clusterTimestamp, seq})},
          {"maximum-resource-capability", {{"memory", max.memoryMb()}, {"vCores", max.vcores()}}}};
}

Result<std::string> RmCore::submit(const protocol::SubmissionContext& ctx,
                                   const std::string& user) {
  FlushOnReturn flushOnReturn(*this);
  auto parsed = protocol::parseApplicationId(ctx.applicationId);
  if (!parsed) return parsed.status();
  if (parsed->clusterTimestamp != sched().settings().clusterTimestamp) {
    return invalidArgument("{} is not of this cluster (timestamp {})", ctx.applicationId,
                           sched().settings().clusterTimestamp);
  }
  const AppId id(parsed->seq);
  // A repeated submission of the same id is accepted once, as RMAppManager does.
  if (apps_.contains(id)) return ctx.applicationId;
  auto issued = std::find(issued_.begin(), issued_.end(), parsed->seq);
  if (issued == issued_.end()) {
    return invalidArgument("{} was not issued by apps/new-application", ctx.applicationId);
  }
  AppSubmission sub;
  sub.name = ctx.applicationName;
  sub.queue = ctx.queue;
  sub.user = user;
  sub.priority = ctx.priority;
  sub.applicationType = ctx.applicationType;
  sub.reservationId = ctx.reservationId;
  if (!ctx.unmanagedAm) sub.amResource = Resource::of(ctx.resource.memory, ctx.resource.vCores);
  sub.id = id;
  auto out = driver_->submit(sub);
  if (!out) return out.status();
  const Outcome copy = *out;
  issued_.erase(issued);
  auto app = std::make_unique<RmApp>();
  app->id = id;
  app->ctx = ctx;
  app->user = user;
  app->attempt = sched().findApp(id)->attempt();
  if (appLive(id)) app->attempts.push_back(AttemptRecord::started(app->attempt, clock_.nowMs()));
  apps_[id] = std::move(app);
  markDirty(id);
  apply(copy);
  return ctx.applicationId;
}

Result<RmCore::RmApp*> RmCore::appFor(std::string_view appId) {
  auto parsed = protocol::parseApplicationId(appId);
  if (!parsed) return parsed.status();
  RmApp* app = parsed->clusterTimestamp == sched().settings().clusterTimestamp
                   ? findApp(AppId(parsed->seq))
                   : nullptr;
  if (app == nullptr) return notFound("app with id: {} not found", appId);
  return app;
}

Result<json> RmCore::killApp(std::string_view appId) {
  FlushOnReturn flushOnReturn(*this);
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  if (appLive(app->id)) {
    markDirty(app->id);
    app->diagnostics = "Application killed by user.";
    app->finalStatus = protocol::FinalApplicationStatus::KILLED;
    app->endAttempt("KILLED", clock_.nowMs(), app->diagnostics);
    auto out = driver_->handle(AppRemoved{app->id, AppState::KILLED});
    if (!out) return out.status();
    apply(*out);
  }
  return appState(appId);
}

// --- Views ------------------------------------------------------------------------------------

json RmCore::clusterInfo() {
  const int64_t ts = sched().settings().clusterTimestamp;
  return {{"clusterInfo",
           {{"id", ts},
            {"startedOn", startedOn_},
            {"state", "STARTED"},
            {"haState", "ACTIVE"},
            {"rmStateStoreName",
             store_ ? store_->name()
                    : "org.apache.hadoop.yarn.server.resourcemanager.recovery.NullRMStateStore"},
            {"resourceManagerVersion", SPINDLE_VERSION},
            {"resourceManagerBuildVersion", std::string("spindle ") + SPINDLE_VERSION},
            {"resourceManagerVersionBuiltOn", __DATE__},
            {"hadoopVersion", SPINDLE_VERSION},
            {"hadoopBuildVersion", std::string("spindle ") + SPINDLE_VERSION},
            {"hadoopVersionBuiltOn", __DATE__},
            {"haZooKeeperConnectionState", "ResourceManager HA is not enabled."}}}};
}

json RmCore::metrics() {
  driver_->settle();
  json m = metricsView(sched());
  std::map<RmNodeState, int64_t> count;
  for (const auto& [id, n] : nodes_) ++count[n->state];
  json& cm = m["clusterMetrics"];
  cm["activeNodes"] = count[RmNodeState::RUNNING];
  cm["lostNodes"] = count[RmNodeState::LOST];
  cm["unhealthyNodes"] = count[RmNodeState::UNHEALTHY];
  cm["decommissioningNodes"] = count[RmNodeState::DECOMMISSIONING];
  cm["decommissionedNodes"] = count[RmNodeState::DECOMMISSIONED];
  cm["totalNodes"] = static_cast<int64_t>(nodes_.size());
  return m;
}

json RmCore::scheduler() {
  driver_->settle();
  return schedulerView(sched());
}

json RmCore::appJson(const Application& a) {
  json j = appView(sched(), a);
  const RmApp* app = findApp(a.id());
  if (app == nullptr) return j;
  const bool final = isFinal(a.state());
  j["finalStatus"] = appFinalStatus(a);
  j["diagnostics"] = app->diagnostics;
  if (!final) j["progress"] = app->progress * 100.0;
  j["trackingUrl"] = app->trackingUrl;
  j["amRPCAddress"] = app->amHost.empty() ? "" : app->amHost + ":" + std::to_string(app->amRpcPort);
  if (!app->amNodeHttpAddress.empty()) j["amHostHttpAddress"] = app->amNodeHttpAddress;
  std::string tags;
  for (const std::string& t : app->ctx.applicationTags) tags += (tags.empty() ? "" : ",") + t;
  j["applicationTags"] = tags;
  j["unmanagedApplication"] = app->ctx.unmanagedAm;
  if (final) {
    // YARN's -1 sentinels for apps that no longer run.
    j["allocatedMB"] = -1;
    j["allocatedVCores"] = -1;
    j["runningContainers"] = -1;
  }
  return j;
}

std::string RmCore::appFinalStatus(const Application& a) const {
  const RmApp* app = findApp(a.id());
  if (a.state() == AppState::FINISHED && app != nullptr &&
      app->finalStatus != protocol::FinalApplicationStatus::UNDEFINED) {
    return protocol::toString(app->finalStatus);
  }
  return yarnFinalStatus(a.state());
}

Result<std::vector<const Application*>> RmCore::matchingApps(
    const std::map<std::string, std::string>& q) {
  std::set<std::string> states;
  auto addStates = [&](const std::string& list) -> Status {
    for (const std::string& s : splitTrimmed(list, ",", " ")) {
      const std::string u = toUpper(s);
      if (std::find(yarnAppStates().begin(), yarnAppStates().end(), u) == yarnAppStates().end()) {
        return invalidArgument("Invalid application-state {} specified. It should be one of {}", s,
                               fmt::join(yarnAppStates(), ", "));
      }
      states.insert(u);
    }
    return Status::ok();
  };
  if (auto it = q.find("states"); it != q.end()) SPINDLE_RETURN_IF_ERROR(addStates(it->second));
  if (auto it = q.find("state"); it != q.end()) SPINDLE_RETURN_IF_ERROR(addStates(it->second));
  std::string finalStatus;
  if (auto it = q.find("finalStatus"); it != q.end()) {
    finalStatus = toUpper(it->second);
    if (finalStatus != "UNDEFINED" && finalStatus != "SUCCEEDED" && finalStatus != "FAILED" &&
        finalStatus != "KILLED") {
      return invalidArgument(
          "Invalid final status {} specified. It should be one of UNDEFINED, SUCCEEDED, FAILED, "
          "KILLED",
          it->second);
    }
  }
  SPINDLE_ASSIGN_OR_RETURN(int64_t limit, timeParam(q, "limit", 0));
  if (q.contains("limit") && limit == 0)
    return invalidArgument("limit value must be greater then 0");
  SPINDLE_ASSIGN_OR_RETURN(int64_t sBegin, timeParam(q, "startedTimeBegin", 0));
  SPINDLE_ASSIGN_OR_RETURN(int64_t sEnd, timeParam(q, "startedTimeEnd", INT64_MAX));
  SPINDLE_ASSIGN_OR_RETURN(int64_t fBegin, timeParam(q, "finishedTimeBegin", 0));
  SPINDLE_ASSIGN_OR_RETURN(int64_t fEnd, timeParam(q, "finishedTimeEnd", INT64_MAX));
  if (sBegin > sEnd) return invalidArgument("startedTimeEnd must be greater than startTimeBegin");
  if (fBegin > fEnd) {
    return invalidArgument("finishedTimeEnd must be greater than finishedTimeBegin");
  }
  const bool finishFilter = q.contains("finishedTimeBegin") || q.contains("finishedTimeEnd");
  std::set<std::string> types, tags;
  if (auto it = q.find("applicationTypes"); it != q.end()) {
    for (const std::string& t : splitTrimmed(it->second, ",", " ")) types.insert(toUpper(t));
  }
  if (auto it = q.find("applicationTags"); it != q.end()) {
    for (const std::string& t : splitTrimmed(it->second, ",", " ")) tags.insert(t);
  }
  const std::string user = q.contains("user") ? q.at("user") : "";
  const std::string queue = q.contains("queue") ? q.at("queue") : "";
  driver_->settle();
  std::vector<const Application*> list;
  for (const auto& [id, rm] : apps_) {
    const Application* a = sched().findApp(id);
    if (a == nullptr) continue;
    if (!states.empty() && !states.contains(toString(a->state()))) continue;
    if (!finalStatus.empty() && appFinalStatus(*a) != finalStatus) continue;
    if (!user.empty() && a->user() != user) continue;
    if (!queue.empty() && a->queue() != queue && a->queue() != "root." + queue) continue;
    if (a->submitTime() < sBegin || a->submitTime() > sEnd) continue;
    if (finishFilter &&
        (a->finishTime() == 0 || a->finishTime() < fBegin || a->finishTime() > fEnd))
      continue;
    if (!types.empty() && !types.contains(toUpper(a->submission().applicationType))) continue;
    if (!tags.empty()) {
      bool any = false;
      for (const std::string& t : rm->ctx.applicationTags) any = any || tags.contains(t);
      if (!any) continue;
    }
    list.push_back(a);
    if (limit > 0 && static_cast<int64_t>(list.size()) >= limit) break;
  }
  return list;
}

json RmCore::appJson(const Application& a, const std::map<std::string, std::string>& q) {
  json j = appJson(a);
  // RMWebServices' deSelects (DeSelectFields): leave resourceRequests out of each app.
  if (auto it = q.find("deSelects");
      it != q.end() && it->second.find("resourceRequests") != std::string::npos) {
    j.erase("resourceRequests");
  }
  return j;
}

Result<json> RmCore::apps(const std::map<std::string, std::string>& q) {
  SPINDLE_ASSIGN_OR_RETURN(std::vector<const Application*> matching, matchingApps(q));
  json list = json::array();
  for (const Application* a : matching) list.push_back(appJson(*a, q));
  return json{{"apps", {{"app", std::move(list)}}}};
}

Result<json> RmCore::app(std::string_view appId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  driver_->settle();
  return json{{"app", appJson(*sched().findApp(app->id))}};
}

Result<json> RmCore::appAttempts(std::string_view appId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  const int64_t ts = sched().settings().clusterTimestamp;
  json list = json::array();
  for (const AttemptRecord& at : app->attempts) {
    list.push_back({{"id", at.attempt},
                    {"appAttemptId", protocol::toString(protocol::ApplicationAttemptId{
                                         {ts, app->id.value()}, at.attempt})},
                    {"startTime", at.startTime},
                    {"finishedTime", at.finishedTime},
                    {"containerId", at.amContainerId},
                    {"nodeId", at.nodeId},
                    {"nodeHttpAddress", at.nodeHttpAddress},
                    {"logsLink", ""},
                    {"appAttemptState", at.state},
                    {"diagnosticsInfo", at.diagnostics},
                    {"blacklistedNodes", ""},
                    {"nodesBlacklistedBySystem", ""}});
  }
  return json{{"appAttempts", {{"appAttempt", list}}}};
}

Result<json> RmCore::appQueue(std::string_view appId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  return json{{"queue", sched().findApp(app->id)->queue()}};
}

Result<json> RmCore::moveApp(std::string_view appId, const std::string& queue) {
  FlushOnReturn flushOnReturn(*this);
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  if (!appLive(app->id)) {
    return failedPrecondition("App in {} state cannot be moved.",
                              toString(sched().findApp(app->id)->state()));
  }
  auto out = driver_->moveApp(app->id, queue);
  if (!out) return out.status();
  markDirty(app->id);
  apply(*out);
  return appQueue(appId);
}

Result<json> RmCore::appState(std::string_view appId) {
  SPINDLE_ASSIGN_OR_RETURN(RmApp * app, appFor(appId));
  return json{{"state", toString(sched().findApp(app->id)->state())}};
}

json RmCore::nodeJson(const RmNode& n) {
  json j;
  if (inScheduler(n.state)) {
    j = nodeView(sched(), sched().cluster().node(n.sched));
  } else {
    const Resource total = Resource::of(n.total.memory, n.total.vCores);
    const ResourceTypes& types = sched().cluster().types();
    j = {{"rack", n.rack},
         {"id", n.nodeId},
         {"nodeHostName", n.host},
         {"healthStatus", "Unhealthy"},
         {"numContainers", 0},
         {"usedMemoryMB", 0},
         {"availMemoryMB", 0},
         {"usedVirtualCores", 0},
         {"availableVirtualCores", 0},
         {"nodeLabels", n.labels},
         {"usedResource", resourceInfo(types, Resource())},
         {"availableResource", resourceInfo(types, Resource())},
         {"totalResource", resourceInfo(types, total)}};
  }
  j["state"] = toString(n.state);
  j["nodeHTTPAddress"] = n.httpAddress;
  j["lastHealthUpdate"] = n.lastHealthUpdate;
  j["healthReport"] = n.healthReport;
  j["version"] = SPINDLE_VERSION;
  j["nodeAttributesInfo"] = nodeAttributesInfo(n);
  j["healthStatus"] = n.state == RmNodeState::UNHEALTHY ? "Unhealthy" : "Healthy";
  if (n.state == RmNodeState::LOST) j["healthStatus"] = "Unhealthy";
  j["resourceUtilization"] = utilizationJson(n);
  return j;
}

Result<std::vector<const RmCore::RmNode*>> RmCore::matchingNodes(
    const std::map<std::string, std::string>& q) {
  std::set<std::string> states;
  for (const char* key : {"states", "state"}) {
    auto it = q.find(key);
    if (it == q.end()) continue;
    static const std::vector<std::string> kNodeStates = {
        "NEW",  "RUNNING",  "UNHEALTHY",       "DECOMMISSIONED",
        "LOST", "REBOOTED", "DECOMMISSIONING", "SHUTDOWN"};
    for (const std::string& s : splitTrimmed(it->second, ",", " ")) {
      const std::string u = toUpper(s);
      if (std::find(kNodeStates.begin(), kNodeStates.end(), u) == kNodeStates.end()) {
        return invalidArgument("Invalid node state {} specified. It should be one of {}", s,
                               fmt::join(kNodeStates, ", "));
      }
      states.insert(u);
    }
  }
  driver_->settle();
  std::vector<const RmNode*> list;
  for (const auto& [id, n] : nodes_) {
    if (!states.empty() && !states.contains(toString(n->state))) continue;
    list.push_back(n.get());
  }
  return list;
}

Result<json> RmCore::nodes(const std::map<std::string, std::string>& q) {
  SPINDLE_ASSIGN_OR_RETURN(std::vector<const RmNode*> matching, matchingNodes(q));
  json list = json::array();
  for (const RmNode* n : matching) list.push_back(nodeJson(*n));
  return json{{"nodes", {{"node", std::move(list)}}}};
}

Result<json> RmCore::node(std::string_view nodeId) {
  auto it = nodes_.find(nodeId);
  if (it == nodes_.end()) return notFound("nodeId, {}, is not found", nodeId);
  driver_->settle();
  return json{{"node", nodeJson(*it->second)}};
}

}  // namespace spindle::rm
