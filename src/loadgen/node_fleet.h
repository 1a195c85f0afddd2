// Simulated NodeManagers for the daemon load generators (bench/rm_load, `spindle sls`): each
// registers with a running `spindle rm` over the ResourceTracker protocol and heartbeats on a
// fixed rate, reporting the containers it was told to run as RUNNING until their end time, then
// COMPLETE (exit 0) until the RM answers the heartbeat that carried it. Nothing runs: a
// container is an id and an end time.
//
//   NodeFleet fleet(ioc, rmEndpoint, {.heartbeatMs = 100}, listener.port());
//   fleet.add({.nodeId = "node1:20000", .httpHost = "127.0.0.1", .memoryMb = 8192, .vcores = 8});
//   fleet.start();                                  // register every node
//   fleet.runOn("node1:20000", containerId, steadyNowMs() + 500, {1024, 1});
//   ioc.run();
//
// Algorithm of one node:
//  1. Register (nodeId, httpPort = the shared container listener's port, resource, labels,
//     attributes).
//     SHUTDOWN stops the node; any other failure retries after a second. After a RESYNC it
//     registers again with what still runs (NMContainerStatus), as the NM does.
//  2. Heartbeat every `heartbeatMs` (0: the RM's nextHeartBeatInterval), the first one at a
//     random offset within one interval so the nodes spread out; a heartbeat whose previous one
//     is unanswered is skipped. Each reports every container: RUNNING, or COMPLETE once its end
//     time has passed; a COMPLETE one is dropped once a heartbeat carrying it was answered.
//  3. containersToCleanup complete at once with exit status -106 (KILLED_BY_RESOURCEMANAGER).
// Thread-compatible: everything runs on the io_context's thread.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio.hpp>

#include "loadgen/async_connection.h"
#include "protocol/records.h"

namespace spindle::loadgen {

// Monotonic time (ms, µs) for durations; wall time (ms since the epoch) for reports.
int64_t steadyNowMs();
int64_t steadyNowUs();
int64_t wallNowMs();

inline constexpr int64_t kRunsForever = std::numeric_limits<int64_t>::max();

struct NodeSpec {
  std::string nodeId;    // host:port, unique
  std::string httpHost;  // where the RM reaches the container listener; "" = the nodeId's host
  int64_t memoryMb = 0;
  int64_t vcores = 0;
  std::vector<std::string> labels;
  std::vector<protocol::NodeAttributeRecord> attributes;  // distributed (nm.yarn.io) ones
};

struct FleetOptions {
  int64_t heartbeatMs = 0;     // 0: the RM's nextHeartBeatInterval
  int64_t timeoutMs = 30'000;  // per HTTP call
  std::string nmVersion = "loadgen";
};

// Counts since start; latencies only while `measuring`.
struct FleetCounters {
  int64_t nmsRegistered = 0, heartbeats = 0, heartbeatErrors = 0, resyncs = 0;
  int64_t runningOnNodes = 0;  // containers the nodes report RUNNING
  int64_t nmsResynced = 0;     // registered again after RESYNC, each node counted once
  int64_t lastNmResyncMs = 0;  // wall ms of the last of those
  int64_t shutdown = 0;        // nodes the RM told to SHUT DOWN
};

class NodeFleet {
 public:
  NodeFleet(boost::asio::io_context& ioc, boost::asio::ip::tcp::endpoint rm,
            const FleetOptions& options, uint16_t listenerPort);
  ~NodeFleet();

  // Before start(): a node to simulate. Its id must be unique.
  void add(const NodeSpec& node);
  void start();
  bool has(const std::string& nodeId) const { return byId_.count(nodeId) > 0; }

  // The container runs on the node until steady time `endMs` (kRunsForever: until endNow).
  // False for an unknown node (noted in firstError).
  bool runOn(const std::string& nodeId, const std::string& containerId, int64_t endMs,
             int64_t memoryMb, int64_t vcores);
  // The container's process exits now (an AM after it unregistered).
  void endNow(const std::string& nodeId, const std::string& containerId);

  const FleetCounters& counters() const { return counters_; }
  bool measuring = false;
  std::vector<uint32_t> heartbeatLatencyUs;
  std::string firstError;  // the first unexpected answer

 private:
  struct Nm;
  void registerNm(Nm& nm);
  void heartbeat(Nm& nm);
  void scheduleHeartbeat(Nm& nm);
  void noteError(const std::string& what, const HttpCall& r);

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::endpoint rm_;
  FleetOptions o_;
  uint16_t listenerPort_;
  FleetCounters counters_;
  std::vector<std::unique_ptr<Nm>> nms_;
  std::unordered_map<std::string, Nm*> byId_;
};

}  // namespace spindle::loadgen
