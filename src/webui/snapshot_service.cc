#include "webui/snapshot_service.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include "dao/rest_views.h"
#include "rm/rest_answers.h"
#include "webui/assets.h"
#include "webui/list_page.h"

namespace spindle::webui {

using nlohmann::json;
using protocol::HttpRequest;
using protocol::HttpResponse;
using rm::answerJson;
using rm::errorWith;
using rm::ok;
using rm::wrongMethod;

namespace {

constexpr std::string_view kCluster = "/ws/v1/cluster";

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::set<std::string> commaList(const std::string& s) {
  std::set<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.insert(upper(item));
  }
  return out;
}

// YARN's RMAppState names (RMWebServices' "states" filter).
const std::set<std::string>& appStates() {
  static const std::set<std::string> s = {"NEW",     "NEW_SAVING", "SUBMITTED", "ACCEPTED",
                                          "RUNNING", "FINISHED",   "FAILED",    "KILLED"};
  return s;
}

const std::set<std::string>& nodeStates() {
  static const std::set<std::string> s = {"NEW",  "RUNNING",  "UNHEALTHY",       "DECOMMISSIONED",
                                          "LOST", "REBOOTED", "DECOMMISSIONING", "SHUTDOWN"};
  return s;
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int64_t num(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<int64_t>() : 0;
}

// Only deSelects=resourceRequests (or nothing) asked.
bool onlyDeSelects(const std::map<std::string, std::string>& q) {
  if (q.empty()) return true;
  return q.size() == 1 && q.begin()->first == "deSelects" &&
         q.begin()->second == "resourceRequests";
}

HttpResponse missing(const std::string& what) { return errorWith(404, "NotFoundException", what); }

}  // namespace

Status writeSnapshot(const std::string& path, const Scheduler& sched, TimeMs nowMs) {
  const int64_t ts = sched.settings().clusterTimestamp;
  json info = {{"clusterInfo",
                {{"id", ts},
                 {"startedOn", ts},
                 {"state", "STARTED"},
                 {"haState", "ACTIVE"},
                 {"resourceManagerVersion", "spindle simulation"},
                 {"simulatedTime", nowMs}}}};
  json s = {{"clusterInfo", info["clusterInfo"]},
            {"clusterMetrics", metricsView(sched)["clusterMetrics"]},
            {"scheduler", schedulerView(sched)["scheduler"]},
            {"apps", appsView(sched)["apps"]},
            {"nodes", nodesView(sched)["nodes"]}};
  std::ofstream out(path);
  out << s.dump() << '\n';
  out.close();
  if (!out) return internalError("cannot write {}", path);
  return Status::ok();
}

Result<std::unique_ptr<SnapshotService>> SnapshotService::load(const std::string& dir) {
  std::unique_ptr<SnapshotService> s(new SnapshotService());
  const std::string path = dir + "/snapshot.json";
  std::ifstream in(path);
  if (!in) {
    return notFound(
        "{}: no such file (a simulation's output folder has one, written at the end "
        "of `spindle sim`)",
        path);
  }
  s->snapshot_ = json::parse(in, nullptr, false);
  if (s->snapshot_.is_discarded() || !s->snapshot_.is_object()) {
    return invalidArgument("{}: not a JSON object", path);
  }
  for (const char* key : {"clusterInfo", "clusterMetrics", "scheduler", "apps", "nodes"}) {
    if (!s->snapshot_.contains(key)) return invalidArgument("{}: no \"{}\" field", path, key);
  }
  std::ifstream lines(dir + "/decisions.jsonl");
  std::string line;
  for (int64_t n = 1; std::getline(lines, line); ++n) {
    if (line.empty()) continue;
    json d = json::parse(line, nullptr, false);
    if (d.is_discarded() || !d.is_object()) {
      return invalidArgument("{}/decisions.jsonl line {}: not a JSON object", dir, n);
    }
    s->decisions_.add(std::move(d));
  }
  s->appsBody_ = s->apps({}).value().dump();
  s->appsLightBody_ = s->apps({{"deSelects", "resourceRequests"}}).value().dump();
  s->nodesBody_ = s->nodes({}).value().dump();
  s->nodeSummaryBody_ =
      json{{"nodeSummary",
            nodeSummary(s->nodeCount() > 0 ? s->snapshot_["nodes"]["node"] : json::array())}}
          .dump();
  return s;
}

size_t SnapshotService::appCount() const {
  const json& a = snapshot_["apps"];
  return a.is_object() && a.contains("app") ? a["app"].size() : 0;
}

size_t SnapshotService::nodeCount() const {
  const json& n = snapshot_["nodes"];
  return n.is_object() && n.contains("node") ? n["node"].size() : 0;
}

HttpResponse SnapshotService::answer(const HttpRequest& req) const {
  if (req.path.starts_with(kCluster)) {
    if (req.method != "GET") return wrongMethod(req);
    std::string_view what = std::string_view(req.path).substr(kCluster.size());
    while (what.ends_with('/')) what.remove_suffix(1);
    return rest(what, req);
  }
  if (auto page = uiResponse(req)) return *page;
  return missing("no such resource: " + req.path);
}

HttpResponse SnapshotService::rest(std::string_view what, const HttpRequest& req) const {
  if (what.empty() || what == "/info") return ok({{"clusterInfo", snapshot_["clusterInfo"]}});
  if (what == "/metrics") return ok({{"clusterMetrics", snapshot_["clusterMetrics"]}});
  if (what == "/scheduler") return ok({{"scheduler", snapshot_["scheduler"]}});
  // The unfiltered lists, the pages' most common calls, are rendered once at load.
  if (what == "/apps" && onlyDeSelects(req.query)) {
    return {200, req.query.empty() ? appsBody_ : appsLightBody_};
  }
  if (what == "/apps") return answerJson(apps(req.query));
  if (what == "/nodes" && req.query.empty()) return {200, nodesBody_};
  if (what == "/nodes") return answerJson(nodes(req.query));
  if (what == "/node-attributes") return ok(nodeAttributes());
  if (what == "/spindle/apps" || what == "/spindle/nodes") {
    const bool isApps = what == "/spindle/apps";
    const auto filters = withoutPageParams(req.query);
    // Unfiltered (the pages' usual call): the snapshot's own entries, nothing copied but the
    // page; filtered: the REST filters' copies.
    const bool direct = onlyDeSelects(filters) && (isApps ? appCount() : nodeCount()) > 0;
    Result<json> all = json::object();
    if (!direct) all = isApps ? apps(filters) : nodes(filters);
    if (!all) return answerJson(all);
    const json& entries = direct ? (isApps ? snapshot_["apps"]["app"] : snapshot_["nodes"]["node"])
                                 : (isApps ? (*all)["apps"]["app"] : (*all)["nodes"]["node"]);
    const bool noRequests = !filters.empty();  // onlyDeSelects: deSelects=resourceRequests
    // Sorted and searched on the table fields, as the daemon does (list_page.h).
    const auto& fields = isApps ? kAppRowFields : kNodeRowFields;
    json rows = json::array();
    for (const json& e : entries) rows.push_back(rowOf(e, fields));
    auto page = listPage(rows, req.query, fields, [&](size_t i) {
      json e = entries[i];
      if (direct && noRequests) e.erase("resourceRequests");
      return e;
    });
    if (!page) return answerJson(page);
    return ok({{isApps ? "appsPage" : "nodesPage", std::move(*page)}});
  }
  if (what == "/spindle/node-summary") return {200, nodeSummaryBody_};
  if (what == "/spindle/decisions") return answerJson(decisions_.query(req.query));
  if (what.starts_with("/spindle/app-decisions/")) {
    const std::string id(what.substr(23));
    if (findApp(id) == nullptr) return missing("app with id: " + id + " not found");
    return ok(decisions_.appDecisions(id));
  }
  if (what.starts_with("/nodes/")) {
    const std::string_view id = what.substr(7);
    if (nodeCount() > 0) {
      for (const json& n : snapshot_["nodes"]["node"]) {
        if (str(n, "id") == id) return ok({{"node", n}});
      }
    }
    return missing("nodeId, " + std::string(id) + ", is not found");
  }
  if (what.starts_with("/apps/")) {
    std::string_view tail = what.substr(6);
    const size_t slash = tail.find('/');
    const std::string id(tail.substr(0, slash));
    const std::string_view sub = slash == std::string_view::npos ? "" : tail.substr(slash);
    const json* app = findApp(id);
    if (app == nullptr) return missing("app with id: " + id + " not found");
    if (sub.empty()) return ok({{"app", *app}});
    if (sub == "/state") return ok({{"state", str(*app, "state")}});
    if (sub == "/appattempts") {
      // A simulated app has one attempt, launched with its AM (launchTime).
      json attempts = json::array();
      if (num(*app, "launchTime") > 0) {
        std::string attemptId = id;
        attemptId.replace(0, std::string_view("application").size(), "appattempt");
        const std::string state = str(*app, "state");
        attempts.push_back({{"id", 1},
                            {"appAttemptId", attemptId + "_000001"},
                            {"startTime", num(*app, "launchTime")},
                            {"finishedTime", num(*app, "finishedTime")},
                            {"nodeHttpAddress", str(*app, "amHostHttpAddress")},
                            {"appAttemptState", state == "ACCEPTED" ? "SCHEDULED" : state}});
      }
      return ok({{"appAttempts", {{"appAttempt", attempts}}}});
    }
  }
  return missing("no such resource: " + req.path);
}

json SnapshotService::nodeAttributes() const {
  // The RM's GetClusterNodeAttributes shape, from the nodes' attributes.
  std::map<std::string, json> keys;
  if (nodeCount() > 0) {
    for (const json& n : snapshot_["nodes"]["node"]) {
      auto info = n.find("nodeAttributesInfo");
      if (info == n.end() || !info->contains("nodeAttributeInfo")) continue;
      for (const json& a : (*info)["nodeAttributeInfo"]) {
        keys.try_emplace(
            str(a, "prefix") + "/" + str(a, "name"),
            json{{"attributeKey",
                  {{"attributePrefix", str(a, "prefix")}, {"attributeName", str(a, "name")}}},
                 {"attributeType", str(a, "type")}});
      }
    }
  }
  json list = json::array();
  for (auto& [k, v] : keys) list.push_back(std::move(v));
  return {{"nodeAttributes", std::move(list)}};
}

const json* SnapshotService::findApp(std::string_view id) const {
  if (appCount() == 0) return nullptr;
  for (const json& a : snapshot_["apps"]["app"]) {
    if (str(a, "id") == id) return &a;
  }
  return nullptr;
}

Result<json> SnapshotService::apps(const std::map<std::string, std::string>& q) const {
  std::set<std::string> states;
  for (const char* key : {"states", "state"}) {
    auto it = q.find(key);
    if (it == q.end()) continue;
    for (const std::string& s : commaList(it->second)) {
      if (!appStates().contains(s)) {
        return invalidArgument(
            "Invalid application-state {} specified. It should be one of NEW, NEW_SAVING, "
            "SUBMITTED, ACCEPTED, RUNNING, FINISHED, FAILED, KILLED",
            s);
      }
      states.insert(s);
    }
  }
  int64_t limit = INT64_MAX;
  if (auto it = q.find("limit"); it != q.end()) {
    const std::string& v = it->second;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), limit);
    if (ec != std::errc() || end != v.data() + v.size() || limit <= 0) {
      return invalidArgument("limit value must be greater then 0");
    }
  }
  const std::string user = q.contains("user") ? q.at("user") : "";
  const std::string queue = q.contains("queue") ? q.at("queue") : "";
  const bool noRequests =
      q.contains("deSelects") && q.at("deSelects").find("resourceRequests") != std::string::npos;
  json out = json::array();
  if (appCount() > 0) {
    for (const json& a : snapshot_["apps"]["app"]) {
      if (static_cast<int64_t>(out.size()) >= limit) break;
      if (!states.empty() && !states.contains(str(a, "state"))) continue;
      if (!user.empty() && str(a, "user") != user) continue;
      // A leaf name or its path, as YARN's queue filter.
      const std::string qn = str(a, "queue");
      if (!queue.empty() && qn != queue && !qn.ends_with("." + queue) && "root." + queue != qn) {
        continue;
      }
      out.push_back(a);
      if (noRequests) out.back().erase("resourceRequests");
    }
  }
  return json{{"apps", {{"app", std::move(out)}}}};
}

Result<json> SnapshotService::nodes(const std::map<std::string, std::string>& q) const {
  std::set<std::string> states;
  if (auto it = q.find("states"); it != q.end()) {
    for (const std::string& s : commaList(it->second)) {
      if (!nodeStates().contains(s)) return invalidArgument("Invalid node state {}", s);
      states.insert(s);
    }
  }
  json out = json::array();
  if (nodeCount() > 0) {
    for (const json& n : snapshot_["nodes"]["node"]) {
      if (states.empty() || states.contains(str(n, "state"))) out.push_back(n);
    }
  }
  return json{{"nodes", {{"node", std::move(out)}}}};
}

}  // namespace spindle::webui
