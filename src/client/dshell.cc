// `spindle dshell`: YARN's distributed shell. The client (Client.java) submits an AM whose
// launch command is this binary with --am; the AM (ApplicationMaster.java) asks for the
// containers, starts the shell command in each on its node, re-asks for containers the
// cluster lost (ABORTED, PREEMPTED), and finishes SUCCEEDED when every container exited 0.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ostream>
#include <thread>

#include <fmt/format.h>

#include "app/container_state.h"
#include "client/commands.h"
#include "client/rm_client.h"
#include "protocol/yarn_ids.h"

namespace spindle::client {

using nlohmann::json;

namespace {

// How often the client polls the app report and the AM heartbeats the RM (YARN's dshell uses
// 1 s for both; shorter keeps small jobs quick).
constexpr auto kPollInterval = std::chrono::milliseconds(200);

std::string selfPath() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "spindle";
}

std::string env(const char* name, const std::string& def = "") {
  const char* v = std::getenv(name);
  return v ? v : def;
}

int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int runAm(std::ostream& out, std::ostream& err) {
  const std::string containerId = env("CONTAINER_ID");
  auto attempt = protocol::attemptOfContainer(containerId);
  if (!attempt) {
    err << "dshell AM: CONTAINER_ID: " << attempt.status().message() << "\n";
    return 2;
  }
  auto rmAddr = protocol::parseHostPort(env("SPINDLE_RM_ADDRESS"), "SPINDLE_RM_ADDRESS");
  if (!rmAddr) {
    err << "dshell AM: " << rmAddr.status().message() << "\n";
    return 2;
  }
  const std::string command = env("DSHELL_SHELL_COMMAND");
  const int32_t total = std::atoi(env("DSHELL_NUM_CONTAINERS", "1").c_str());
  const int64_t memory = std::atoll(env("DSHELL_CONTAINER_MEMORY", "10").c_str());
  const int64_t vcores = std::atoll(env("DSHELL_CONTAINER_VCORES", "1").c_str());
  const int32_t priority = std::atoi(env("DSHELL_PRIORITY", "0").c_str());
  std::map<std::string, std::string> shellEnv;
  for (const std::string& kv : {env("DSHELL_SHELL_ENV")}) {
    size_t start = 0;
    while (start < kv.size()) {
      size_t nl = kv.find('\n', start);
      if (nl == std::string::npos) nl = kv.size();
      const std::string item = kv.substr(start, nl - start);
      const size_t eq = item.find('=');
      if (eq != std::string::npos) shellEnv[item.substr(0, eq)] = item.substr(eq + 1);
      start = nl + 1;
    }
  }
  const std::string attemptId = protocol::toString(*attempt);
  AmRmClient rm(rmAddr->first, rmAddr->second, attemptId);
  NmClient nm;
  out << "dshell AM " << attemptId << ": " << total << " containers of <memory:" << memory
      << ", vCores:" << vcores << "> running: " << command << std::endl;
  auto reg = rm.registerAm(env("NM_HOST", "127.0.0.1"), "");
  if (!reg) {
    err << "dshell AM: register: " << reg.status().message() << "\n";
    return 1;
  }
  int32_t allocated = 0, succeeded = 0, failed = 0;
  std::string lastFailure;
  while (succeeded + failed < total) {
    std::vector<protocol::ResourceRequest> asks;
    // Asks are absolute: the number still wanted, every call.
    asks.push_back({priority, "*", {memory, vcores}, std::max(0, total - allocated), true, "", 0});
    auto r = rm.allocate(std::move(asks), {},
                         static_cast<double>(succeeded + failed) / std::max(total, 1));
    if (!r) {
      err << "dshell AM: allocate: " << r.status().message() << "\n";
      return 1;
    }
    if (r->amCommand) {
      err << "dshell AM: the RM sent " << protocol::toString(*r->amCommand) << "\n";
      return 1;
    }
    std::vector<std::string> surplus;
    for (const protocol::Container& c : r->allocatedContainers) {
      if (allocated >= total) {
        surplus.push_back(c.id);
        continue;
      }
      ++allocated;
      protocol::StartContainerRequest start;
      start.containerId = c.id;
      start.resource = c.resource;
      start.containerLaunchContext.commands = {command};
      start.containerLaunchContext.environment = shellEnv;
      out << "Launching shell command on a new container., containerId=" << c.id
          << ", containerNode=" << c.nodeId << std::endl;
      if (Status s = nm.startContainer(c.nodeHttpAddress, start); !s.isOk()) {
        out << "Failed to start container " << c.id << ": " << s.message() << std::endl;
        ++failed;
        lastFailure = s.message();
      }
    }
    for (const protocol::ContainerStatus& s : r->completedContainerStatuses) {
      out << "Got container status for containerID=" << s.containerId
          << ", state=" << protocol::toString(s.state) << ", exitStatus=" << s.exitStatus
          << ", diagnostics=" << s.diagnostics << std::endl;
      if (s.exitStatus == 0) {
        ++succeeded;
      } else if (s.exitStatus == ContainerExitStatus::ABORTED ||
                 s.exitStatus == ContainerExitStatus::PREEMPTED) {
        --allocated;  // lost by the cluster, not by the command: ask again
      } else {
        ++failed;
        lastFailure = s.diagnostics;
      }
    }
    if (!surplus.empty()) {
      auto rel = rm.allocate({}, surplus, static_cast<double>(succeeded + failed) / total);
      if (!rel) {
        err << "dshell AM: release: " << rel.status().message() << "\n";
        return 1;
      }
    }
    if (succeeded + failed < total) std::this_thread::sleep_for(kPollInterval);
  }
  const bool ok = failed == 0;
  const std::string diag =
      ok ? ""
         : fmt::format("Diagnostics., total={}, completed={}, allocated={}, failed={}. {}", total,
                       succeeded + failed, allocated, failed, lastFailure);
  auto fin = rm.finish(
      ok ? protocol::FinalApplicationStatus::SUCCEEDED : protocol::FinalApplicationStatus::FAILED,
      diag);
  if (!fin) {
    err << "dshell AM: finish: " << fin.status().message() << "\n";
    return 1;
  }
  out << "Application Master "
      << (ok ? std::string("completed successfully") : fmt::format("failed: {}", diag))
      << std::endl;
  return ok ? 0 : 1;
}

}  // namespace

int runDshell(const DshellArgs& a, std::ostream& out, std::ostream& err) {
  if (a.am) return runAm(out, err);
  if (!a.placementSpec.empty()) {
    err << "dshell: -placement_spec: placement constraints are not served by the daemon yet; "
           "submit without it\n";
    return 2;
  }
  if (a.shellCommand.empty()) {
    err << "dshell: -shell_command is required\n";
    return 2;
  }
  if (a.numContainers < 1) {
    err << "dshell: -num_containers must be at least 1, got " << a.numContainers << "\n";
    return 2;
  }
  if (a.containerMemory < 0 || a.containerVcores < 0 || a.masterMemory <= 0 ||
      a.masterVcores <= 0) {
    err << "dshell: container and master resources must be positive\n";
    return 2;
  }
  auto hp = resolveRmAddress(a.conn.rm, a.conn.confDir);
  if (!hp) {
    err << "dshell: " << hp.status().message() << "\n";
    return 2;
  }
  RmRestClient rm(hp->first, hp->second);
  auto fresh = rm.post("/ws/v1/cluster/apps/new-application", json::object());
  if (!fresh) {
    err << "dshell: " << fresh.status().message() << "\n";
    return 1;
  }
  const std::string appId = (*fresh)["application-id"];
  std::string shellEnv;
  for (const std::string& kv : a.shellEnv) shellEnv += kv + "\n";
  json envEntries = json::array();
  auto add = [&](const char* k, const std::string& v) {
    envEntries.push_back({{"key", k}, {"value", v}});
  };
  add("DSHELL_SHELL_COMMAND", a.shellCommand);
  add("DSHELL_NUM_CONTAINERS", std::to_string(a.numContainers));
  add("DSHELL_CONTAINER_MEMORY", std::to_string(a.containerMemory));
  add("DSHELL_CONTAINER_VCORES", std::to_string(a.containerVcores));
  add("DSHELL_PRIORITY", std::to_string(a.priority));
  add("DSHELL_SHELL_ENV", shellEnv);
  const json ctx = {{"application-id", appId},
                    {"application-name", a.appName},
                    {"queue", a.queue},
                    {"priority", a.priority},
                    {"application-type", "YARN"},
                    {"resource", {{"memory", a.masterMemory}, {"vCores", a.masterVcores}}},
                    {"am-container-spec",
                     {{"commands", {{"command", fmt::format("'{}' dshell --am", selfPath())}}},
                      {"environment", {{"entry", envEntries}}}}}};
  auto sub = rm.post("/ws/v1/cluster/apps", ctx);
  if (!sub) {
    err << "dshell: submit: " << sub.status().message() << "\n";
    return 1;
  }
  out << "Submitted application " << appId << std::endl;
  const int64_t deadline = nowMs() + a.timeoutMs;
  std::string lastState;
  while (true) {
    auto r = rm.get("/ws/v1/cluster/apps/" + appId);
    if (!r) {
      err << "dshell: " << r.status().message() << "\n";
      return 1;
    }
    const json& app = (*r)["app"];
    const std::string state = app["state"];
    const std::string finalStatus = app["finalStatus"];
    if (state != lastState) {
      out << "Got application report from ASM for, appId=" << appId << ", state=" << state
          << ", finalStatus=" << finalStatus << std::endl;
      lastState = state;
    }
    if (state == "FINISHED" || state == "FAILED" || state == "KILLED") {
      if (finalStatus == "SUCCEEDED") {
        out << "Application has completed successfully. Breaking monitoring loop" << std::endl;
        return 0;
      }
      out << "Application did finished unsuccessfully. YarnState=" << state
          << ", DSFinalStatus=" << finalStatus << ". Breaking monitoring loop" << std::endl;
      const std::string diag = app.value("diagnostics", "");
      if (!diag.empty()) out << "Diagnostics: " << diag << std::endl;
      return 1;
    }
    if (nowMs() > deadline) {
      out << "Reached client specified timeout for application. Killing application" << std::endl;
      (void)rm.put("/ws/v1/cluster/apps/" + appId + "/state", json{{"state", "KILLED"}});
      return 1;
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace spindle::client
