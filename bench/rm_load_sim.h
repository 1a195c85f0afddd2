// The simulated NodeManagers and ApplicationMasters of the daemon load generator (rm_load.cc).
// N NMs (loadgen/node_fleet.h) register with a running `spindle rm` and heartbeat on a fixed
// rate, reporting their containers RUNNING until a set duration has passed, then COMPLETE.
// M AMs are submitted over REST (new-application, then POST apps); the RM launches each AM
// container on one of the simulated NMs (containers/start on the generator's one listener,
// loadgen/container_listener.h, which every simulated NM gives as its httpPort), the AM
// registers and calls allocate in a loop keeping `pending` containers asked for, and every
// container it gets "runs" on its simulated NM for the duration.
//
//   asio::io_context ioc;
//   Load load(options, ioc, listenerPort);
//   load.start();        // register NMs, submit AMs
//   ioc.run();           // until load.finished() stops it
// Thread-compatible: everything runs on the io_context's thread, onContainerStart() included.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio.hpp>

#include "loadgen/async_connection.h"
#include "loadgen/container_listener.h"
#include "loadgen/node_fleet.h"
#include "protocol/records.h"

namespace spindle::bench {

struct LoadOptions {
  std::string rmHost = "127.0.0.1";
  uint16_t rmPort = 8088;
  int nms = 10'000;
  int ams = 100;
  int64_t nodeMemoryMb = 262'144;
  int64_t nodeVcores = 256;
  int64_t containerMb = 1024;
  int64_t containerMs = 1000;  // how long a container "runs" on its simulated NM
  int32_t pending = 1000;      // containers each AM keeps asked for
  int64_t amIntervalMs = 100;  // between an AM's allocate calls
  int64_t heartbeatMs = 0;     // 0: the RM's nextHeartBeatInterval
  int firstNodePort = 20'000;  // node ids are 127.0.0.1:<firstNodePort + i>
  int64_t timeoutMs = 30'000;  // per HTTP call
  // > 0: each AM asks for this many containers in all (once per registration, what it still
  // lacks), keeps them running and never finishes; `pending` and `containerMs` are not used.
  int32_t hold = 0;
  double submitPerS = 0;  // AM submissions per second; 0: all at once
};

// Counts since start; latencies only while `measuring`.
struct LoadCounters {
  int64_t nmsRegistered = 0, heartbeats = 0, heartbeatErrors = 0, resyncs = 0;
  int64_t amsRegistered = 0, amsFinished = 0, amErrors = 0, amResyncs = 0;
  int64_t allocateCalls = 0, allocated = 0, returned = 0, amContainersStarted = 0;
  int64_t runningOnNodes = 0;  // containers the simulated NMs report RUNNING
  // Registered again after RESYNC (NMs) or AM_RESYNC (AMs), each counted once, and the wall
  // time (ms since the epoch) of the last one.
  int64_t nmsResynced = 0, amsResynced = 0, lastNmResyncMs = 0, lastAmResyncMs = 0;
};

class Load {
 public:
  Load(const LoadOptions& o, boost::asio::io_context& ioc, uint16_t listenerPort);
  ~Load();

  void start();
  // Ask every AM to finish (FinishApplicationMaster, SUCCEEDED) after its current call.
  void finishAms();
  // Kept in sync by the I/O thread; read on the same thread.
  LoadCounters counters() const;
  void setMeasuring(bool on);
  std::vector<uint32_t> allocateLatencyUs;
  std::vector<uint32_t>& heartbeatLatencyUs() { return fleet_.heartbeatLatencyUs; }
  // The first unexpected answer, for the report.
  std::string firstError() const { return amError_.empty() ? fleet_.firstError : amError_; }

  // The RM asked the simulated NM listener to start these containers (AM containers).
  void onContainerStart(std::vector<std::string> containerIds);

 private:
  struct Am;
  void newApplication(Am& am);
  void submit(Am& am);
  void findAmNode(Am& am);
  void registerAm(Am& am);
  void allocate(Am& am);
  void scheduleAllocate(Am& am);
  void finishAm(Am& am);
  void noteError(const std::string& what, const loadgen::HttpCall& r);

  LoadOptions o_;
  boost::asio::io_context& ioc_;
  uint16_t listenerPort_;
  boost::asio::ip::tcp::endpoint rm_;
  loadgen::NodeFleet fleet_;
  LoadCounters counters_;  // the AMs' fields; counters() adds the NMs'
  std::vector<std::unique_ptr<Am>> ams_;
  std::unordered_map<std::string, Am*> amByApp_;
  bool measuring_ = false;
  bool finishing_ = false;
  std::string amError_;
};

using loadgen::steadyNowMs;

}  // namespace spindle::bench
