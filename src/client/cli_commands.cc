// `spindle application` and `spindle node`, printing what YARN's ApplicationCLI and NodeCLI
// print.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "base/strings.h"
#include "client/commands.h"
#include "client/rm_client.h"

namespace spindle::client {

using nlohmann::json;

namespace {

// ApplicationCLI's APPLICATIONS_PATTERN and NodeCLI's NODES_PATTERN.
constexpr const char* kAppsPattern =
    "{:>30}\t{:>20}\t{:>20}\t{:>10}\t{:>10}\t{:>18}\t{:>18}\t{:>15}\t{:>35}\n";
constexpr const char* kNodesPattern = "{:>16}\t{:>15}\t{:>17}\t{:>28}\n";

std::string bracketList(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s + "]";
}

// DecimalFormat("###.##%") of a 0..1 fraction.
std::string percent(double fraction) {
  std::string s = fmt::format("{:.2f}", std::round(fraction * 10000.0) / 100.0);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + "%";
}

std::string str(const json& j, const char* key, const char* def = "") {
  if (!j.contains(key) || j[key].is_null()) return def;
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

Result<RmRestClient*> connect(const Connection& c, std::unique_ptr<RmRestClient>& holder) {
  auto hp = resolveRmAddress(c.rm, c.confDir);
  if (!hp) return hp.status();
  holder = std::make_unique<RmRestClient>(*hp);
  return holder.get();
}

int printAppReport(RmRestClient& rm, const std::string& id, std::ostream& out, std::ostream& err) {
  auto r = rm.get("/ws/v1/cluster/apps/" + id);
  if (!r) {
    if (r.status().code() == StatusCode::kNotFound) {
      err << "Application with id '" << id << "' doesn't exist in RM.\n";
    } else {
      err << r.status().message() << "\n";
    }
    return 1;
  }
  const json& a = (*r)["app"];
  const std::string tracking = str(a, "trackingUrl");
  const std::string rpc = str(a, "amRPCAddress");
  const size_t colon = rpc.rfind(':');
  out << "Application Report : \n"
      << "\tApplication-Id : " << str(a, "id") << "\n"
      << "\tApplication-Name : " << str(a, "name") << "\n"
      << "\tApplication-Type : " << str(a, "applicationType") << "\n"
      << "\tUser : " << str(a, "user") << "\n"
      << "\tQueue : " << str(a, "queue") << "\n"
      << "\tApplication Priority : " << str(a, "priority") << "\n"
      << "\tStart-Time : " << str(a, "startedTime") << "\n"
      << "\tFinish-Time : " << str(a, "finishedTime") << "\n"
      << "\tProgress : " << percent(a.value("progress", 0.0) / 100.0) << "\n"
      << "\tState : " << str(a, "state") << "\n"
      << "\tFinal-State : " << str(a, "finalStatus") << "\n"
      << "\tTracking-URL : " << (tracking.empty() ? "N/A" : tracking) << "\n"
      << "\tRPC Port : " << (colon == std::string::npos ? "-1" : rpc.substr(colon + 1)) << "\n"
      << "\tAM Host : " << (colon == std::string::npos ? "N/A" : rpc.substr(0, colon)) << "\n"
      << "\tAggregate Resource Allocation : " << str(a, "memorySeconds") << " MB-seconds, "
      << str(a, "vcoreSeconds") << " vcore-seconds\n"
      << "\tAggregate Resource Preempted : " << str(a, "preemptedMemorySeconds", "0")
      << " MB-seconds, " << str(a, "preemptedVcoreSeconds", "0") << " vcore-seconds\n"
      << "\tLog Aggregation Status : DISABLED\n"
      << "\tDiagnostics : " << str(a, "diagnostics") << "\n"
      << "\tUnmanaged Application : " << str(a, "unmanagedApplication", "false") << "\n"
      << "\tApplication Node Label Expression : <Not set>\n"
      << "\tAM container Node Label Expression : "
      << (str(a, "amNodeLabelExpression").empty() ? "<DEFAULT_PARTITION>"
                                                  : str(a, "amNodeLabelExpression"))
      << "\n"
      << "\tTimeoutType : LIFETIME\tExpiryTime : UNLIMITED\tRemainingTime : -1seconds\n";
  return 0;
}

// NodeCLI's date format for Last-Health-Update ("E dd/MMM/yy hh:mm:ss:SSzz"), in UTC.
std::string healthDate(int64_t ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%a %d/%b/%y %I:%M:%S", &tm);
  return fmt::format("{}:{:02d}UTC", buf, (ms % 1000) / 10);
}

// NodeCLI's Node Attributes lines: NodeAttribute's toString, the first on the header's line,
// the others indented below it; an empty line without attributes.
std::string nodeAttributesLines(const json& n) {
  std::string out;
  const json info = n.value("nodeAttributesInfo", json::object());
  for (const json& a : info.value("nodeAttributeInfo", json::array())) {
    if (!out.empty()) out += "\t                  ";
    out += fmt::format("Prefix-{} :Name-{}:Value-{}:Type-{}\n", str(a, "prefix"), str(a, "name"),
                       str(a, "value"), str(a, "type"));
  }
  return out.empty() ? "\n" : out;
}

// NodeCLI's "Resource Utilization by Node / by Containers" lines from resourceUtilization.
std::string utilizationLines(const json& u) {
  auto mb = [&u](const char* k) { return u.value(k, int64_t{0}); };
  auto cpu = [&u](const char* k) { return u.value(k, 0.0); };
  return fmt::format(
      "\tResource Utilization by Node : PMem:{} MB, VMem:{} MB, VCores:{:.1f}\n"
      "\tResource Utilization by Containers : PMem:{} MB, VMem:{} MB, VCores:{:.1f}\n",
      mb("nodePhysicalMemoryMB"), mb("nodeVirtualMemoryMB"), cpu("nodeCPUUsage"),
      mb("aggregatedContainersPhysicalMemoryMB"), mb("aggregatedContainersVirtualMemoryMB"),
      cpu("containersCPUUsage"));
}

int printNodeReport(RmRestClient& rm, const std::string& id, std::ostream& out, std::ostream& err) {
  auto r = rm.get("/ws/v1/cluster/nodes/" + id);
  if (!r) {
    if (r.status().code() == StatusCode::kNotFound) {
      err << "Could not find the node report for node id : " << id << "\n";
    } else {
      err << r.status().message() << "\n";
    }
    return 1;
  }
  const json& n = (*r)["node"];
  std::string labels;
  for (const json& l : n.value("nodeLabels", json::array())) {
    if (!labels.empty()) labels += ",";
    labels += l.get<std::string>();
  }
  const json& total = n["totalResource"];
  out << "Node Report : \n"
      << "\tNode-Id : " << str(n, "id") << "\n"
      << "\tRack : " << str(n, "rack") << "\n"
      << "\tNode-State : " << str(n, "state") << "\n"
      << "\tNode-Http-Address : " << str(n, "nodeHTTPAddress") << "\n"
      << "\tLast-Health-Update : " << healthDate(n.value("lastHealthUpdate", int64_t{0})) << "\n"
      << "\tHealth-Report : " << str(n, "healthReport") << "\n"
      << "\tContainers : " << str(n, "numContainers") << "\n"
      << "\tMemory-Used : " << str(n, "usedMemoryMB") << "MB\n"
      << "\tMemory-Capacity : " << str(total, "memory") << "MB\n"
      << "\tCPU-Used : " << str(n, "usedVirtualCores") << " vcores\n"
      << "\tCPU-Capacity : " << str(total, "vCores") << " vcores\n"
      << "\tNode-Labels : " << labels << "\n"
      << "\tNode Attributes : " << nodeAttributesLines(n)
      << utilizationLines(n.value("resourceUtilization", json::object()));
  return 0;
}

// The queue named `name` (a leaf name or a full path) in a scheduler view's tree, or null.
const json* findQueue(const json& q, const std::string& name) {
  if (!q.is_object()) return nullptr;
  const std::string qn = str(q, "queueName"), path = str(q, "queuePath");
  if (qn == name || path == name || (qn.size() > name.size() && qn.ends_with("." + name))) {
    return &q;
  }
  for (const char* children : {"queues", "childQueues"}) {
    if (!q.contains(children) || !q[children].contains("queue")) continue;
    for (const json& c : q[children]["queue"]) {
      if (const json* found = findQueue(c, name)) return found;
    }
  }
  return nullptr;
}

// QueueCLI's DecimalFormat("#.0") of a percentage: ".0", "12.5", "100.0".
std::string capacityPercent(const json& q, const char* key) {
  if (!q.contains(key) || !q[key].is_number()) return "N/A";
  std::string s = fmt::format("{:.1f}", q[key].get<double>());
  if (s.starts_with("0.")) s.erase(0, 1);
  return s + "%";
}

}  // namespace

int runQueue(const QueueArgs& a, std::ostream& out, std::ostream& err) {
  std::unique_ptr<RmRestClient> holder;
  auto rm = connect(a.conn, holder);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  if (a.status.empty()) {
    err << "queue: -status <queue> is needed\n";
    return 2;
  }
  auto r = (*rm)->get("/ws/v1/cluster/scheduler");
  if (!r) {
    err << r.status().message() << "\n";
    return 1;
  }
  const json& info = (*r)["scheduler"]["schedulerInfo"];
  const json* q = findQueue(info.contains("rootQueue") ? info["rootQueue"] : info, a.status);
  if (q == nullptr) {
    err << "Cannot get queue from RM by queueName = " << a.status << ", please check.\n";
    return 1;
  }
  const bool preemptionDisabled = q->value("preemptionDisabled", true);
  const bool intraDisabled = q->value("intraQueuePreemptionDisabled", true);
  out << "Queue Information : \n"
      << "Queue Name : " << a.status << "\n"
      << "\tState : " << str(*q, "state", "RUNNING") << "\n"
      << "\tCapacity : " << capacityPercent(*q, "capacity") << "\n"
      << "\tCurrent Capacity : " << capacityPercent(*q, "usedCapacity") << "\n"
      << "\tMaximum Capacity : " << capacityPercent(*q, "maxCapacity") << "\n"
      << "\tDefault Node Label expression : <DEFAULT_PARTITION>\n"
      << "\tAccessible Node Labels : *\n"
      << "\tPreemption : " << (preemptionDisabled ? "disabled" : "enabled") << "\n"
      << "\tIntra-queue Preemption : " << (intraDisabled ? "disabled" : "enabled") << "\n";
  return 0;
}

int runApplication(const ApplicationArgs& a, std::ostream& out, std::ostream& err) {
  std::unique_ptr<RmRestClient> holder;
  auto rm = connect(a.conn, holder);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  if (!a.status.empty()) return printAppReport(**rm, a.status, out, err);
  if (!a.updatePriority.empty()) {
    if (a.appId.empty()) {
      err << "application: -updatePriority needs -appId <Application ID>\n";
      return 2;
    }
    return runUpdatePriority(**rm, a.appId, a.updatePriority, out, err);
  }
  if (!a.moveToQueue.empty() || !a.appId.empty()) {
    const std::string id = a.moveToQueue.empty() ? a.appId : a.moveToQueue;
    if (a.queue.empty()) {
      err << "application: moving " << id << " needs -queue <queue> (or -changeQueue <queue>)\n";
      return 2;
    }
    out << "Moving application " << id << " to queue " << a.queue << "\n";
    auto r = (*rm)->put("/ws/v1/cluster/apps/" + id + "/queue", json{{"queue", a.queue}});
    if (!r) {
      err << r.status().message() << "\n";
      return 1;
    }
    out << "Successfully completed move.\n";
    return 0;
  }
  if (!a.kill.empty()) {
    int code = 0;
    for (const std::string& id : a.kill) {
      auto state = (*rm)->get("/ws/v1/cluster/apps/" + id + "/state");
      if (!state) {
        err << (state.status().code() == StatusCode::kNotFound
                    ? "Application with id '" + id + "' doesn't exist in RM."
                    : state.status().message())
            << "\n";
        code = 1;
        continue;
      }
      const std::string s = str(*state, "state");
      if (s == "FINISHED" || s == "FAILED" || s == "KILLED") {
        out << "Application " << id << " has already finished \n";
        continue;
      }
      out << "Killing application " << id << "\n";
      auto k = (*rm)->put("/ws/v1/cluster/apps/" + id + "/state", json{{"state", "KILLED"}});
      if (!k) {
        err << k.status().message() << "\n";
        code = 1;
      }
    }
    return code;
  }
  if (!a.list) {
    err << "application: one of -list, -status <Application ID>, -kill <Application ID> is "
           "needed\n";
    return 2;
  }
  std::vector<std::string> states;
  bool all = false;
  for (const std::string& s : splitTrimmed(a.appStates, ",", " ")) {
    if (toUpper(s) == "ALL") all = true;
    states.push_back(toUpper(s));
  }
  if (all) {
    states = {"NEW",     "NEW_SAVING", "SUBMITTED", "ACCEPTED",
              "RUNNING", "FINISHED",   "FAILED",    "KILLED"};
  } else if (states.empty()) {
    states = {"SUBMITTED", "ACCEPTED", "RUNNING"};
  }
  std::vector<std::string> types;
  for (const std::string& t : splitTrimmed(a.appTypes, ",", " ")) types.push_back(toUpper(t));
  std::string path = "/ws/v1/cluster/apps?states=";
  for (size_t i = 0; i < states.size(); ++i) path += (i ? "," : "") + states[i];
  if (!types.empty()) {
    path += "&applicationTypes=";
    for (size_t i = 0; i < types.size(); ++i) path += (i ? "," : "") + types[i];
  }
  auto r = (*rm)->get(path);
  if (!r) {
    err << r.status().message() << "\n";
    return 1;
  }
  const json& apps = (*r)["apps"]["app"];
  out << "Total number of applications (application-types: " << bracketList(types)
      << ", states: " << bracketList(states) << " and tags: []):" << apps.size() << "\n";
  out << fmt::format(kAppsPattern, "Application-Id", "Application-Name", "Application-Type", "User",
                     "Queue", "State", "Final-State", "Progress", "Tracking-URL");
  for (const json& app : apps) {
    const std::string tracking = str(app, "trackingUrl");
    out << fmt::format(kAppsPattern, str(app, "id"), str(app, "name"), str(app, "applicationType"),
                       str(app, "user"), str(app, "queue"), str(app, "state"),
                       str(app, "finalStatus"), percent(app.value("progress", 0.0) / 100.0),
                       tracking.empty() ? "N/A" : tracking);
  }
  return 0;
}

int runApplicationAttempt(const AttemptArgs& a, std::ostream& out, std::ostream& err) {
  std::unique_ptr<RmRestClient> holder;
  auto rm = connect(a.conn, holder);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  if (!a.status.empty()) return printAttemptReport(**rm, a.status, out, err);
  if (a.list.empty()) {
    err << "applicationattempt: one of -list <Application ID>, -status <Application Attempt ID> "
           "is needed\n";
    return 2;
  }
  auto r = (*rm)->get("/ws/v1/cluster/apps/" + a.list + "/appattempts");
  if (!r) {
    err << (r.status().code() == StatusCode::kNotFound
                ? "Application with id '" + a.list + "' doesn't exist in RM."
                : r.status().message())
        << "\n";
    return 1;
  }
  const json& attempts = (*r)["appAttempts"]["appAttempt"];
  out << "Total number of application attempts :" << attempts.size() << "\n";
  // ApplicationCLI's APPLICATION_ATTEMPTS_PATTERN.
  constexpr const char* kPattern = "{:>30}\t{:>20}\t{:>35}\t{:>35}\n";
  out << fmt::format(kPattern, "ApplicationAttempt-Id", "State", "AM-Container-Id", "Tracking-URL");
  for (const json& at : attempts) {
    out << fmt::format(kPattern, str(at, "appAttemptId"), str(at, "appAttemptState"),
                       str(at, "containerId"), "N/A");
  }
  return 0;
}

int runNode(const NodeArgs& a, std::ostream& out, std::ostream& err) {
  std::unique_ptr<RmRestClient> holder;
  auto rm = connect(a.conn, holder);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  if (!a.status.empty()) return printNodeReport(**rm, a.status, out, err);
  if (!a.list) {
    err << "node: one of -list, -status <NodeId> is needed\n";
    return 2;
  }
  std::string path = "/ws/v1/cluster/nodes";
  if (!a.all) path += "?states=" + (a.states.empty() ? std::string("RUNNING") : toUpper(a.states));
  auto r = (*rm)->get(path);
  if (!r) {
    err << r.status().message() << "\n";
    return 1;
  }
  const json& nodes = (*r)["nodes"]["node"];
  out << "Total Nodes:" << nodes.size() << "\n";
  out << fmt::format(kNodesPattern, "Node-Id", "Node-State", "Node-Http-Address",
                     "Number-of-Running-Containers");
  for (const json& n : nodes) {
    out << fmt::format(kNodesPattern, str(n, "id"), str(n, "state"), str(n, "nodeHTTPAddress"),
                       str(n, "numContainers"));
  }
  return 0;
}

}  // namespace spindle::client
