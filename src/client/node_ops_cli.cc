#include <algorithm>
#include <chrono>
#include <ostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "client/node_ops_commands.h"
#include "client/rm_client.h"
#include "protocol/http_server.h"
#include "protocol/rest_records.h"

namespace spindle::client {

using nlohmann::json;

namespace {

Result<RmRestClient*> connectRm(const Connection& c, std::unique_ptr<RmRestClient>& holder) {
  auto hp = resolveRmAddress(c.rm, c.confDir);
  if (!hp) return hp.status();
  holder = std::make_unique<RmRestClient>(std::move(*hp));
  return holder.get();
}

// One GET to a NodeManager; the body on 200.
Result<std::string> nmGet(protocol::HttpClient& nm, const std::string& path) {
  auto r = nm.get(path);
  if (!r) return r.status();
  if (r->status != 200) {
    return Status(r->status == 404 ? StatusCode::kNotFound : StatusCode::kInvalidArgument,
                  protocol::remoteExceptionMessage(r->body));
  }
  return r->body;
}

// LogToolUtils.formatContainerLogHeader and NMWebServices' footer.
void printLog(std::ostream& out, const std::string& container, const std::string& nodeId,
              const json& file, const std::string& content, bool running) {
  const std::string head = "Container: " + container + " on " + nodeId;
  const std::string name = file.value("fileName", "");
  out << head << "\n"
      << "LogAggregationType: LOCAL\n"
      << std::string(head.size(), '=') << "\n"
      << "LogType:" << name << "\n"
      << "LogLastModifiedTime:" << file.value("lastModifiedTime", "") << "\n"
      << "LogLength:" << content.size() << "\n"
      << "LogContents:\n"
      << content;
  const std::string end = "End of LogType:" + name;
  out << end << ".";
  if (running) {
    out << "This log file belongs to a running container (" << container
        << ") and so may not be complete.";
  }
  out << "\n" << std::string(end.size() + 50, '*') << "\n\n";
}

}  // namespace

int runLogs(const LogsArgs& a, std::ostream& out, std::ostream& err) {
  if (a.applicationId.empty()) {
    err << "logs: -applicationId <application ID> is needed\n";
    return 2;
  }
  std::unique_ptr<RmRestClient> holder;
  auto rm = connectRm(a.conn, holder);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  if (auto app = (*rm)->get("/ws/v1/cluster/apps/" + a.applicationId); !app) {
    err << (app.status().code() == StatusCode::kNotFound
                ? "Application with id '" + a.applicationId + "' doesn't exist in RM."
                : app.status().message())
        << "\n";
    return 1;
  }
  auto nodes = (*rm)->get("/ws/v1/cluster/nodes");
  if (!nodes) {
    err << nodes.status().message() << "\n";
    return 1;
  }
  const bool all = a.logFiles.empty() ||
                   std::find(a.logFiles.begin(), a.logFiles.end(), "ALL") != a.logFiles.end();
  int printed = 0;
  bool containerFound = false;
  for (const json& n : (*nodes)["nodes"]["node"]) {
    const std::string http = n.value("nodeHTTPAddress", "");
    auto hp = protocol::parseHostPort(http, "nodeHTTPAddress");
    if (!hp) continue;
    protocol::HttpClient nm(hp->first, hp->second, 10'000);
    auto app = nmGet(nm, "/ws/v1/node/apps/" + a.applicationId);
    if (!app) continue;  // not on this node, or the node is gone
    const json ids = json::parse(*app, nullptr, false)["app"].value("containerids", json::array());
    for (const json& idj : ids) {
      const std::string id = idj.get<std::string>();
      if (!a.containerId.empty() && id != a.containerId) continue;
      containerFound = true;
      auto info = nmGet(nm, "/ws/v1/node/containers/" + id);
      const bool running =
          info && json::parse(*info, nullptr, false)["container"].value("state", "") == "RUNNING";
      auto files = nmGet(nm, "/ws/v1/node/containers/" + id + "/logs");
      if (!files) {
        err << "Can not get the log files of " << id << " from " << http << ": "
            << files.status().message() << "\n";
        continue;
      }
      const json meta = json::parse(*files, nullptr, false);
      if (!meta.is_array() || meta.empty()) continue;
      for (const json& f : meta[0].value("containerLogInfo", json::array())) {
        const std::string name = f.value("fileName", "");
        if (!all && std::find(a.logFiles.begin(), a.logFiles.end(), name) == a.logFiles.end()) {
          continue;
        }
        auto content = nmGet(nm, "/ws/v1/node/containerlogs/" + id + "/" + name);
        if (!content) continue;
        printLog(out, id, n.value("id", http), f, *content, running);
        ++printed;
      }
    }
  }
  if (!a.containerId.empty() && !containerFound) {
    err << "Can not find the container:" << a.containerId << " in any of the nodes of "
        << a.applicationId << "\n";
    return 1;
  }
  if (printed == 0) {
    err << "Can not find any log file matching the pattern: ["
        << (all ? std::string("ALL") : a.logFiles.front())
        << "] for the application: " << a.applicationId << "\n";
    return 1;
  }
  return 0;
}

int runRefreshNodes(const RefreshNodesArgs& a, std::ostream& out, std::ostream& err) {
  if (!a.refreshNodes) {
    err << "rmadmin: -refreshNodes is needed\n";
    return 2;
  }
  if (!a.tracking.empty() && a.tracking != "client" && a.tracking != "server") {
    err << "rmadmin: -refreshNodes tracking mode must be -client or -server\n";
    return 2;
  }
  if (a.timeoutS && *a.timeoutS < -1) {
    err << "rmadmin: -refreshNodes -g timeout must be seconds or -1, got " << *a.timeoutS << "\n";
    return 2;
  }
  std::unique_ptr<RmRestClient> holder;
  auto rm = connectRm(a.conn, holder);
  if (!rm) {
    err << rm.status().message() << "\n";
    return 2;
  }
  json body = {{"decommissionType", a.graceful ? "GRACEFUL" : "NORMAL"}};
  // Client tracking: the RM gets no timeout; this client forces the refresh when it passes.
  if (a.graceful && a.tracking == "client") {
    body["decommissionTimeout"] = -1;
  } else if (a.graceful && a.timeoutS) {
    body["decommissionTimeout"] = *a.timeoutS;
  }
  auto r = (*rm)->post("/ws/v1/cluster/admin/refresh-nodes", body);
  if (!r) {
    err << "refreshNodes: " << r.status().message() << "\n";
    return 1;
  }
  if (!a.graceful || a.tracking != "client") return 0;
  // RMAdminCLI's client-side tracking: wait for the DECOMMISSIONING nodes, then force them.
  const int64_t timeout = a.timeoutS.value_or(-1);
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    auto left = (*rm)->get("/ws/v1/cluster/nodes?states=DECOMMISSIONING");
    if (!left) {
      err << left.status().message() << "\n";
      return 1;
    }
    if ((*left)["nodes"]["node"].empty()) {
      out << "Graceful decommissioning completed in "
          << std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                              start)
                 .count()
          << " seconds.\n";
      return 0;
    }
    if (timeout >= 0 && std::chrono::steady_clock::now() - start >= std::chrono::seconds(timeout)) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(a.pollMs));
  }
  out << "Graceful decommissioning not completed in " << timeout << " seconds.\n"
      << "Forcefully decommissioning remaining nodes.\n";
  auto f =
      (*rm)->post("/ws/v1/cluster/admin/refresh-nodes", json{{"decommissionType", "FORCEFUL"}});
  if (!f) {
    err << "refreshNodes: " << f.status().message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace spindle::client
