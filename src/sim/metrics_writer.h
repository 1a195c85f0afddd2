// The simulator's metrics outputs: realtimetrack.json (SLS's per-interval JSON array) and the
// metrics/ folder of Codahale-CsvReporter-style CSV files (docs/simulator.md lists every key),
// plus, once a capacity-preemption round has run, preemption.csv and preemption-rounds.csv
// (one row per round and queue / per round: what YARN's ProportionalCapacityPreemptionPolicy
// computed, the figures behind the YARN-569 charts).
//
//   MetricsWriter w;
//   SPINDLE_RETURN_IF_ERROR(w.open("out", {.timings = true, .trackedJobs = {"job_1"}}));
//   w.write(sample);      // one per yarn.sls.metrics.record.interval.ms of simulated time
//   w.writeRound(*sched.lastPreemptionRound());   // after each monitor round, if any
//   SPINDLE_RETURN_IF_ERROR(w.close());
//
// Everything except the timing fields is a function of the simulation, so with timings off
// every byte written is the same for the same trace, configuration and seed. Memory is in MB in
// the CSV files and in GB (MB / 1024) in realtimetrack.json, as SLS writes them.
#pragma once

#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/status.h"
#include "resource/resource.h"
#include "scheduler/preemption_report.h"
#include "sim/queue_figures.h"

namespace spindle::sim {

inline constexpr int kNodeUsageBuckets = 10;  // nodes.memory.0-10 ... nodes.memory.90-100

// Summary of the last `window` wall-clock op timings (Codahale's sliding-window histogram).
struct TimerStats {
  int64_t count = 0;  // ops since the start
  double max = 0, mean = 0, min = 0, stddev = 0, p50 = 0, p75 = 0, p95 = 0, p98 = 0, p99 = 0,
         p999 = 0;  // milliseconds, over the window
};

struct QueueSample {
  int64_t allocatedMb = 0, allocatedVcores = 0, pendingMb = 0, pendingVcores = 0;
  // Containers marked for preemption and killed as preempted, since the start (any scheduler).
  int64_t containersMarked = 0, containersPreempted = 0;
  std::optional<QueueLimits> limits;  // Scheduler::queueLimits: configured guarantee, maximum
};

// A leaf queue's figures from the last preemption round (default partition), carried into
// every sample until the next round.
struct QueuePreemptionSample {
  Resource guaranteed, idealAssigned, toBePreempted, actuallyToBePreempted, selected;
};

// Preemption rounds so far; present in a sample only once a round has run.
struct PreemptionSample {
  int64_t rounds = 0, containersMarked = 0, containersKilled = 0;  // totals since the start
  std::map<std::string, QueuePreemptionSample> queues;             // by leaf name
};

struct MetricsSample {
  TimeMs timeMs = 0;
  int64_t runningApps = 0, pendingApps = 0, completedApps = 0, runningContainers = 0;
  int64_t allocatedMb = 0, allocatedVcores = 0, availableMb = 0, availableVcores = 0;
  int64_t pendingMb = 0, pendingVcores = 0;
  std::map<std::string, QueueSample> queues;   // by leaf name
  std::map<std::string, int64_t> fairShareMb;  // by leaf name: Scheduler::fairShare, when known
  // By leaf name: Scheduler::queueShares (Fair Scheduler only), SLS's FairSchedulerMetrics.
  std::map<std::string, QueueShares> fairQueues;
  double commitsPerSecond = 0;  // allocations per simulated second over the last interval
  int64_t allocateOps = 0, handleOps = 0;                    // scheduler calls since the start
  TimerStats allocateTimer, handleTimer;                     // only written when timings are on
  std::array<int64_t, kNodeUsageBuckets> nodeMemoryUsage{};  // nodes per 10% bucket
  bool utilization = false;  // yarn.sls.nm.resource.utilization.ratio in (0, 1]
  double utilizationMb = 0, utilizationVcores = 0;
  std::map<std::string, std::pair<int64_t, int64_t>> trackedJobs;  // id -> live, reserved
  std::optional<PreemptionSample> preemption;  // absent until the first preemption round
};

// True when no other queue of the round lies below `queue` (a leaf, e.g. "root.a" but not
// "root"). The round lists every level; its per-sample figures and totals use leaves only.
bool isLeafOfRound(const PreemptionRoundReport& r, const std::string& queue);

struct MetricsWriterOptions {
  bool timings = true;
};

class MetricsWriter {
 public:
  MetricsWriter();
  ~MetricsWriter();
  Status open(const std::string& outputDir, MetricsWriterOptions options);
  void write(const MetricsSample& s);
  // One preemption round: a row per queue and partition in preemption.csv and a row in
  // preemption-rounds.csv (both created by the first round, so a run without preemption rounds
  // writes neither).
  void writeRound(const PreemptionRoundReport& r);
  // Ends the JSON array and flushes every file; errors name the file that failed.
  Status close();

 private:
  std::ofstream& csv(const std::string& name, const char* header);
  void row(const std::string& name, const char* header, double t, const std::string& value);

  std::string dir_;
  MetricsWriterOptions options_;
  std::ofstream track_;
  std::unique_ptr<std::ofstream> rounds_, roundQueues_;
  bool first_ = true;
  std::map<std::string, std::unique_ptr<std::ofstream>> files_;
};

}  // namespace spindle::sim
