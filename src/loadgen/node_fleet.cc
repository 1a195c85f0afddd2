#include "loadgen/node_fleet.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "protocol/codec.h"
#include "protocol/json_text.h"

namespace spindle::loadgen {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using protocol::NodeAction;

int64_t steadyNowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
int64_t steadyNowMs() { return steadyNowUs() / 1000; }
int64_t wallNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {
constexpr int32_t kKilledByResourceManager = -106;  // ContainerExitStatus
}  // namespace

struct NodeFleet::Nm {
  Nm(asio::io_context& ioc, asio::ip::tcp::endpoint rm, std::chrono::milliseconds timeout)
      : conn(ioc, rm, timeout), timer(ioc) {}
  struct Running {
    std::string id;
    int64_t endMs = 0;
    int64_t memoryMb = 0, vcores = 0;
    int32_t exitStatus = 0;
    bool complete = false;
    bool sent = false;  // COMPLETE in the heartbeat in flight
    // Its ContainerStatus as the heartbeat carries it (jsonText), written when its state
    // changes rather than every heartbeat: a node reports each container every time.
    std::string text;
    void setState(bool done, int32_t exit) {
      complete = done;
      exitStatus = exit;
      protocol::ContainerStatus s;
      s.containerId = id;
      s.state = done ? protocol::ContainerState::COMPLETE : protocol::ContainerState::RUNNING;
      s.exitStatus = done ? exit : protocol::kInvalidExitStatus;
      text = protocol::jsonText(s);
    }
  };
  NodeSpec spec;
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
  size_t lastBodySize = 512;  // the last heartbeat's size, to reserve the next one's
};

NodeFleet::NodeFleet(asio::io_context& ioc, asio::ip::tcp::endpoint rm, const FleetOptions& o,
                     uint16_t listenerPort)
    : ioc_(ioc), rm_(rm), o_(o), listenerPort_(listenerPort) {}

NodeFleet::~NodeFleet() = default;

void NodeFleet::add(const NodeSpec& node) {
  auto nm = std::make_unique<Nm>(ioc_, rm_, std::chrono::milliseconds(o_.timeoutMs));
  nm->spec = node;
  nm->intervalMs = o_.heartbeatMs > 0 ? o_.heartbeatMs : 1000;
  byId_[node.nodeId] = nm.get();
  nms_.push_back(std::move(nm));
}

void NodeFleet::start() {
  for (auto& nm : nms_) registerNm(*nm);
}

void NodeFleet::noteError(const std::string& what, const HttpCall& r) {
  if (firstError.empty()) firstError = what + ": " + describe(r);
}

void NodeFleet::registerNm(Nm& nm) {
  protocol::RegisterNodeManagerRequest r;
  r.nodeId = nm.spec.nodeId;
  r.httpHost = nm.spec.httpHost;
  r.httpPort = listenerPort_;
  r.resource = {nm.spec.memoryMb, nm.spec.vcores};
  r.nmVersion = o_.nmVersion;
  r.nodeLabels = nm.spec.labels;
  r.nodeAttributes = nm.spec.attributes;
  // After a RESYNC: what still runs, with its resource (NMContainerStatus), as the NM does.
  for (const Nm::Running& c : nm.containers) {
    protocol::ContainerStatus s;
    s.containerId = c.id;
    s.state = c.complete ? protocol::ContainerState::COMPLETE : protocol::ContainerState::RUNNING;
    s.exitStatus = c.complete ? c.exitStatus : protocol::kInvalidExitStatus;
    s.allocatedResource = protocol::ResourceRecord{c.memoryMb, c.vcores};
    r.containerStatuses.push_back(std::move(s));
  }
  nm.conn.call(http::verb::post, "/rpc/v1/resource-tracker/register", protocol::toJson(r).dump(),
               [this, &nm](const HttpCall& c) {
                 auto resp = c.error.empty() && c.status == 200
                                 ? protocol::decode<protocol::RegisterNodeManagerResponse>(c.body)
                                 : Result<protocol::RegisterNodeManagerResponse>(
                                       spindle::internalError("failed"));
                 if (!resp || resp->nodeAction != NodeAction::NORMAL) {
                   noteError("register " + nm.spec.nodeId, c);
                   if (resp && resp->nodeAction == NodeAction::SHUTDOWN) {
                     nm.stopped = true;
                     ++counters_.shutdown;
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
                   counters_.lastNmResyncMs = wallNowMs();
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

void NodeFleet::scheduleHeartbeat(Nm& nm) {
  const auto now = asio::steady_timer::clock_type::now();
  nm.next += std::chrono::milliseconds(nm.intervalMs);
  if (nm.next < now) nm.next = now + std::chrono::milliseconds(nm.intervalMs);
  nm.timer.expires_at(nm.next);
  nm.timer.async_wait([this, &nm](boost::system::error_code ec) {
    if (!ec) heartbeat(nm);
  });
}

void NodeFleet::heartbeat(Nm& nm) {
  if (nm.stopped || !nm.registered) return;
  if (nm.conn.busy()) return scheduleHeartbeat(nm);  // the last one is still unanswered
  const int64_t now = steadyNowMs();
  for (Nm::Running& c : nm.containers) {
    if (!c.complete && c.endMs <= now) {
      c.setState(true, 0);
      --counters_.runningOnNodes;
    }
    c.sent = c.complete;
  }
  protocol::NodeHeartbeatRequest hb;  // its statuses are the containers' texts
  hb.nodeStatus.nodeId = nm.spec.nodeId;
  hb.nodeStatus.responseId = nm.responseId;
  hb.nodeStatus.nodeHealthStatus.lastHealthReportTime = wallNowMs();
  std::string body = protocol::jsonText(
      hb,
      [&nm](std::string& out) {
        for (size_t i = 0; i < nm.containers.size(); ++i) {
          if (i) out += ',';
          out += nm.containers[i].text;
        }
      },
      nm.lastBodySize + 64);
  nm.lastBodySize = body.size();
  const int64_t t0 = steadyNowUs();
  nm.conn.call(
      http::verb::post, "/rpc/v1/resource-tracker/heartbeat", std::move(body),
      [this, &nm, t0](const HttpCall& c) {
        auto resp = c.error.empty() && c.status == 200
                        ? protocol::decode<protocol::NodeHeartbeatResponse>(c.body)
                        : Result<protocol::NodeHeartbeatResponse>(spindle::internalError("failed"));
        if (!resp) {
          ++counters_.heartbeatErrors;
          noteError("heartbeat " + nm.spec.nodeId, c);
          return scheduleHeartbeat(nm);
        }
        if (resp->nodeAction == NodeAction::RESYNC) {
          ++counters_.resyncs;
          nm.registered = false;
          return registerNm(nm);
        }
        if (resp->nodeAction == NodeAction::SHUTDOWN) {
          noteError("heartbeat " + nm.spec.nodeId + " answered SHUTDOWN", c);
          nm.stopped = true;
          ++counters_.shutdown;
          return;
        }
        ++counters_.heartbeats;
        if (measuring) heartbeatLatencyUs.push_back(static_cast<uint32_t>(steadyNowUs() - t0));
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
            run.setState(true, kKilledByResourceManager);
            --counters_.runningOnNodes;
          }
        }
        scheduleHeartbeat(nm);
      });
}

bool NodeFleet::runOn(const std::string& nodeId, const std::string& containerId, int64_t endMs,
                      int64_t memoryMb, int64_t vcores) {
  auto it = byId_.find(nodeId);
  if (it == byId_.end()) {
    if (firstError.empty()) firstError = "a container on an unknown node " + nodeId;
    return false;
  }
  Nm::Running& run = it->second->containers.emplace_back();
  run.id = containerId;
  run.endMs = endMs;
  run.memoryMb = memoryMb;
  run.vcores = vcores;
  run.setState(false, 0);
  ++counters_.runningOnNodes;
  return true;
}

void NodeFleet::endNow(const std::string& nodeId, const std::string& containerId) {
  auto it = byId_.find(nodeId);
  if (it == byId_.end()) return;
  for (Nm::Running& run : it->second->containers) {
    if (run.id == containerId) run.endMs = 0;
  }
}

}  // namespace spindle::loadgen
