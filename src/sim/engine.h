// The trace-replay engine behind `spindle sim`: a discrete-event simulation of node managers
// and application masters driving the scheduler core in simulated time.
//
//   EngineOptions opt;
//   opt.sls = slsSettingsFromConfig(conf, types).value();
//   opt.conf = conf;  opt.seed = 7;  opt.outputDir = "out";
//   auto engine = Engine::create(trace, opt);
//   SPINDLE_RETURN_IF_ERROR((*engine)->run());
//   for (const JobResult& j : (*engine)->jobs()) ...   // jobs.csv / jobruntime.csv rows
//
// Model (docs/simulator.md, "Engine"):
//  1. Time is simulated milliseconds. Timed events (job submissions, AM heartbeats every
//     yarn.sls.am.heartbeat.interval.ms, task ends, metric samples) sit in one heap ordered by
//     (time, sequence). NM heartbeats are a cyclic sweep over nodes sorted by their seeded phase
//     offset (heartbeat_sweep.h), merged with the heap by time; at equal times heap events go
//     first, then heartbeats in sweep order.
//  2. Every event reaches the scheduler through its Driver (scheduler/driver.h). A node
//     heartbeat reports the containers that ended since its last one (SUCCESS when the task's
//     duration ran out, ABORTED when the scheduler killed it) and lets the scheduler allocate
//     on the node (Driver::heartbeat, the NODE_UPDATE path).
//  3. The engine acts on each event's Outcome, in its order: allocated containers go to the
//     AM's inbox (seen on its next heartbeat, when the task's duration starts), completed and
//     killed ones to the AM and the NM, a grown preemption message wakes the AM, a finished
//     app ends its job; a submission's rejection ends the job. Decision records only go to
//     EngineOptions::decisionLog.
//  4. Heartbeat-skip rules: a node heartbeat with nothing to report is skipped exactly when
//     Driver::emptyHeartbeatIsNoop(node) says it would change nothing; when the scheduler has
//     no pending demand at all, the sweep jumps straight to the next node with something to
//     report. An AM whose inbox is empty and that has no timed work (AmSimulator::dueTime) is
//     parked: its heartbeats would do nothing; a notification or a preemption mark wakes it on
//     its own heartbeat grid (submission + k x interval). Outputs are identical with and
//     without both rules (EngineOptions::heartbeatSkip).
//  5. Monitors: a heap event at Driver::nextMonitorTick() delivers Driver::monitorTick(), and
//     the next one is pushed at the time the Driver gives after it; when that ran a
//     capacity-preemption round (Scheduler::lastPreemptionRound), its figures go to
//     preemption.csv / preemption-rounds.csv and, per leaf queue, into every metrics sample
//     until the next round.
//  5b. Reservations (the reservation system on, yarn.resourcemanager.reservation-system.enable):
//     a job that wants one (TraceJob::wantsReservation with a deadline) submits it to its queue
//     one plan step before its arrival, the last plan step strictly before the job's start (so
//     the follower has created its queue when the job comes): after SLS's createMRReservation,
//     an R_ORDER_NO_GAP definition of the map stage then the reduce stage, each one gang of all
//     its containers and the AM at the largest size, for the longest task duration plus two
//     plan steps and two AM heartbeats, up to the deadline.
//     Accepted, the job is submitted with the reservation id; refused, it runs without one. A
//     job starting within the first plan step does not reserve (no follower run precedes it).
//  5c. Placement (tasks with allocation tags or a placement spec): their AMs ask with
//     SchedulingRequests (am_simulator.h); a rejected request's tasks are given up and counted
//     in JobResult::rejections; the spread of tagged containers is kept (placement_tracker.h).
//  6. The run ends when every job has finished (or was rejected), or at `untilMs`, or when it
//     stalls: no submission, task end or action is left, every AM is idle (empty inbox, no
//     timed work), no node has anything to report, and either no app asks for anything or 100
//     full heartbeat cycles passed without a decision (asks no node can ever serve).
//     RunStats::stalled tells; the jobs stay as they are.
// Deterministic for a trace, configuration and seed, except the measured op timings.
// Single-threaded.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/rng.h"
#include "base/status.h"
#include "config/configuration.h"
#include "scheduler/driver.h"
#include "scheduler/scheduler.h"
#include "sim/am_simulator.h"
#include "sim/event_queue.h"
#include "sim/heartbeat_sweep.h"
#include "sim/metrics_writer.h"
#include "sim/placement_tracker.h"
#include "trace/sls_settings.h"
#include "trace/trace.h"

namespace spindle::sim {

struct Progress {
  TimeMs simMs = 0;
  int64_t jobsDone = 0, jobsTotal = 0;
  int64_t steps = 0;  // heap events + node heartbeat slots visited
};

struct EngineOptions {
  SlsSettings sls;
  Configuration conf;  // merged yarn-site, scheduler and sls-runner files
  uint64_t seed = 1;
  std::optional<TimeMs> untilMs;
  bool heartbeatSkip = true;
  bool timings = true;    // measure scheduler op wall time (metrics timecost keys)
  std::string outputDir;  // realtimetrack.json and metrics/ when non-empty (and metrics on)
  std::vector<std::string> trackJobs;
  DecisionSink* decisionLog = nullptr;  // receives every decision record, in order
  int64_t checkInvariantsEvery = 0;     // Scheduler::checkInvariants every N events (0 = never)
  std::function<void(const Progress&)> progress;  // called every 2^16 steps
};

struct JobResult {
  std::string id, queue, user, amType;
  int64_t traceStartMs = 0;
  std::optional<int64_t> traceEndMs;
  TimeMs submitMs = 0;
  std::optional<TimeMs> startMs;  // AM container allocated (first attempt that got one)
  std::optional<TimeMs> endMs;
  int tasks = 0;
  std::string state = "NEW";  // ACCEPTED, RUNNING, FINISHED, KILLED, FAILED, REJECTED
  AppId app;
  std::string note;  // why it was rejected or killed
  // Reservations (SYNTH's chance_of_reservation, an SLS job's reservation keys): the job asked
  // for one; the plan accepted it (its id), or why not; the deadline it was asked for.
  bool reservationAsked = false;
  std::string reservationId;  // "" unless accepted
  std::string reservationNote;
  std::optional<TimeMs> deadlineMs;
  // Placement: allocations of the job's SchedulingRequests rejected, by RejectionReason name.
  std::map<std::string, int64_t> rejections;
  // Preemption, under any scheduler: the job's containers marked for preemption (its
  // preemption message named them), the running ones its AM gave back in answer, those killed
  // with exit status PREEMPTED, the time the given-back and killed ones had run since their
  // launch (ms, summed; 0 for one lost before it launched), and the new attempts started after
  // its AM container was lost (RMAppAttempt retries).
  int64_t preemptionMarked = 0, preemptionReleased = 0, preempted = 0, preemptedRunMs = 0,
          amRestarts = 0;
};

struct RunStats {
  TimeMs endMs = 0;
  int64_t heapEvents = 0, heartbeats = 0, heartbeatsSkipped = 0;
  int64_t allocations = 0, containersCompleted = 0, containersKilled = 0, amRestarts = 0;
  // Every allocated container once: AM or task when allocated; when ended, completed on its
  // node, released by its AM, or killed by the scheduler (preempted among them: exit status
  // PREEMPTED); or still running when the run stopped. allocations = amAllocations + task
  // allocations = ended.completed + ended.released + ended.killed + runningAtEnd.
  int64_t amAllocations = 0, endedCompleted = 0, endedReleased = 0, endedKilled = 0,
          endedPreempted = 0, runningAtEnd = 0;
  int64_t decisions = 0;
  // Capacity-preemption rounds run, containers they marked, containers they killed after
  // max_wait_before_kill (also counted in containersKilled).
  int64_t preemptionRounds = 0, containersMarked = 0, containersPreemptKilled = 0;
  bool stalled = false;
  double wallSeconds = 0;
  // Allocated memory integrated over simulated time (MB x ms) and the cluster's memory: the
  // cluster utilisation of the run is allocatedMbMs / (clusterMb x endMs).
  double allocatedMbMs = 0;
  int64_t clusterMb = 0;
};

class Engine final {
 public:
  static Result<std::unique_ptr<Engine>> create(const Trace& trace, EngineOptions options);
  ~Engine();

  Status run();

  const std::vector<JobResult>& jobs() const { return results_; }
  const RunStats& stats() const { return stats_; }
  const Scheduler& scheduler() const { return driver_->scheduler(); }
  const HeartbeatSweep& sweep() const { return *sweep_; }
  // The spread of tagged containers; null unless the trace has placement keys.
  const PlacementTracker* placement() const { return placementTracker_.get(); }

  // At simulated time `t` (before heartbeats at `t`), delivers the event `action` returns for
  // the scheduler's state then: injected faults such as a lost node (NodeRemoved). An error
  // ends the run. Call before run().
  void scheduleAction(TimeMs t, std::function<Result<SchedulerEvent>(const Scheduler&)> action);

 private:
  struct JobRun {
    AmKind kind = AmKind::kMapReduce;
    std::unique_ptr<AmSimulator> am;
    TimeMs nextBeat = std::numeric_limits<TimeMs>::max();  // max = parked (or ended)
    bool terminal = false;
    bool busy = false;  // inbox not empty or timed work ahead (stall detection)
  };
  class TimerWindow {
   public:
    explicit TimerWindow(size_t size) : window_(size > 0 ? size : 1) {}
    void add(double ms);
    TimerStats stats() const;
    int64_t count() const { return count_; }
    void countOnly() { ++count_; }

   private:
    std::vector<double> window_;
    int64_t count_ = 0;
  };

  Engine(const Trace& trace, EngineOptions options);
  Status setUpNodes();
  Status setUpPlacement();
  void rejected(const RejectedSchedulingRequest& r);
  Status onEvent(const SimEvent& e);
  Status submit(uint32_t job);
  Status reserve(uint32_t job);
  Status amHeartbeat(uint32_t job);
  Status nodeHeartbeat(uint32_t node);
  void taskEnded(const SimEvent& e);
  void scheduleReport(uint32_t node);
  bool stalled(bool demand);
  void updateBusy(uint32_t job);
  void scheduleBeat(uint32_t job, TimeMs t);
  void afterBeat(uint32_t job);
  void wakeAm(uint32_t job);
  TimeMs gridBeatAtOrAfter(uint32_t job, TimeMs t) const;
  void markTerminal(uint32_t job, std::string state, std::string note);
  void sample();
  void recordPreemptionRound();
  template <typename F>
  auto timed(TimerWindow* extra, F&& f) -> decltype(f());
  // Applies an event's outcome, or returns its error.
  Status deliver(Result<const Outcome&> out);
  void apply(const Outcome& out);
  void allocated(const ContainerChange& c);
  void finished(const ContainerChange& c);
  JobRun* jobOfApp(AppId app);
  void nodeMemoryChanged(NodeId node, int64_t deltaMb);
  int bucketOf(uint32_t node) const;

  const Trace& trace_;
  EngineOptions opt_;
  SimulatedClock clock_;
  Rng rng_;
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<HeartbeatSweep> sweep_;
  EventQueue events_;
  std::vector<JobRun> runs_;
  std::vector<JobResult> results_;
  std::vector<uint32_t> appToJob_;          // by AppId value
  const SimEvent* currentEvent_ = nullptr;  // the heap event being handled, if any
  size_t terminal_ = 0;
  int64_t completedApps_ = 0;

  // Node managers, by node index (= order in trace.nodes).
  std::vector<NodeId> nodeIds_;
  std::vector<uint32_t> nodeIndexOf_;  // by NodeId value
  std::vector<std::vector<CompletedContainer>> reports_;
  std::vector<Position> reportPos_;
  std::priority_queue<Position, std::vector<Position>, std::greater<>> reportHeap_;
  struct Launched {
    uint32_t node = 0;   // node index
    TimeMs sinceMs = 0;  // when it launched
  };
  std::unordered_map<ContainerId, Launched> running_;  // launched containers
  Position cursor_ = 0;
  Position quietSince_ = -1;  // cursor when the run went quiet (stall detection)
  int64_t quietDecisions_ = 0;
  int64_t busyAms_ = 0;

  // Metrics.
  std::unique_ptr<MetricsWriter> metrics_;
  std::vector<int64_t> nodeAllocMb_, nodeTotalMb_;
  int64_t allocatedMb_ = 0;    // the sum of nodeAllocMb_
  TimeMs allocatedSince_ = 0;  // time of the last change of allocatedMb_
  std::array<int64_t, kNodeUsageBuckets> buckets_{};
  std::set<std::string> knownQueues_;
  int64_t allocsAtLastSample_ = 0;
  TimeMs lastSampleMs_ = -1;
  TimerWindow allocateTimer_, handleTimer_;
  std::map<std::string, uint32_t> tracked_;  // job id -> job index
  std::vector<std::function<Result<SchedulerEvent>(const Scheduler&)>> actions_;
  std::optional<TimeMs> lastRoundMs_;           // time of the last preemption round recorded
  std::optional<PreemptionSample> preemption_;  // totals and the last round's leaf figures
  // By leaf queue: containers marked for preemption (the app's preemption message grew) and
  // containers killed with exit status PREEMPTED, since the start (any scheduler).
  std::map<std::string, std::pair<int64_t, int64_t>> preemptedByQueue_;
  std::string queueOfApp(AppId app) const;

  // Placement (a trace with tags or placement specs only).
  std::unique_ptr<PlacementAsks> placementAsks_;
  std::unique_ptr<PlacementTracker> placementTracker_;

  RunStats stats_;
};

}  // namespace spindle::sim
