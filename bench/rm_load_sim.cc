#include "rm_load_sim.h"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "protocol/json_text.h"
#include "protocol/rest_records.h"
#include "protocol/yarn_ids.h"

namespace spindle::bench {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using loadgen::HttpCall;
using loadgen::kRunsForever;
using loadgen::steadyNowUs;

struct Load::Am {
  Am(asio::io_context& ioc, asio::ip::tcp::endpoint rm, std::chrono::milliseconds timeout)
      : conn(ioc, rm, timeout), timer(ioc) {}
  loadgen::AsyncConnection conn;
  asio::steady_timer timer;
  std::string appId, attemptId, amContainerId, amNode;
  int32_t responseId = 0;
  bool launched = false, registered = false, everRegistered = false, finished = false;
  bool resynced = false;  // registered again after AM_RESYNC
  int32_t held = 0;       // containers allocated to it (--hold)
  bool asked = false;     // --hold: its ask was sent since it registered
};

namespace {
loadgen::FleetOptions fleetOptions(const LoadOptions& o) {
  loadgen::FleetOptions f;
  f.heartbeatMs = o.heartbeatMs;
  f.timeoutMs = o.timeoutMs;
  f.nmVersion = "rm_load";
  return f;
}
}  // namespace

Load::Load(const LoadOptions& o, asio::io_context& ioc, uint16_t listenerPort)
    : o_(o),
      ioc_(ioc),
      listenerPort_(listenerPort),
      rm_(asio::ip::make_address(o.rmHost), o.rmPort),
      fleet_(ioc, rm_, fleetOptions(o), listenerPort) {
  const std::chrono::milliseconds timeout(o.timeoutMs);
  for (int i = 0; i < o.nms; ++i) {
    loadgen::NodeSpec n;
    n.nodeId = "127.0.0.1:" + std::to_string(o.firstNodePort + i);
    n.memoryMb = o.nodeMemoryMb;
    n.vcores = o.nodeVcores;
    fleet_.add(n);
  }
  for (int i = 0; i < o.ams; ++i) ams_.push_back(std::make_unique<Am>(ioc, rm_, timeout));
}

Load::~Load() = default;

void Load::noteError(const std::string& what, const HttpCall& r) {
  if (amError_.empty()) amError_ = what + ": " + loadgen::describe(r);
}

LoadCounters Load::counters() const {
  LoadCounters c = counters_;
  const loadgen::FleetCounters& f = fleet_.counters();
  c.nmsRegistered = f.nmsRegistered;
  c.heartbeats = f.heartbeats;
  c.heartbeatErrors = f.heartbeatErrors;
  c.resyncs = f.resyncs;
  c.runningOnNodes = f.runningOnNodes;
  c.nmsResynced = f.nmsResynced;
  c.lastNmResyncMs = f.lastNmResyncMs;
  return c;
}

void Load::setMeasuring(bool on) {
  measuring_ = on;
  fleet_.measuring = on;
}

void Load::start() {
  fleet_.start();
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
  {
    for (const std::string& cid : containerIds) {
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
  }
}

// The node the RM put the AM container on (appattempts' nodeId): its simulated NM reports it.
void Load::findAmNode(Am& am) {
  am.conn.call(http::verb::get, "/ws/v1/cluster/apps/" + am.appId + "/appattempts", "",
               [this, &am](const HttpCall& c) {
                 const std::string node = loadgen::amContainerNode(c, am.amContainerId);
                 if (node.empty()) {
                   ++counters_.amErrors;
                   return noteError("appattempts of " + am.appId, c);
                 }
                 am.amNode = node;
                 fleet_.runOn(node, am.amContainerId, kRunsForever, o_.containerMb, 1);
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
                   counters_.lastAmResyncMs = loadgen::wallNowMs();
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
  const int64_t t0 = steadyNowUs();
  am.conn.call(
      http::verb::post, "/rpc/v1/am/allocate", protocol::jsonText(r),
      [this, &am, t0](const HttpCall& c) {
        const int64_t t1 = steadyNowUs();
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
        if (measuring_) allocateLatencyUs.push_back(static_cast<uint32_t>(t1 - t0));
        am.responseId = resp->responseId;
        am.asked = true;
        const int64_t end = o_.hold > 0 ? kRunsForever : steadyNowUs() / 1000 + o_.containerMs;
        for (const protocol::Container& ct : resp->allocatedContainers) {
          ++counters_.allocated;
          ++am.held;
          fleet_.runOn(ct.nodeId, ct.id, end, o_.containerMb, 1);
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
                 fleet_.endNow(am.amNode, am.amContainerId);
               });
}

}  // namespace spindle::bench
