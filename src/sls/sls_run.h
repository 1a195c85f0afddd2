// The run behind `spindle sls`: a trace replayed against a running `spindle rm` over the real
// protocols, in real time divided by `speed`, as YARN's SLS drives its ResourceManager with
// simulated NodeManagers and ApplicationMasters in one process.
//
//   SlsRunOptions o;  o.rmHost = "127.0.0.1";  o.rmPort = 8088;  o.speed = 10;  o.sls = sls;
//   SlsRun run(trace, o);
//   Status s = run.run();                     // every job ended, or the timeout
//   writeJobRuntimeCsv("out/jobruntime.csv", run.jobs());
//
// Algorithm:
//  1. One simulated NM per trace node (loadgen/node_fleet.h): node id <host>:<port> with the
//     trace's host name (so node-local asks match), the trace's resource, labels (the
//     cluster's node labels are added over REST first) and nm.yarn.io attributes (the others
//     are set over the admin's REST mapping once the nodes registered), heartbeating every
//     yarn.sls.nm.heartbeat.interval.ms / speed. The RM reaches them at 127.0.0.1 through one
//     container listener (RegisterNodeManagerRequest.httpHost). The run waits until every node
//     registered, reads the racks the RM gave them, and starts its clock: simulated time is
//     (wall time since then) x speed.
//  2. Each job is submitted at its start time (new-application, then POST apps with its queue,
//     user (user.name), priority and the AM container's resource). The RM launches the AM
//     container on the listener; the job's AM (trace_am.h) finds its node, runs it there until
//     it unregisters, registers and calls allocate every yarn.sls.am.heartbeat.interval.ms /
//     speed. Right after each answer it hands the containers to the simulator's AM logic,
//     starts the tasks it assigns (each runs its duration / speed on its node, then the node
//     reports it COMPLETE) and keeps the resulting asks for the next call.
//  3. When every task is done the AM unregisters (SUCCEEDED). A job whose submission the RM
//     refuses, or whose application ends otherwise (polled every second while its AM is not
//     running), ends in that state.
//  4. The run ends when every job has ended, or after `timeoutMs`.
// Single-threaded: everything runs on the run's io_context.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/am_simulator.h"
#include "sim/engine.h"
#include "trace/sls_settings.h"
#include "trace/trace.h"

namespace spindle::sls {

struct SlsRunOptions {
  std::string rmHost = "127.0.0.1";
  uint16_t rmPort = 8088;
  double speed = 1;                    // simulated ms per wall ms
  int64_t timeoutMs = 3'600'000;       // the whole run, wall
  int64_t registerTimeoutMs = 60'000;  // for every node to register, wall
  SlsSettings sls;
  const sim::PlacementAsks* placement = nullptr;  // required when a task uses placement
  int firstNodePort = 20'000;                     // node i is <host>:<firstNodePort + i>
};

// Per job, beside sim::JobResult: what the RM gave it.
struct SlsJobCounts {
  std::string appId;
  int64_t containers = 0;  // task containers allocated to it
  int64_t tasksDone = 0;
  int64_t rejectedTasks = 0;  // given up after a rejected SchedulingRequest
};

struct SlsStats {
  int64_t nodes = 0, heartbeats = 0, heartbeatErrors = 0;
  int64_t allocateCalls = 0, allocations = 0, amContainers = 0, completedReturned = 0;
  double wallSeconds = 0;  // from the clock's start to the end
  int64_t makespanMs = 0;  // simulated: the last job's end
  bool timedOut = false;
  int64_t errors = 0;
  std::string firstError;  // the first unexpected answer of the RM
};

class SlsRun {
 public:
  SlsRun(const Trace& trace, const SlsRunOptions& options);
  ~SlsRun();

  // Replays the trace. An error only when the run could not start (the RM unreachable, a node
  // refused, the listener); the RM's errors during the run are counted in stats().
  Status run();

  const std::vector<sim::JobResult>& jobs() const { return results_; }
  const std::vector<SlsJobCounts>& counts() const { return counts_; }
  const SlsStats& stats() const { return stats_; }
  // Trace features the daemon run cannot reproduce, one line each (also printed by the CLI).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<sim::JobResult> results_;
  std::vector<SlsJobCounts> counts_;
  SlsStats stats_;
  std::vector<std::string> warnings_;
};

// The trace features a daemon run leaves out or changes, as warnings (pure; SlsRun adds the
// rack ones once the RM's racks are known).
std::vector<std::string> unsupportedFeatures(const Trace& trace, const SlsSettings& sls);

}  // namespace spindle::sls
