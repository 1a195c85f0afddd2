// The state of one `spindle sls` run (sls_run.h), shared by sls_run.cc (nodes, clock, job
// submissions) and sls_run_am.cc (the AMs' protocol calls). Private to src/sls/.
// Single-threaded: everything runs on `ioc`; the container listener posts to it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <nlohmann/json.hpp>

#include "loadgen/async_connection.h"
#include "loadgen/container_listener.h"
#include "loadgen/node_fleet.h"
#include "protocol/http_client.h"
#include "sls/sls_run.h"
#include "sls/trace_am.h"

namespace spindle::sls {

namespace asio = boost::asio;
using loadgen::HttpCall;
using loadgen::steadyNowMs;

struct SlsRun::Impl {
  struct Job {
    Job(asio::io_context& ioc, asio::ip::tcp::endpoint rm, const TraceJob& tj,
        const sim::AmKind kind, const sim::PlacementAsks* placement, RackOf rackOf)
        : conn(ioc, rm, std::chrono::milliseconds(30'000)),
          timer(ioc),
          pollTimer(ioc),
          trace(tj),
          am(tj, kind, placement, std::move(rackOf)) {}
    loadgen::AsyncConnection conn;
    asio::steady_timer timer;      // submission, then the allocate calls
    asio::steady_timer pollTimer;  // the state polls until the AM registers
    const TraceJob& trace;
    TraceAm am;
    std::string attemptId, amContainerId, amNode;
    int32_t responseId = 0;
    bool submitted = false, ended = false, registered = false, finishing = false;
    TraceAm::Beat pending;  // asks and releases for the next allocate call
  };

  Impl(SlsRun& owner, const Trace& trace, const SlsRunOptions& o)
      : self(owner),
        trace(trace),
        o(o),
        listener(ioc, [this](std::vector<std::string> ids) { onAmContainers(ids); }),
        control(ioc) {}

  SlsRun& self;
  const Trace& trace;
  SlsRunOptions o;
  asio::io_context ioc;
  asio::ip::tcp::endpoint rm;
  loadgen::ContainerListener listener;
  std::unique_ptr<loadgen::NodeFleet> fleet;
  std::vector<std::unique_ptr<Job>> jobs;
  std::unordered_map<std::string, size_t> jobByApp;
  std::unordered_map<std::string, std::string> rackOfNode;  // as the RM sees it
  asio::steady_timer control;
  int64_t t0 = -1;  // steady ms when the clock started
  int64_t registerDeadline = 0;
  size_t ended = 0;
  Status startError = Status::ok();

  int64_t simNow() const {
    return static_cast<int64_t>(std::llround(static_cast<double>(steadyNowMs() - t0) * o.speed));
  }
  int64_t wallFor(int64_t simMs) const {
    return static_cast<int64_t>(std::llround(static_cast<double>(simMs) / o.speed));
  }
  void noteError(const std::string& what, const HttpCall& r) {
    ++self.stats_.errors;
    if (self.stats_.firstError.empty()) self.stats_.firstError = what + ": " + loadgen::describe(r);
  }
  void noteError(const std::string& what) {
    ++self.stats_.errors;
    if (self.stats_.firstError.empty()) self.stats_.firstError = what;
  }

  Status setUp();
  Status addNodeLabels(protocol::HttpClient& client);
  Status addCentralisedAttributes();
  Status readRacks();
  void tick();
  void startClock();
  void endJob(size_t i, const std::string& state, const std::string& note);
  void newApplication(size_t i);
  void submit(size_t i, const std::string& appId);
  void pollState(size_t i);
  void onAmContainers(const std::vector<std::string>& ids);
  void findAmNode(size_t i);
  void registerAm(size_t i);
  void allocate(size_t i);
  void scheduleAllocate(size_t i);
  void startTasks(const std::vector<TaskToStart>& starts);
  void finishAm(size_t i);
};

}  // namespace spindle::sls
