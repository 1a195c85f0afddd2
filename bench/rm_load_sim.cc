#include "rm_load_sim.h"

#include <chrono>
#include <limits>
#include <random>

#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "protocol/rest_records.h"
#include "protocol/yarn_ids.h"

namespace spindle::bench {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using protocol::NodeAction;

int64_t nowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
int64_t nowMs() { return nowUs() / 1000; }
int64_t wallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {
constexpr int64_t kForever = std::numeric_limits<int64_t>::max();
constexpr int32_t kKilledByResourceManager = -106;  // ContainerExitStatus
}  // namespace

struct Load::Nm {
  Nm(asio::io_context& ioc, asio::ip::tcp::endpoint rm, std::chrono::milliseconds timeout)
      : conn(ioc, rm, timeout), timer(ioc) {}
  struct Running {
    std::string id;
    int64_t endMs = 0;
    int64_t memoryMb = 0;
    int32_t exitStatus = 0;
    bool complete = false;
    bool sent = false;  // COMPLETE in the heartbeat in flight
  };
  std::string id;
  AsyncConnection conn;
  asio::steady_timer timer;
  bool registered = false;
  bool everRegistered = false;
  bool resynced = false;  // registered again after a RESYNC
  bool stopped = false;
  int32_t responseId = 0;
  int64_t intervalMs = 1000;
  asio::steady_timer::time_point next;
  std::vector<Running> containers;
};

struct Load::Am {
  Am(asio::io_context& ioc, asio::ip::tcp::endpoint rm, std::chrono::milliseconds timeout)
      : conn(ioc, rm, timeout), timer(ioc) {}
  AsyncConnection conn;
  asio::steady_timer timer;
  std::string appId, attemptId, amContainerId;
  int32_t responseId = 0;
  bool launched = false, registered = false, everRegistered = false, finished = false;
  bool resynced = false;  // registered again after AM_RESYNC
  int32_t held = 0;       // containers allocated to it (--hold)
  bool asked = false;     // --hold: its ask was sent since it registered
};

Load::Load(const LoadOptions& o, asio::io_context& ioc, uint16_t listenerPort)
    : o_(o),
      ioc_(ioc),
      listenerPort_(listenerPort),
      rm_(asio::ip::make_address(o.rmHost), o.rmPort) {
  const std::chrono::milliseconds timeout(o.timeoutMs);
  for (int i = 0; i < o.nms; ++i) {
    auto nm = std::make_unique<Nm>(ioc, rm_, timeout);
    nm->id = "127.0.0.1:" + std::to_string(o.firstNodePort + i);
    nm->intervalMs = o.heartbeatMs > 0 ? o.heartbeatMs : 1000;
    nmById_[nm->id] = nm.get();
    nms_.push_back(std::move(nm));
  }
  for (int i = 0; i < o.ams; ++i) ams_.push_back(std::make_unique<Am>(ioc, rm_, timeout));
}

Load::~Load() = default;

void Load::noteError(const std::string& what, const HttpCall& r) {
  if (!firstError.empty()) return;
  firstError = what + ": " +
               (r.error.empty() ? "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 300)
                                : r.error);
}

void Load::start() {
  for (auto& nm : nms_) registerNm(*nm);
  for (size_t i = 0; i < ams_.size(); ++i) {
    Am& am = *ams_[i];
    if (o_.submitPerS <= 0) {
      newApplication(am);
      continue;
    }
    am.timer.expires_after(std::chrono::microseconds(
        static_cast<int64_t>(1e6 * static_cast<double>(i) / o_.submitPerS)));
    am.timer.async_wait([this, &am](boost::system::error_code ec) {
      if (!ec) newApplication(am);
    });
  }
}

// --- NodeManagers ---------------------------------------------------------------------------

void Load::registerNm(Nm& nm) {
  protocol::RegisterNodeManagerRequest r;
  r.nodeId = nm.id;
  r.httpPort = listenerPort_;
  r.resource = {o_.nodeMemoryMb, o_.nodeVcores};
  r.nmVersion = "rm_load";
  // After a RESYNC: what still runs, with its resource (NMContainerStatus), as the NM does.
  for (const Nm::Running& c : nm.containers) {
    protocol::ContainerStatus s;
    s.containerId = c.id;
    s.state = c.complete ? protocol::ContainerState::COMPLETE : protocol::ContainerState::RUNNING;
    s.exitStatus = c.complete ? c.exitStatus : protocol::kInvalidExitStatus;
    s.allocatedResource = protocol::ResourceRecord{c.memoryMb, 1};
    r.containerStatuses.push_back(std::move(s));
  }
  nm.conn.call(http::verb::post, "/rpc/v1/resource-tracker/register", protocol::toJson(r).dump(),
               [this, &nm](const HttpCall& c) {
                 auto resp = c.error.empty() && c.status == 200
                                 ? protocol::decode<protocol::RegisterNodeManagerResponse>(c.body)
                                 : Result<protocol::RegisterNodeManagerResponse>(
                                       spindle::internalError("failed"));
                 if (!resp || resp->nodeAction != NodeAction::NORMAL) {
                   noteError("register " + nm.id, c);
                   if (resp && resp->nodeAction == NodeAction::SHUTDOWN) {
                     nm.stopped = true;
                     return;
                   }
                   nm.timer.expires_after(std::chrono::seconds(1));
                   nm.timer.async_wait([this, &nm](boost::system::error_code ec) {
                     if (!ec) registerNm(nm);
                   });
                   return;
                 }
                 nm.registered = true;
                 nm.responseId = 0;
                 for (Nm::Running& run : nm.containers) run.sent = run.complete;
                 nm.containers.erase(std::remove_if(nm.containers.begin(), nm.containers.end(),
                                                    [](const Nm::Running& x) { return x.sent; }),
                                     nm.containers.end());
                 if (nm.everRegistered && !nm.resynced) {
                   nm.resynced = true;
                   ++counters_.nmsResynced;
                   counters_.lastNmResyncMs = wallMs();
                 }
                 if (!nm.everRegistered) {
                   nm.everRegistered = true;
                   ++counters_.nmsRegistered;
                   // Spread the first heartbeats over one interval.
                   static std::mt19937_64 rng(42);
                   nm.next = asio::steady_timer::clock_type::now() +
                             std::chrono::milliseconds(rng() % nm.intervalMs);
                 } else {
                   nm.next = asio::steady_timer::clock_type::now();
                 }
                 nm.timer.expires_at(nm.next);
                 nm.timer.async_wait([this, &nm](boost::system::error_code ec) {
                   if (!ec) heartbeat(nm);
                 });
               });
}

void Load::scheduleHeartbeat(Nm& nm) {
  const auto now = asio::steady_timer::clock_type::now();
  nm.next += std::chrono::milliseconds(nm.intervalMs);
  if (nm.next < now) nm.next = now + std::chrono::milliseconds(nm.intervalMs);
  nm.timer.expires_at(nm.next);
  nm.timer.async_wait([this, &nm](boost::system::error_code ec) {
    if (!ec) heartbeat(nm);
  });
}

void Load::heartbeat(Nm& nm) {
  if (nm.stopped || !nm.registered) return;
  if (nm.conn.busy()) return scheduleHeartbeat(nm);  // the last one is still unanswered
  const int64_t now = nowMs();
  protocol::NodeHeartbeatRequest hb;
  hb.nodeStatus.nodeId = nm.id;
  hb.nodeStatus.responseId = nm.responseId;
  hb.nodeStatus.nodeHealthStatus.lastHealthReportTime = now;
  hb.nodeStatus.containersStatuses.reserve(nm.containers.size());
  for (Nm::Running& c : nm.containers) {
    if (!c.complete && c.endMs <= now) {
      c.complete = true;
      c.exitStatus = 0;
      --counters_.runningOnNodes;
    }
    c.sent = c.complete;
    protocol::ContainerStatus s;
    s.containerId = c.id;
    s.state = c.complete ? protocol::ContainerState::COMPLETE : protocol::ContainerState::RUNNING;
    s.exitStatus = c.complete ? c.exitStatus : protocol::kInvalidExitStatus;
    hb.nodeStatus.containersStatuses.push_back(std::move(s));
  }
  const int64_t t0 = nowUs();
  nm.conn.call(
      http::verb::post, "/rpc/v1/resource-tracker/heartbeat", protocol::toJson(hb).dump(),
      [this, &nm, t0](const HttpCall& c) {
        auto resp = c.error.empty() && c.status == 200
                        ? protocol::decode<protocol::NodeHeartbeatResponse>(c.body)
                        : Result<protocol::NodeHeartbeatResponse>(spindle::internalError("failed"));
        if (!resp) {
          ++counters_.heartbeatErrors;
          noteError("heartbeat " + nm.id, c);
          return scheduleHeartbeat(nm);
        }
        if (resp->nodeAction == NodeAction::RESYNC) {
          ++counters_.resyncs;
          nm.registered = false;
          return registerNm(nm);
        }
        if (resp->nodeAction == NodeAction::SHUTDOWN) {
          noteError("heartbeat " + nm.id + " answered SHUTDOWN", c);
          nm.stopped = true;
          return;
        }
        ++counters_.heartbeats;
        if (measuring) heartbeatLatencyUs.push_back(static_cast<uint32_t>(nowUs() - t0));
        nm.containers.erase(std::remove_if(nm.containers.begin(), nm.containers.end(),
                                           [](const Nm::Running& x) { return x.sent; }),
                            nm.containers.end());
        nm.responseId = resp->responseId;
        if (o_.heartbeatMs <= 0 && resp->nextHeartBeatInterval > 0) {
          nm.intervalMs = resp->nextHeartBeatInterval;
        }
        for (const std::string& id : resp->containersToCleanup) {
          for (Nm::Running& run : nm.containers) {
            if (run.id != id || run.complete) continue;
            run.complete = true;
            run.exitStatus = kKilledByResourceManager;
            --counters_.runningOnNodes;
          }
        }
        scheduleHeartbeat(nm);
      });
}

void Load::runOn(const std::string& nodeId, const std::string& containerId, int64_t endMs) {
  auto it = nmById_.find(nodeId);
  if (it == nmById_.end()) {
    if (firstError.empty()) firstError = "a container on an unknown node " + nodeId;
    return;
  }
  it->second->containers.push_back({containerId, endMs, o_.containerMb});
  ++counters_.runningOnNodes;
}

// --- ApplicationMasters ---------------------------------------------------------------------

void Load::newApplication(Am& am) {
  am.conn.call(
      http::verb::post, "/ws/v1/cluster/apps/new-application", "", [this, &am](const HttpCall& c) {
        auto j = c.error.empty() && c.status == 200 ? nlohmann::json::parse(c.body, nullptr, false)
                                                    : nlohmann::json();
        if (!j.is_object() || !j.contains("application-id")) {
          ++counters_.amErrors;
          return noteError("new-application", c);
        }
        am.appId = j["application-id"].get<std::string>();
        amByApp_[am.appId] = &am;
        submit(am);
      });
}

void Load::submit(Am& am) {
  protocol::SubmissionContext ctx;
  ctx.applicationId = am.appId;
  ctx.applicationName = "rm_load";
  ctx.applicationType = "rm_load";
  ctx.resource = {o_.containerMb, 1};
  ctx.amContainerSpec.commands = {"true"};  // never run: the simulated NM only reports it
  am.conn.call(http::verb::post, "/ws/v1/cluster/apps", protocol::toJson(ctx).dump(),
               [this, &am](const HttpCall& c) {
                 if (!c.error.empty() || c.status != 202) {
                   ++counters_.amErrors;
                   noteError("submit " + am.appId, c);
                 }
               });
}

void Load::onContainerStart(std::vector<std::string> containerIds) {
  asio::post(ioc_, [this, ids = std::move(containerIds)] {
    for (const std::string& cid : ids) {
      auto attempt = protocol::attemptOfContainer(cid);
      if (!attempt) continue;
      auto it = amByApp_.find(protocol::toString(attempt->app));
      if (it == amByApp_.end()) continue;
      Am& am = *it->second;
      const std::string attemptId = protocol::toString(*attempt);
      if (am.launched && am.attemptId == attemptId) continue;
      am.launched = true;
      am.attemptId = attemptId;
      am.amContainerId = cid;
      ++counters_.amContainersStarted;
      findAmNode(am);
    }
  });
}

// The node the RM put the AM container on (appattempts' nodeId): its simulated NM reports it.
void Load::findAmNode(Am& am) {
  am.conn.call(http::verb::get, "/ws/v1/cluster/apps/" + am.appId + "/appattempts", "",
               [this, &am](const HttpCall& c) {
                 auto j = c.error.empty() && c.status == 200
                              ? nlohmann::json::parse(c.body, nullptr, false)
                              : nlohmann::json();
                 std::string node;
                 if (j.is_object()) {
                   for (const auto& a : j["appAttempts"]["appAttempt"]) {
                     if (a.value("containerId", "") == am.amContainerId) {
                       node = a.value("nodeId", "");
                     }
                   }
                 }
                 if (node.empty()) {
                   ++counters_.amErrors;
                   return noteError("appattempts of " + am.appId, c);
                 }
                 runOn(node, am.amContainerId, kForever);
                 registerAm(am);
               });
}

void Load::registerAm(Am& am) {
  protocol::RegisterApplicationMasterRequest r;
  r.applicationAttemptId = am.attemptId;
  r.host = "127.0.0.1";
  r.rpcPort = 0;
  am.conn.call(http::verb::post, "/rpc/v1/am/register", protocol::toJson(r).dump(),
               [this, &am](const HttpCall& c) {
                 if (!c.error.empty() || c.status != 200) {
                   ++counters_.amErrors;
                   noteError("register " + am.attemptId, c);
                   am.timer.expires_after(std::chrono::seconds(1));
                   am.timer.async_wait([this, &am](boost::system::error_code ec) {
                     if (!ec) registerAm(am);
                   });
                   return;
                 }
                 am.registered = true;
                 am.responseId = 0;
                 am.asked = false;
                 if (am.everRegistered && !am.resynced) {
                   am.resynced = true;
                   ++counters_.amsResynced;
                   counters_.lastAmResyncMs = wallMs();
                 }
                 if (!am.everRegistered) {
                   am.everRegistered = true;
                   ++counters_.amsRegistered;
                 }
                 allocate(am);
               });
}

void Load::scheduleAllocate(Am& am) {
  am.timer.expires_after(std::chrono::milliseconds(o_.amIntervalMs));
  am.timer.async_wait([this, &am](boost::system::error_code ec) {
    if (!ec) allocate(am);
  });
}

void Load::allocate(Am& am) {
  if (finishing_) return finishAm(am);
  protocol::AllocateRequest r;
  r.applicationAttemptId = am.attemptId;
  r.responseId = am.responseId;
  r.progress = 0.5;
  protocol::ResourceRequest ask;
  ask.priority = 1;
  ask.resourceName = "*";
  ask.capability = {o_.containerMb, 1};
  ask.numContainers = o_.pending;  // absolute: the whole outstanding demand
  // --hold: what the AM still lacks, once per registration (the RM lowers the outstanding
  // count as it allocates; after AM_RESYNC the AM re-sends it, as AMRMClient does).
  if (o_.hold > 0) ask.numContainers = am.asked ? 0 : std::max(0, o_.hold - am.held);
  if (o_.hold == 0 || ask.numContainers > 0) r.ask.push_back(ask);
  const int64_t t0 = nowUs();
  am.conn.call(
      http::verb::post, "/rpc/v1/am/allocate", protocol::toJson(r).dump(),
      [this, &am, t0](const HttpCall& c) {
        const int64_t t1 = nowUs();
        auto resp = c.error.empty() && c.status == 200
                        ? protocol::decode<protocol::AllocateResponse>(c.body)
                        : Result<protocol::AllocateResponse>(spindle::internalError("failed"));
        if (!resp) {
          ++counters_.amErrors;
          noteError("allocate " + am.attemptId, c);
          return scheduleAllocate(am);
        }
        if (resp->amCommand == protocol::AMCommand::AM_RESYNC) {
          ++counters_.amResyncs;
          am.registered = false;
          return registerAm(am);
        }
        ++counters_.allocateCalls;
        if (measuring) allocateLatencyUs.push_back(static_cast<uint32_t>(t1 - t0));
        am.responseId = resp->responseId;
        am.asked = true;
        const int64_t end = o_.hold > 0 ? kForever : nowMs() + o_.containerMs;
        for (const protocol::Container& ct : resp->allocatedContainers) {
          ++counters_.allocated;
          ++am.held;
          runOn(ct.nodeId, ct.id, end);
        }
        counters_.returned += static_cast<int64_t>(resp->completedContainerStatuses.size());
        scheduleAllocate(am);
      });
}

void Load::finishAms() {
  finishing_ = true;
  for (auto& am : ams_) {
    // An AM waiting on its timer finishes now; one with a call in flight after it.
    if (am->registered && !am->conn.busy()) {
      am->timer.cancel();
      finishAm(*am);
    }
  }
}

void Load::finishAm(Am& am) {
  if (am.finished) return;
  am.finished = true;
  protocol::FinishApplicationMasterRequest r;
  r.applicationAttemptId = am.attemptId;
  r.finalApplicationStatus = protocol::FinalApplicationStatus::SUCCEEDED;
  am.conn.call(http::verb::post, "/rpc/v1/am/finish", protocol::toJson(r).dump(),
               [this, &am](const HttpCall& c) {
                 if (!c.error.empty() || c.status != 200) {
                   ++counters_.amErrors;
                   return noteError("finish " + am.attemptId, c);
                 }
                 ++counters_.amsFinished;
                 // The AM process exits: its container completes on its node.
                 for (auto& nm : nms_) {
                   for (Nm::Running& run : nm->containers) {
                     if (run.id == am.amContainerId) run.endMs = 0;
                   }
                 }
               });
}

}  // namespace spindle::bench
