// `spindle application -updatePriority`, `spindle applicationattempt -status`,
// `spindle container -list/-status` and `spindle rmadmin`, printing what YARN's
// ApplicationCLI and RMAdminCLI print.
#include <cctype>
#include <ctime>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "base/strings.h"
#include "client/commands.h"
#include "client/rm_client.h"
#include "protocol/yarn_ids.h"

namespace spindle::client {

using nlohmann::json;

namespace {

std::string str(const json& j, const char* key, const char* def = "") {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return def;
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

Result<std::unique_ptr<RmRestClient>> connectTo(const Connection& c) {
  auto hp = resolveRmAddress(c.rm, c.confDir);
  if (!hp) return hp.status();
  return std::make_unique<RmRestClient>(std::move(*hp));
}

// Hadoop's Times.format: java.util.Date's toString ("EEE MMM dd HH:mm:ss zzz yyyy", UTC here),
// "N/A" for 0.
std::string javaDate(int64_t ms) {
  if (ms <= 0) return "N/A";
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%a %b %d %H:%M:%S UTC %Y", &tm);
  return buf;
}

std::string trimmed(std::string_view s) { return std::string(trimView(s)); }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int64_t num(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return 0;
  return j[key].get<int64_t>();
}

}  // namespace

// ApplicationCLI.updateApplicationPriority.
int runUpdatePriority(RmRestClient& rm, const std::string& appId, const std::string& priority,
                      std::ostream& out, std::ostream& err) {
  int32_t p = 0;
  try {
    size_t used = 0;
    p = std::stoi(priority, &used);
    if (used != priority.size()) throw std::invalid_argument(priority);
  } catch (const std::exception&) {
    err << "application: -updatePriority '" << priority << "' is not an integer\n";
    return 2;
  }
  out << "Updating priority of an application " << appId << "\n";
  auto r = rm.put("/ws/v1/cluster/apps/" + appId + "/priority", json{{"priority", p}});
  if (!r) {
    err << (r.status().code() == StatusCode::kNotFound
                ? "Application with id '" + appId + "' doesn't exist in RM."
                : r.status().message())
        << "\n";
    return 1;
  }
  if (num(*r, "priority") == p) {
    out << "Successfully updated the application " << appId << " with priority '" << p << "'\n";
  } else {
    out << "Updated priority of an application  " << appId
        << " to cluster max priority OR keeping old priority as application is in final states\n";
  }
  return 0;
}

// ApplicationCLI.printApplicationAttemptReport.
int printAttemptReport(RmRestClient& rm, const std::string& attemptId, std::ostream& out,
                       std::ostream& err) {
  auto parsed = protocol::parseAttemptId(attemptId);
  if (!parsed) {
    err << "applicationattempt: " << parsed.status().message() << "\n";
    return 2;
  }
  const std::string app = protocol::toString(parsed->app);
  auto r = rm.get("/ws/v1/cluster/apps/" + app + "/appattempts/" + attemptId);
  if (!r) {
    err << (r.status().code() == StatusCode::kNotFound
                ? "Application Attempt with id '" + attemptId +
                      "' doesn't exist in RM or Timeline Server."
                : r.status().message())
        << "\n";
    return 1;
  }
  const json& at = (*r)["appAttempt"];
  // The tracking URL and AM address are the app's (its current attempt's).
  std::string tracking = "N/A", host = "N/A", port = "-1";
  if (auto a = rm.get("/ws/v1/cluster/apps/" + app)) {
    const json& aj = (*a)["app"];
    if (!str(aj, "trackingUrl").empty()) tracking = str(aj, "trackingUrl");
    const std::string rpc = str(aj, "amRPCAddress");
    const size_t colon = rpc.rfind(':');
    if (colon != std::string::npos) {
      host = rpc.substr(0, colon);
      port = rpc.substr(colon + 1);
    }
  }
  out << "Application Attempt Report : \n"
      << "\tApplicationAttempt-Id : " << str(at, "appAttemptId") << "\n"
      << "\tState : " << str(at, "appAttemptState") << "\n"
      << "\tAMContainer : " << str(at, "containerId") << "\n"
      << "\tTracking-URL : " << tracking << "\n"
      << "\tRPC Port : " << port << "\n"
      << "\tAM Host : " << host << "\n"
      << "\tDiagnostics : " << str(at, "diagnosticsInfo") << "\n";
  return 0;
}

int runContainer(const ContainerArgs& a, std::ostream& out, std::ostream& err) {
  auto rm = connectTo(a.conn);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  if (!a.status.empty()) {
    auto attempt = protocol::attemptOfContainer(a.status);
    if (!attempt) {
      err << "container: " << attempt.status().message() << "\n";
      return 2;
    }
    auto r = (*rm)->get("/ws/v1/cluster/apps/" + protocol::toString(attempt->app) +
                        "/appattempts/" + protocol::toString(*attempt) + "/containers/" + a.status);
    if (!r) {
      err << (r.status().code() == StatusCode::kNotFound
                  ? "Container with id '" + a.status + "' doesn't exist in RM or Timeline Server."
                  : r.status().message())
          << "\n";
      return 1;
    }
    // ApplicationCLI.printContainerReport.
    const json& c = (*r)["container"];
    const std::string http = str(c, "nodeHttpAddress");
    out << "Container Report : \n"
        << "\tContainer-Id : " << str(c, "containerId") << "\n"
        << "\tStart-Time : " << str(c, "startedTime") << "\n"
        << "\tFinish-Time : " << str(c, "finishedTime") << "\n"
        << "\tState : " << str(c, "containerState") << "\n"
        << "\tExecution-Type : GUARANTEED\n"
        << "\tLOG-URL : " << str(c, "logUrl") << "\n"
        << "\tHost : " << str(c, "assignedNodeId") << "\n"
        << "\tNodeHttpAddress : " << (http.empty() ? "N/A" : http) << "\n"
        << "\tDiagnostics : " << str(c, "diagnosticsInfo") << "\n";
    return 0;
  }
  if (a.list.empty()) {
    err << "container: one of -list <Application Attempt ID>, -status <Container ID> is needed\n";
    return 2;
  }
  auto parsed = protocol::parseAttemptId(a.list);
  if (!parsed) {
    err << "container: " << parsed.status().message() << "\n";
    return 2;
  }
  // ContainerState names (NEW, RUNNING, COMPLETE, SCHEDULED).
  std::set<std::string> states;
  for (const std::string& s : splitTrimmed(a.states, ",", " ")) {
    const std::string u = toUpper(s);
    if (u != "NEW" && u != "RUNNING" && u != "COMPLETE" && u != "SCHEDULED") {
      err << "container: the container state " << s
          << " is invalid (NEW, RUNNING, COMPLETE, SCHEDULED)\n";
      return 2;
    }
    states.insert(u);
  }
  auto r = (*rm)->get("/ws/v1/cluster/apps/" + protocol::toString(parsed->app) + "/appattempts/" +
                      a.list + "/containers");
  if (!r) {
    err << (r.status().code() == StatusCode::kNotFound
                ? "Application Attempt with id '" + a.list +
                      "' doesn't exist in RM or Timeline Server."
                : r.status().message())
        << "\n";
    return 1;
  }
  std::vector<json> shown;
  for (const json& c : (*r)["containers"]["container"]) {
    if (states.empty() || states.contains(str(c, "containerState"))) shown.push_back(c);
  }
  // ApplicationCLI.listContainers and its CONTAINER_PATTERN.
  constexpr const char* kPattern = "{:>30}\t{:>20}\t{:>20}\t{:>20}\t{:>20}\t{:>20}\t{:>35}\n";
  out << "Total number of containers :" << shown.size() << "\n";
  out << fmt::format(kPattern, "Container-Id", "Start Time", "Finish Time", "State", "Host",
                     "Node Http Address", "LOG-URL");
  for (const json& c : shown) {
    const std::string http = str(c, "nodeHttpAddress");
    out << fmt::format(kPattern, str(c, "containerId"), javaDate(num(c, "startedTime")),
                       javaDate(num(c, "finishedTime")), str(c, "containerState"),
                       str(c, "assignedNodeId"), http.empty() ? "N/A" : http, str(c, "logUrl"));
  }
  return 0;
}

namespace {

// RMAdminCLI.buildNodeLabelsFromStr: "x(exclusive=true),y".
Result<json> nodeLabelsBody(const std::string& spec) {
  json list = json::array();
  for (const std::string& item : splitTrimmed(spec, ",", " ")) {
    std::string name = item;
    bool exclusive = true;
    const size_t open = item.find('(');
    if (open != std::string::npos) {
      if (!item.ends_with(")")) return invalidArgument("'{}': a '(' without its ')'", item);
      name = trimmed(item.substr(0, open));
      const std::string inside = trimmed(item.substr(open + 1, item.size() - open - 2));
      const size_t eq = inside.find('=');
      const std::string key = trimmed(inside.substr(0, eq));
      const std::string value =
          eq == std::string::npos ? "" : lower(trimmed(inside.substr(eq + 1)));
      if (key != "exclusive" || (value != "true" && value != "false")) {
        return invalidArgument("'{}': only exclusive=true or exclusive=false may follow a label",
                               item);
      }
      exclusive = value == "true";
    }
    if (name.empty()) return invalidArgument("'{}': the label name is empty", item);
    list.push_back({{"name", name}, {"exclusivity", exclusive}});
  }
  if (list.empty()) return invalidArgument("no label given");
  return json{{"nodeLabelsInfo", {{"nodeLabelInfo", list}}}};
}

// RMAdminCLI.buildNodeLabelsMapFromStr: "host:port=x host2=y" (also ',' between a node's labels
// and ',' or ';' between entries is not allowed: entries are separated by spaces).
Result<json> nodeToLabelsBody(const std::string& spec) {
  json entries = json::array();
  for (const std::string& item : splitTrimmed(spec, " ", " ")) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return invalidArgument("'{}': expected node[:port]=label", item);
    }
    json labels = json::array();
    for (const std::string& l : splitTrimmed(item.substr(eq + 1), ",", " ")) {
      if (!l.empty()) labels.push_back(l);
    }
    if (labels.size() > 1) {
      return invalidArgument("'{}': a node belongs to one partition; give at most one label", item);
    }
    entries.push_back({{"nodeId", item.substr(0, eq)}, {"nodeLabels", labels}});
  }
  if (entries.empty()) return invalidArgument("no node given");
  return json{{"nodeToLabels", entries}};
}

}  // namespace

int runRmAdmin(const RmAdminArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
  auto rm = connectTo(a.conn);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  // RMAdminCLI prints "<command>: <message>" for a refused call.
  auto call = [&](const char* cmd, const std::string& path, const Result<json>& body) {
    if (!body) {
      err << cmd << ": " << body.status().message() << "\n";
      return 2;
    }
    auto r = (*rm)->post(path, *body);
    if (!r) {
      err << cmd << ": " << r.status().message() << "\n";
      return 1;
    }
    return 0;
  };
  int code = -1;
  if (a.refreshQueues) {
    code = call("refreshQueues", "/ws/v1/cluster/admin/refresh-queues", json::object());
    if (code != 0) return code;
  }
  if (!a.addLabels.empty()) {
    code = call("addToClusterNodeLabels", "/ws/v1/cluster/add-node-labels",
                nodeLabelsBody(a.addLabels));
    if (code != 0) return code;
  }
  if (!a.removeLabels.empty()) {
    std::string list;
    for (const std::string& l : splitTrimmed(a.removeLabels, ",", " ")) {
      list += (list.empty() ? "" : ",") + l;
    }
    code = call("removeFromClusterNodeLabels", "/ws/v1/cluster/remove-node-labels?labels=" + list,
                json::object());
    if (code != 0) return code;
  }
  if (!a.replaceLabels.empty()) {
    code = call("replaceLabelsOnNode", "/ws/v1/cluster/replace-node-to-labels",
                nodeToLabelsBody(a.replaceLabels));
    if (code != 0) return code;
  }
  if (code == -1) {
    err << "rmadmin: one of -refreshQueues, -addToClusterNodeLabels <labels>, "
           "-removeFromClusterNodeLabels <labels>, -replaceLabelsOnNode <node=label ...> is "
           "needed\n";
    return 2;
  }
  return 0;
}

}  // namespace spindle::client
