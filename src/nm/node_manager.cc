#include "nm/node_manager.h"

#include <signal.h>

#include <time.h>
#include <unistd.h>
#include <atomic>

#include <chrono>
#include <deque>
#include <filesystem>
#include <iostream>
#include <set>

#include "app/container_state.h"
#include "base/log.h"
#include "config/configuration.h"
#include "config/rm_ha.h"
#include "nm/container_launcher.h"
#include "nm/containers_monitor.h"
#include "nm/disk_checker.h"
#include "nm/health_checker.h"
#include "nm/nm_service.h"
#include "nm/node_attributes_provider.h"
#include "nm/node_labels_provider.h"
#include "protocol/codec.h"
#include "protocol/failover_http_client.h"
#include "protocol/http_client.h"
#include "protocol/http_server.h"
#include "protocol/json_text.h"
#include "protocol/rest_records.h"
#include "protocol/yarn_ids.h"

namespace spindle::nm {

namespace {

using protocol::HttpRequest;
using protocol::HttpResponse;
using protocol::NodeAction;

// How often the heartbeat thread wakes to collect exited containers.
constexpr int64_t kReapMs = 20;

struct NmSettings {
  std::string rmHost;
  uint16_t rmPort = 8088;
  // With RM HA: every RM's resource-tracker address (config/rm_ha.h); the NM fails over.
  std::vector<protocol::HostPort> rms;
  std::string host = "127.0.0.1";
  uint16_t httpPort = 8042;
  protocol::ResourceRecord resource{8192, 8};
  NodeLabelsSettings labels;  // yarn.nodemanager.node-labels.*
  std::string logDir = "/tmp/spindle/nm-logs";
  std::string localDir = "/tmp/spindle/nm-local-dir";
  int64_t killGraceMs = 250;
  int64_t connectMaxWaitMs = 900'000;
  int64_t connectRetryMs = 30'000;
  std::string registrationSecret;  // spindle.nodemanager.registration.secret
  bool allowRoot = false;          // spindle.nodemanager.allow-root
  // yarn.resourcemanager.work-preserving-recovery.enabled (YARN's NodeStatusUpdaterImpl reads
  // the RM's key): on RESYNC keep the containers and report them when registering again.
  bool workPreserving = true;
  // yarn.nodemanager.duration-to-track-stopped-containers: completed containers are reported
  // again at a re-registration this long after the RM acknowledged them, so a restarted RM can
  // hand a completion its predecessor never delivered to the AM.
  int64_t trackStoppedMs = 600'000;
  NodeAttributesSettings attributes;  // yarn.nodemanager.node-attributes.provider.*
  MonitorSettings monitor;            // pmem / vmem checks, container-monitor.interval-ms
  HealthSettings health;              // yarn.nodemanager.health-checker.*
  DiskCheckSettings disks;            // yarn.nodemanager.disk-health-checker.*
  CgroupsSettings cgroups;            // a delegated cgroup v2 root, when configured
};

Result<std::pair<std::string, uint16_t>> address(const Configuration& conf, const char* key,
                                                 const std::string& host, uint16_t port) {
  auto v = conf.get(key);
  if (!v) return std::pair<std::string, uint16_t>(host, port);
  return protocol::parseHostPort(*v, key);
}

Result<NmSettings> readSettings(const std::string& dir) {
  Configuration conf;
  if (!dir.empty()) {
    if (!std::filesystem::is_directory(dir)) return invalidArgument("--conf {}: not a folder", dir);
    const std::string site = dir + "/yarn-site.xml";
    if (std::filesystem::exists(site)) {
      SPINDLE_ASSIGN_OR_RETURN(conf, Configuration::parseFile(site));
    }
  }
  NmSettings s;
  const std::string rmHost = conf.get("yarn.resourcemanager.hostname", "127.0.0.1");
  SPINDLE_ASSIGN_OR_RETURN(auto web,
                           address(conf, "yarn.resourcemanager.webapp.address", rmHost, 8088));
  SPINDLE_ASSIGN_OR_RETURN(auto rt, address(conf, "yarn.resourcemanager.resource-tracker.address",
                                            web.first, web.second));
  s.rmHost = rt.first == "0.0.0.0" ? "127.0.0.1" : rt.first;
  s.rmPort = rt.second;
  SPINDLE_ASSIGN_OR_RETURN(
      auto haRms, rmHaAddresses(conf, "yarn.resourcemanager.resource-tracker.address", 8031));
  for (const auto& [id, a] : haRms) {
    SPINDLE_ASSIGN_OR_RETURN(auto hp, protocol::parseHostPort(a, "RM " + id + "'s address"));
    s.rms.push_back(hp);
  }
  if (s.rms.empty()) s.rms.push_back({s.rmHost, s.rmPort});
  s.host = conf.get("yarn.nodemanager.hostname", "127.0.0.1");
  SPINDLE_ASSIGN_OR_RETURN(auto http,
                           address(conf, "yarn.nodemanager.webapp.address", s.host, 8042));
  s.host = http.first == "0.0.0.0" ? s.host : http.first;
  s.httpPort = http.second;
  SPINDLE_ASSIGN_OR_RETURN(s.resource.memory,
                           conf.getLong("yarn.nodemanager.resource.memory-mb", 8192));
  SPINDLE_ASSIGN_OR_RETURN(s.resource.vCores,
                           conf.getLong("yarn.nodemanager.resource.cpu-vcores", 8));
  if (s.resource.memory <= 0 || s.resource.vCores <= 0) {
    return invalidArgument("yarn.nodemanager.resource.memory-mb and cpu-vcores must be positive");
  }
  SPINDLE_ASSIGN_OR_RETURN(s.labels, readNodeLabelsSettings(conf));
  if (auto l = conf.getStrings("yarn.nodemanager.log-dirs"); !l.empty()) s.logDir = l.front();
  if (auto l = conf.getStrings("yarn.nodemanager.local-dirs"); !l.empty()) s.localDir = l.front();
  SPINDLE_ASSIGN_OR_RETURN(
      s.killGraceMs, conf.getTimeDurationMs("yarn.nodemanager.sleep-delay-before-sigkill.ms", 250));
  SPINDLE_ASSIGN_OR_RETURN(
      s.connectMaxWaitMs,
      conf.getTimeDurationMs("yarn.resourcemanager.connect.max-wait.ms", 900'000));
  SPINDLE_ASSIGN_OR_RETURN(
      s.connectRetryMs,
      conf.getTimeDurationMs("yarn.resourcemanager.connect.retry-interval.ms", 30'000));
  s.registrationSecret = conf.get("spindle.nodemanager.registration.secret", "");
  SPINDLE_ASSIGN_OR_RETURN(s.allowRoot, conf.getBool("spindle.nodemanager.allow-root", false));
  SPINDLE_ASSIGN_OR_RETURN(
      s.workPreserving,
      conf.getBool("yarn.resourcemanager.work-preserving-recovery.enabled", true));
  SPINDLE_ASSIGN_OR_RETURN(
      s.trackStoppedMs,
      conf.getTimeDurationMs("yarn.nodemanager.duration-to-track-stopped-containers", 600'000));
  SPINDLE_ASSIGN_OR_RETURN(s.attributes, readNodeAttributesSettings(conf));
  SPINDLE_ASSIGN_OR_RETURN(s.monitor, readMonitorSettings(conf));
  SPINDLE_ASSIGN_OR_RETURN(s.health, readHealthSettings(conf));
  SPINDLE_ASSIGN_OR_RETURN(s.disks, readDiskCheckSettings(conf));
  SPINDLE_ASSIGN_OR_RETURN(s.cgroups, readCgroupsSettings(conf, s.resource.vCores));
  return s;
}

int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int64_t wallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

HttpResponse error(const Status& s) {
  return {protocol::httpStatusFor(s), protocol::remoteException(s).dump()};
}

// Waits up to `ms` for SIGTERM or SIGINT; true when one came.
bool waitSignal(const sigset_t& signals, int64_t ms) {
  timespec ts{static_cast<time_t>(ms / 1000), static_cast<long>((ms % 1000) * 1'000'000)};
  return sigtimedwait(&signals, nullptr, &ts) > 0;
}

}  // namespace

int runNodeManager(const std::string& confDir) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  auto settings = readSettings(confDir);
  if (!settings) {
    std::cerr << "spindle nm: " << settings.status().message() << "\n";
    return 2;
  }
  const NmSettings& s = *settings;
  // Distributed node attributes: a bad configured value or a missing script stops the NM, as
  // YARN's provider fails the NodeManager's start.
  NodeAttributesProvider attributes(s.attributes);
  if (Status st = attributes.start(); !st.isOk()) {
    std::cerr << "spindle nm: " << st.message() << "\n";
    return 2;
  }
  // Node labels likewise (ScriptBasedNodeLabelsProvider fails the NodeManager's start).
  NodeLabelsProvider labels(s.labels);
  if (Status st = labels.start(); !st.isOk()) {
    std::cerr << "spindle nm: " << st.message() << "\n";
    return 2;
  }
  NodeLabelsReporter labelsReporter(s.labels.resyncIntervalMs);
  // AMs get the same list (SPINDLE_RM_ADDRESS) and fail over as this NM does.
  protocol::FailoverHttpClient rm(s.rms, 10'000, 5'000);
  const std::string rmAddress = rm.peers();
  std::unique_ptr<ContainerLauncher> launcher;
  std::unique_ptr<NmService> service;
  std::atomic<NmService*> ready{nullptr};
  protocol::HttpServer server(s.host, s.httpPort, [&ready](HttpRequest r, protocol::Respond d) {
    NmService* svc = ready.load(std::memory_order_acquire);
    if (svc == nullptr) {
      return d(error(Status(StatusCode::kResourceExhausted, "the NodeManager is starting")));
    }
    d(svc->handle(r));
  });
  // The server must bind first: the node id carries its port. Until the service exists (before
  // the RM can know this node) requests are answered 503.
  if (Status st = server.start(); !st.isOk()) {
    std::cerr << "spindle nm: " << st.message() << "\n";
    return 2;
  }
  const std::string nodeId = s.host + ":" + std::to_string(server.port());
  launcher = std::make_unique<ContainerLauncher>(
      LauncherDirs{s.logDir, s.localDir},
      std::map<std::string, std::string>{{"NM_HOST", s.host},
                                         {"NM_PORT", std::to_string(server.port())},
                                         {"NM_HTTP_PORT", std::to_string(server.port())},
                                         {"SPINDLE_RM_ADDRESS", rmAddress}},
      s.killGraceMs);
  if (!s.cgroups.root.empty()) {
    // Memory and CPU in cgroup v2 where the root is usable; otherwise the monitor's pmem check.
    auto cg = Cgroups::open(s.cgroups);
    if (cg) {
      SPINDLE_LOG_INFO("containers run in cgroups under {}", s.cgroups.root);
      launcher->useCgroups(std::move(*cg));
    } else {
      SPINDLE_LOG_WARN("cgroup root {} is not usable ({}): memory is enforced by the monitor",
                       s.cgroups.root, cg.status().message());
    }
  }
  HealthChecker health(s.health);
  health.start();
  DiskChecker disks(s.disks, {s.localDir}, {s.logDir});
  disks.check(wallMs());
  int64_t nextDiskCheck = nowMs() + disks.intervalMs();
  auto nodeHealth = [&health, &disks] { return combinedHealth(health.status(), disks.status()); };
  ContainersMonitor monitor(s.monitor, s.resource.vCores);
  std::optional<MonitorResult> utilization;
  service = std::make_unique<NmService>(*launcher, nodeId, s.logDir, s.allowRoot, nodeHealth);
  if (geteuid() == 0) {
    SPINDLE_LOG_WARN(
        "NodeManager {} runs as root: containers {}", nodeId,
        s.allowRoot ? "run as root (spindle.nodemanager.allow-root=true)"
                    : "are refused (set spindle.nodemanager.allow-root=true to run them as root)");
  }
  ready.store(service.get(), std::memory_order_release);
  std::cout << "spindle nm: " << nodeId << " serving on http://" << nodeId << std::endl;

  int64_t lastContact = nowMs();
  auto shutdown = [&](int code, const std::string& why) {
    SPINDLE_LOG_INFO("NodeManager {} stopping: {}", nodeId, why);
    server.stop();
    launcher->stopAll(ContainerExitStatus::KILLED_BY_RESOURCEMANAGER, "NodeManager stopping");
    const int64_t deadline = nowMs() + s.killGraceMs + 2000;
    while (launcher->running() > 0 && nowMs() < deadline) {
      launcher->reap();
      waitSignal(signals, kReapMs);
    }
    std::cout << "spindle nm: stopped" << std::endl;
    return code;
  };

  bool registered = false;
  // Completed containers the RM acknowledged, with when (reported again on re-registration).
  std::deque<std::pair<int64_t, protocol::ContainerStatus>> recentlyStopped;
  auto acknowledge = [&](const std::vector<protocol::ContainerStatus>& reported) {
    launcher->acknowledge(reported);
    for (const protocol::ContainerStatus& c : reported) {
      if (c.state == protocol::ContainerState::COMPLETE) recentlyStopped.emplace_back(nowMs(), c);
    }
    while (!recentlyStopped.empty() && nowMs() - recentlyStopped.front().first > s.trackStoppedMs) {
      recentlyStopped.pop_front();
    }
  };
  std::optional<std::vector<protocol::NodeAttributeRecord>> pendingAttributes;
  std::optional<std::vector<std::string>> pendingLabels;
  int32_t responseId = 0;
  int64_t interval = 1000;
  int64_t nextBeat = nowMs();
  while (true) {
    if (waitSignal(signals, kReapMs)) return shutdown(0, "signal");
    launcher->reap();
    if (monitor.due(nowMs())) {
      // ContainersMonitorImpl: process trees against their memory, and utilisation.
      std::vector<MonitoredContainer> running;
      std::set<std::string> inCgroup;
      for (const auto& c : launcher->runningContainers()) {
        running.push_back({c.containerId, c.pid, c.resource.memory});
        if (c.inCgroup) inCgroup.insert(c.containerId);
      }
      utilization = monitor.check(readProcTable(), running, readNodeUsage(), nowMs(), inCgroup);
      for (const MonitorKill& k : utilization->kills) {
        SPINDLE_LOG_WARN("{}", k.diagnostics.substr(0, k.diagnostics.find('\n')));
        (void)launcher->stop(k.containerId, k.exitStatus, k.diagnostics);
      }
    }
    if (nowMs() >= nextDiskCheck) {
      disks.check(wallMs());
      nextDiskCheck = nowMs() + disks.intervalMs();
    }
    if (nowMs() < nextBeat) continue;
    if (nowMs() - lastContact > s.connectMaxWaitMs) {
      return shutdown(1, "the ResourceManager at " + rmAddress + " stayed unreachable");
    }
    if (!registered) {
      protocol::RegisterNodeManagerRequest req;
      req.nodeId = nodeId;
      req.httpPort = server.port();
      req.resource = s.resource;
      req.nmVersion = SPINDLE_VERSION;
      req.nodeLabels = labels.current();
      labelsReporter.registered(req.nodeLabels, nowMs());
      req.registrationSecret = s.registrationSecret;
      req.nodeAttributes = attributes.current();
      (void)attributes.takeChanged();  // the registration carries the latest set
      // NMContainerStatus for every container (YARN-556): the running ones, the completed ones
      // not yet acknowledged, and those acknowledged within the tracking window.
      const std::vector<protocol::ContainerStatus> current = launcher->statuses();
      req.containerStatuses = current;
      for (const auto& [at, c] : recentlyStopped) {
        if (nowMs() - at <= s.trackStoppedMs) req.containerStatuses.push_back(c);
      }
      auto r = rm.post("/rpc/v1/resource-tracker/register", protocol::toJson(req).dump());
      if (r && r->status == 403) {
        // A refused secret is a configuration error: retrying cannot help.
        std::cerr << "spindle nm: the ResourceManager at " << rmAddress
                  << " refused the registration: " << protocol::remoteExceptionMessage(r->body)
                  << "\n";
        return shutdown(2, "registration refused");
      }
      auto resp = r && r->status == 200
                      ? protocol::decode<protocol::RegisterNodeManagerResponse>(r->body)
                      : Result<protocol::RegisterNodeManagerResponse>(
                            r ? invalidArgument("HTTP {}: {}", r->status, r->body) : r.status());
      if (!resp) {
        SPINDLE_LOG_WARN("register with {} failed: {}", rmAddress, resp.status().message());
        nextBeat = nowMs() + s.connectRetryMs;
        continue;
      }
      lastContact = nowMs();
      if (resp->nodeAction == NodeAction::SHUTDOWN) {
        return shutdown(0, "the ResourceManager refused the node: " + resp->diagnosticsMessage);
      }
      if (!resp->areNodeAttributesAcceptedByRM || !resp->areNodeLabelsAcceptedByRM) {
        SPINDLE_LOG_WARN("the ResourceManager refused the node {}: {}",
                         resp->areNodeLabelsAcceptedByRM ? "attributes" : "labels",
                         resp->diagnosticsMessage);
      }
      registered = true;
      acknowledge(current);
      responseId = 0;
      nextBeat = nowMs();
      SPINDLE_LOG_INFO("NodeManager {} registered with {}", nodeId, rmAddress);
      continue;
    }
    protocol::NodeHeartbeatRequest hb;
    hb.nodeStatus.nodeId = nodeId;
    hb.nodeStatus.responseId = responseId;
    hb.nodeStatus.containersStatuses = launcher->statuses();
    hb.nodeStatus.nodeHealthStatus = nodeHealth();
    if (utilization) {
      hb.nodeStatus.containersUtilization = utilization->containers;
      hb.nodeStatus.nodeUtilization = utilization->node;
    }
    // A change stays pending until a heartbeat carrying it is answered.
    if (auto changed = attributes.takeChanged()) pendingAttributes = std::move(changed);
    hb.nodeAttributes = pendingAttributes;
    // NMDistributedNodeLabelsHandler: on a change or after resync-interval-ms.
    if (!pendingLabels) pendingLabels = labelsReporter.forHeartbeat(labels.current(), nowMs());
    hb.nodeLabels = pendingLabels;
    auto r = rm.post("/rpc/v1/resource-tracker/heartbeat", protocol::jsonText(hb));
    auto resp = r && r->status == 200
                    ? protocol::decode<protocol::NodeHeartbeatResponse>(r->body)
                    : Result<protocol::NodeHeartbeatResponse>(
                          r ? invalidArgument("HTTP {}: {}", r->status, r->body) : r.status());
    nextBeat = nowMs() + interval;
    if (!resp) {
      SPINDLE_LOG_WARN("heartbeat to {} failed: {}", rmAddress, resp.status().message());
      continue;
    }
    lastContact = nowMs();
    pendingAttributes.reset();
    pendingLabels.reset();
    interval = resp->nextHeartBeatInterval;
    nextBeat = nowMs() + interval;
    if (resp->nodeAction == NodeAction::SHUTDOWN) {
      return shutdown(0, "SHUTDOWN from the ResourceManager: " + resp->diagnosticsMessage);
    }
    if (resp->nodeAction == NodeAction::RESYNC) {
      SPINDLE_LOG_WARN("RESYNC from the ResourceManager: {}", resp->diagnosticsMessage);
      if (!s.workPreserving) {
        launcher->stopAll(ContainerExitStatus::KILLED_BY_RESOURCEMANAGER,
                          "Container killed on ResourceManager resync");
        launcher->acknowledge(hb.nodeStatus.containersStatuses);
      }
      registered = false;
      nextBeat = nowMs();
      continue;
    }
    acknowledge(hb.nodeStatus.containersStatuses);
    responseId = resp->responseId;
    if (!resp->areNodeAttributesAcceptedByRM || !resp->areNodeLabelsAcceptedByRM) {
      // NMDistributedNodeLabelsHandler.verifyRMHeartbeatResponseForNodeLabels logs it; the
      // labels go again after the resync interval.
      SPINDLE_LOG_WARN("the ResourceManager refused the node {}: {}",
                       resp->areNodeLabelsAcceptedByRM ? "attributes" : "labels",
                       resp->diagnosticsMessage);
    }
    for (const std::string& id : resp->containersToCleanup) {
      (void)launcher->stop(id, ContainerExitStatus::KILLED_BY_RESOURCEMANAGER,
                           "Container Killed by ResourceManager");
    }
  }
}

}  // namespace spindle::nm
