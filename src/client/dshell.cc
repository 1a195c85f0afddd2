// `spindle dshell`: YARN's distributed shell. The client (Client.java) submits an AM whose
// launch command is this binary with --am; the AM (ApplicationMaster.java) asks for the
// containers, starts the shell command in each on its node, re-asks for containers the
// cluster lost (ABORTED, PREEMPTED), and finishes SUCCEEDED when every container exited 0.
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "app/container_state.h"
#include "base/strings.h"
#include "client/commands.h"
#include "client/rm_client.h"
#include "placement/spec_parser.h"
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

// One item of -placement_spec: `count` containers tagged `tag` under `expression` (the
// PlacementSpec expression text; "" for a bare `tag(n)`). A lone node-attribute expression has
// no tag and -num_containers containers, as DistributedShell's parsePlacementSpecs reads it.
struct PlacementItem {
  std::string tag;
  int32_t count = 0;
  std::string expression;
};

// Splits on ':' outside parentheses, as the PlacementSpec tokenizer does.
std::vector<std::string> specItems(std::string_view spec) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : spec) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c == ':' && depth == 0) {
      out.emplace_back();
      continue;
    }
    out.back() += c;
  }
  return out;
}

// YARN 3.1's DistributedShell wrote a source tag as `tag=n` ("zk=3,NOTIN,NODE,zk"); the newer
// parser reads `tag(n)`. An item `tag=n,<in|notin|cardinality|and|or>...` is rewritten so both
// forms work; anything else (a node-attribute expression such as `java=1.8`) is left alone.
std::string newerForm(const std::string& item) {
  const size_t eq = item.find('=');
  const size_t comma = item.find(',');
  if (eq == std::string::npos || comma == std::string::npos || eq > comma || eq == 0) return item;
  const std::string tag = item.substr(0, eq);
  const std::string count = item.substr(eq + 1, comma - eq - 1);
  if (tag.find_first_of("()!") != std::string::npos || count.empty() ||
      count.find_first_not_of("0123456789") != std::string::npos) {
    return item;
  }
  std::string rest = item.substr(comma + 1);
  std::string lower = rest;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* kw : {"in,", "notin,", "cardinality,", "and(", "or("}) {
    if (lower.starts_with(kw)) return tag + "(" + count + ")," + rest;
  }
  return item;
}

Result<std::vector<PlacementItem>> parsePlacement(const std::string& spec, int32_t numContainers) {
  std::vector<std::string> items = specItems(spec);
  std::string normalized;
  for (std::string& item : items) {
    item = newerForm(item);
    normalized += (normalized.empty() ? "" : ":") + item;
  }
  SPINDLE_ASSIGN_OR_RETURN(placement::PlacementSpec parsed,
                           placement::parsePlacementSpec(normalized));
  if (parsed.size() != items.size()) {
    return invalidArgument("-placement_spec '{}': {} items, the parser read {}", spec, items.size(),
                           parsed.size());
  }
  std::vector<PlacementItem> out;
  for (size_t i = 0; i < parsed.size(); ++i) {
    PlacementItem p;
    if (parsed[i].sourceTags.empty()) {
      p.count = numContainers;
      p.expression = items[i];
    } else {
      p.tag = parsed[i].sourceTags.tag;
      p.count = parsed[i].sourceTags.numAllocations;
      const size_t end = items[i].find("),");
      if (end != std::string::npos) p.expression = items[i].substr(end + 2);
    }
    if (p.count < 0) return invalidArgument("-placement_spec: negative count for '{}'", items[i]);
    out.push_back(std::move(p));
  }
  return out;
}

int runAm(std::ostream& out, std::ostream& err) {
  const std::string containerId = env("CONTAINER_ID");
  auto attempt = protocol::attemptOfContainer(containerId);
  if (!attempt) {
    err << "dshell AM: CONTAINER_ID: " << attempt.status().message() << "\n";
    return 2;
  }
  auto rmAddr = protocol::parseHostPortList(env("SPINDLE_RM_ADDRESS"), "SPINDLE_RM_ADDRESS");
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
  AmRmClient rm(*rmAddr, attemptId);
  NmClient nm;
  out << "dshell AM " << attemptId << ": " << total << " containers of <memory:" << memory
      << ", vCores:" << vcores << "> running: " << command << std::endl;
  // -placement_spec (DistributedShell's placementSpecs): the constraints of tagged items are
  // registered per source tag; every container is one SchedulingRequest of one allocation
  // with its own allocationRequestId; a lone attribute expression is the requests' own.
  std::vector<PlacementItem> placement;
  std::vector<protocol::PlacementConstraintEntry> registered;
  if (const std::string spec = env("DSHELL_PLACEMENT_SPEC"); !spec.empty()) {
    auto p = parsePlacement(spec, total);
    if (!p) {
      err << "dshell AM: " << p.status().message() << "\n";
      return 2;
    }
    placement = std::move(*p);
    for (const PlacementItem& i : placement) {
      if (!i.tag.empty() && !i.expression.empty()) registered.push_back({{i.tag}, i.expression});
    }
  }
  int64_t nextRequestId = 0;
  std::map<int64_t, size_t> itemOfRequest;  // allocationRequestId -> placement item
  std::vector<protocol::SchedulingRequestRecord> pendingRequests;
  auto requestFor = [&](size_t item) {
    protocol::SchedulingRequestRecord r;
    r.allocationRequestId = ++nextRequestId;
    r.priority = priority;
    if (!placement[item].tag.empty()) r.allocationTags = {placement[item].tag};
    r.resourceSizing = protocol::ResourceSizingRecord{1, {memory, vcores}};
    if (placement[item].tag.empty()) r.placementConstraint = placement[item].expression;
    itemOfRequest[r.allocationRequestId] = item;
    pendingRequests.push_back(std::move(r));
  };
  for (size_t i = 0; i < placement.size(); ++i) {
    for (int32_t k = 0; k < placement[i].count; ++k) requestFor(i);
  }
  // DistributedShell retries rejected requests, 10 in all, then gives up.
  int32_t retriesLeft = 10;
  // -node_label_expression: every container ask carries it.
  const std::string labelExpression = env("DSHELL_NODE_LABEL_EXPRESSION");
  auto reg = rm.registerAm(env("NM_HOST", "127.0.0.1"), "", registered);
  if (!reg) {
    err << "dshell AM: register: " << reg.status().message() << "\n";
    return 1;
  }
  int32_t allocated = 0, succeeded = 0, failed = 0;
  // Containers this AM started (or kept from an earlier attempt). Surplus containers are released
  // unstarted; their completions (ABORTED, "released by application") are not lost tasks.
  std::set<std::string> launchedIds;
  int resyncsSeen = 0;
  // -keep_containers_across_application_attempts: the containers of an earlier attempt still
  // run and count as allocated (ApplicationMaster's RMCallbackHandler reads them from the
  // registration); their completions come as usual.
  for (const protocol::Container& c : reg->containersFromPreviousAttempts) {
    out << "Received " << c.id << " from a previous attempt" << std::endl;
    launchedIds.insert(c.id);
    ++allocated;
  }
  std::string lastFailure;
  std::map<std::string, int64_t> requestOfContainer;  // container id -> allocationRequestId
  // A restarted RM may report a completion again (the NM re-reports recently stopped
  // containers when it registers): each container counts once.
  std::set<std::string> completedIds;
  // Released with the next allocate call, as AMRMClient sends releases: every response goes
  // through the one loop below, so no allocation or completion in it is dropped.
  std::vector<std::string> surplus;
  // The AM cannot go on (an allocate call refused, retries exhausted): it finishes FAILED with
  // the reason, so the client and the app report show it.
  auto giveUp = [&](const std::string& why) {
    err << "dshell AM: " << why << "\n";
    (void)rm.finish(protocol::FinalApplicationStatus::FAILED, why);
    return 1;
  };
  while (succeeded + failed < total) {
    std::vector<protocol::ResourceRequest> asks;
    // Asks are absolute: the number still wanted, every call.
    if (placement.empty()) {
      asks.push_back({priority,
                      "*",
                      {memory, vcores},
                      std::max(0, total - allocated),
                      true,
                      labelExpression,
                      0});
    }
    auto r = rm.allocate(std::move(asks), std::move(surplus),
                         static_cast<double>(succeeded + failed) / std::max(total, 1),
                         std::move(pendingRequests));
    pendingRequests.clear();
    surplus.clear();
    if (!r) return giveUp("allocate: " + r.status().message());
    if (rm.resyncs() > resyncsSeen) {
      resyncsSeen = rm.resyncs();
      out << "The ResourceManager restarted: registered again after AM_RESYNC" << std::endl;
    }
    for (const protocol::RejectedSchedulingRequestRecord& rej : r->rejectedSchedulingRequests) {
      out << "Scheduling Request " << rej.request.allocationRequestId
          << " has been rejected. Reason " << rej.reason << ": " << rej.message << std::endl;
      if (--retriesLeft <= 0) return giveUp("Exiting, since retries are exhausted: " + rej.message);
      auto it = itemOfRequest.find(rej.request.allocationRequestId);
      if (it != itemOfRequest.end()) requestFor(it->second);
    }
    if (r->amCommand) {
      err << "dshell AM: the RM sent " << protocol::toString(*r->amCommand) << "\n";
      return 1;
    }
    for (const protocol::NodeReport& n : r->updatedNodes) {
      out << "Node " << n.nodeId << " is now " << n.nodeState << std::endl;
    }
    for (const protocol::Container& c : r->allocatedContainers) {
      if (allocated >= total) {
        surplus.push_back(c.id);
        continue;
      }
      ++allocated;
      launchedIds.insert(c.id);
      requestOfContainer[c.id] = c.allocationRequestId;
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
      if (!launchedIds.contains(s.containerId)) continue;  // a released surplus container
      if (!completedIds.insert(s.containerId).second) continue;
      out << "Got container status for containerID=" << s.containerId
          << ", state=" << protocol::toString(s.state) << ", exitStatus=" << s.exitStatus
          << ", diagnostics=" << s.diagnostics << std::endl;
      if (s.exitStatus == 0) {
        ++succeeded;
      } else if (s.exitStatus == ContainerExitStatus::ABORTED ||
                 s.exitStatus == ContainerExitStatus::PREEMPTED) {
        --allocated;  // lost by the cluster, not by the command: ask again
        auto req = requestOfContainer.find(s.containerId);
        auto item =
            req == requestOfContainer.end() ? itemOfRequest.end() : itemOfRequest.find(req->second);
        if (item != itemOfRequest.end()) requestFor(item->second);
      } else {
        ++failed;
        lastFailure = s.diagnostics;
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
  int32_t numContainers = a.numContainers;
  if (!a.placementSpec.empty()) {
    // The spec's counts decide the number of containers (-num_containers only for a lone
    // node-attribute expression), as DistributedShell's parsePlacementSpecs.
    auto p = parsePlacement(a.placementSpec, a.numContainers);
    if (!p) {
      err << "dshell: -placement_spec: " << p.status().message() << "\n";
      return 2;
    }
    numContainers = 0;
    for (const PlacementItem& i : *p) numContainers += i.count;
  }
  // DistributedShell's Client: exactly one of -shell_command and -shell_script.
  if (!a.shellCommand.empty() && !a.shellScript.empty()) {
    err << "dshell: Can not specify shell_command option and shell_script option at the same "
           "time\n";
    return 2;
  }
  std::string command = a.shellCommand;
  if (!a.shellScript.empty()) {
    // The script's text is the containers' command (YARN ships the file and runs it with bash).
    std::ifstream in(a.shellScript, std::ios::binary);
    if (!in) {
      err << "dshell: -shell_script " << a.shellScript << ": cannot be read\n";
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    command = text.str();
    if (trimView(command).empty()) {
      err << "dshell: -shell_script " << a.shellScript << " is empty\n";
      return 2;
    }
  }
  if (command.empty()) {
    err << "dshell: No shell command or shell script specified to be executed by application "
           "master (-shell_command or -shell_script)\n";
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
  RmRestClient rm(*hp);
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
  add("DSHELL_SHELL_COMMAND", command);
  add("DSHELL_NODE_LABEL_EXPRESSION", a.nodeLabelExpression);
  add("DSHELL_NUM_CONTAINERS", std::to_string(numContainers));
  add("DSHELL_PLACEMENT_SPEC", a.placementSpec);
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
                    {"keep-containers-across-application-attempts", a.keepContainersAcrossAttempts},
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
    if (!r && r.status().code() == StatusCode::kFailedPrecondition && nowMs() < deadline) {
      // No answer (the RM restarting): the app survives it, keep monitoring.
      std::this_thread::sleep_for(kPollInterval);
      continue;
    }
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
