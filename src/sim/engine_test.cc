#include "sim/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "app/container_state.h"
#include "dao/decision_json.h"
#include "sim/job_outputs.h"
#include "sim/test_traces.h"

namespace spindle::sim {
namespace {

using testing::JobBuilder;
using testing::TraceBuilder;

struct Run {
  DecisionLog log;
  std::unique_ptr<Engine> engine;
  std::string logText;  // the decision log as written by --decision-log
};

std::unique_ptr<Run> runTrace(const Trace& trace, EngineOptions opt = {},
                              const std::function<void(Engine&)>& setUp = {}) {
  auto r = std::make_unique<Run>();
  if (opt.sls.nodeResource.isZero()) opt.sls = testing::testSls();
  // These tests follow FIFO's decisions; YARN's (and Spindle's) default is the Capacity Scheduler.
  if (opt.conf.get("yarn.resourcemanager.scheduler.class", "").empty()) {
    opt.conf.set("yarn.resourcemanager.scheduler.class", "fifo");
  }
  opt.decisionLog = &r->log;
  opt.timings = false;
  auto e = Engine::create(trace, opt);
  EXPECT_TRUE(e.isOk()) << e.status().message();
  r->engine = std::move(*e);
  if (setUp) setUp(*r->engine);
  Status s = r->engine->run();
  EXPECT_TRUE(s.isOk()) << s.message();
  EXPECT_TRUE(r->engine->scheduler().checkInvariants().isOk());
  size_t seq = 0;
  for (const Decision& d : r->log.decisions()) {
    r->logText += decisionToJson(r->engine->scheduler(), d, seq++).dump() + "\n";
  }
  return r;
}

EngineOptions opts(uint64_t seed, bool skip = true, std::optional<TimeMs> until = {}) {
  EngineOptions o;
  o.seed = seed;
  o.heartbeatSkip = skip;
  o.untilMs = until;
  return o;
}

std::vector<Decision> ofKind(const DecisionLog& log, DecisionKind k) {
  std::vector<Decision> out;
  for (const Decision& d : log.decisions()) {
    if (d.kind == k) out.push_back(d);
  }
  return out;
}

TEST(Engine, MapReduceJobTimesFollowTheHeartbeats) {
  // One node beating at offset o < 1000; AM beats at 1000, 2000, ... after the submission at 0.
  // AM container at o; maps asked at 1000, allocated at 1000+o, started at 2000 (the AM's
  // next beat), end at 7000, reported at the node's beat >= 7000; the AM sees it at 8000 and asks
  // the reduce, which starts at 9000 and ends at 12000; seen at 13000: the job finishes.
  auto r = runTrace(
      TraceBuilder().nodes(1).job(JobBuilder("j1").maps(2, 5000).reduces(1, 3000)).build());
  const JobResult& j = r->engine->jobs().at(0);
  const TimeMs o = r->engine->sweep().offsetOf(0);
  EXPECT_EQ(j.state, "FINISHED");
  EXPECT_EQ(j.submitMs, 0);
  EXPECT_EQ(*j.startMs, o);
  EXPECT_EQ(*j.endMs, 13000);
  EXPECT_EQ(j.queue, "default");
  auto allocs = ofKind(r->log, DecisionKind::kAllocate);
  ASSERT_EQ(allocs.size(), 4u);
  EXPECT_TRUE(allocs[0].am);
  EXPECT_EQ(allocs[1].time, 1000 + o);
  EXPECT_EQ(allocs[3].key.priority, 10);
  EXPECT_EQ(allocs[3].time, 8000 + o);
  // Every task container completed SUCCESS; the AM container was released at the end.
  auto done = ofKind(r->log, DecisionKind::kComplete);
  ASSERT_EQ(done.size(), 3u);
  for (const Decision& d : done) EXPECT_EQ(d.exitStatus, ContainerExitStatus::SUCCESS);
  auto released = ofKind(r->log, DecisionKind::kRelease);
  ASSERT_EQ(released.size(), 1u);
  EXPECT_TRUE(released[0].am);
  EXPECT_EQ(r->engine->stats().endMs, 13000);
}

TEST(Engine, ReducesAreAllocatedOnlyAfterEveryMapCompleted) {
  auto r = runTrace(TraceBuilder()
                        .nodes(3)
                        .job(JobBuilder("a").maps(7, 3000).reduces(3, 1000))
                        .job(JobBuilder("b").at(500).maps(4, 2500).reduces(2, 1000))
                        .build(),
                    opts(5));
  for (AppId app : {AppId(1), AppId(2)}) {
    TimeMs lastMapDone = -1, firstReduce = -1;
    for (const Decision& d : r->log.decisions()) {
      if (d.app != app) continue;
      if (d.kind == DecisionKind::kComplete && d.key.priority == 20) lastMapDone = d.time;
      if (d.kind == DecisionKind::kAllocate && d.key.priority == 10 && firstReduce < 0) {
        firstReduce = d.time;
      }
    }
    EXPECT_GT(firstReduce, lastMapDone) << "app " << app.value();
  }
  for (const JobResult& j : r->engine->jobs()) EXPECT_EQ(j.state, "FINISHED");
}

Trace busyTrace() {
  TraceBuilder b;
  b.nodes(6, 4096);
  for (int i = 0; i < 12; ++i) {
    b.job(JobBuilder("job_" + std::to_string(i))
              .at(i * 1700)
              .task(TaskType::kMap, 4000 + 300 * i, "node" + std::to_string(1 + i % 6))
              .maps(3 + i % 4, 2000 + 500 * (i % 3))
              .reduces(1 + i % 2, 1500)
              .task(TaskType::kMap, 3000, "", 0, 2048));
  }
  b.job(JobBuilder("dag")
            .type("dag")
            .at(3000)
            .task(TaskType::kMap, 2000, "", 0)
            .task(TaskType::kMap, 1000, "", 4000));
  b.job(JobBuilder("stream").type("stream").at(2000).end(30000).maps(2, 7000));
  return b.build();
}

TEST(Engine, HeartbeatSkipLeavesTheDecisionLogIdentical) {
  const Trace t = busyTrace();
  auto fast = runTrace(t, opts(3, true));
  auto naive = runTrace(t, opts(3, false));
  EXPECT_EQ(fast->logText, naive->logText);
  EXPECT_GT(fast->log.decisions().size(), 100u);
  EXPECT_GT(fast->engine->stats().heartbeatsSkipped, 0);
  EXPECT_EQ(naive->engine->stats().heartbeatsSkipped, 0);
  EXPECT_LT(fast->engine->stats().heartbeats, naive->engine->stats().heartbeats);
  for (size_t i = 0; i < t.jobs.size(); ++i) {
    EXPECT_EQ(fast->engine->jobs()[i].endMs, naive->engine->jobs()[i].endMs);
    EXPECT_EQ(fast->engine->jobs()[i].state, "FINISHED") << t.jobs[i].id;
  }
}

TEST(Engine, SameSeedSameRunOtherSeedOtherOffsets) {
  const Trace t = busyTrace();
  auto a = runTrace(t, opts(9));
  auto b = runTrace(t, opts(9));
  auto c = runTrace(t, opts(10));
  EXPECT_EQ(a->logText, b->logText);
  EXPECT_NE(a->logText, c->logText) << "the NM phase offsets come from the seed";
}

TEST(Engine, DagTaskIsAskedItsDelayAfterTheAmStarted) {
  auto r = runTrace(TraceBuilder()
                        .nodes(1)
                        .job(JobBuilder("d")
                                 .type("dag")
                                 .task(TaskType::kMap, 1000, "", 0)
                                 .task(TaskType::kMap, 1000, "", 5000))
                        .build());
  auto allocs = ofKind(r->log, DecisionKind::kAllocate);
  ASSERT_EQ(allocs.size(), 3u);
  const TimeMs o = r->engine->sweep().offsetOf(0);
  // The AM starts on its beat at 1000; the delayed task is asked at the beat >= 6000.
  EXPECT_EQ(allocs[1].time, 1000 + o);
  EXPECT_EQ(allocs[2].time, 6000 + o);
  EXPECT_EQ(r->engine->jobs()[0].state, "FINISHED");
}

TEST(Engine, KilledTaskIsRequestedAgainAndLostAmRestartsTheAttempt) {
  // Two nodes; at 2500 the node running the AM and the first map is lost: its containers end
  // ABORTED, the attempt fails and a second attempt runs the job to the end on the other node.
  const Trace t = TraceBuilder().nodes(2, 2048).job(JobBuilder("j").maps(2, 4000)).build();
  std::string lostNode;
  auto r = runTrace(t, opts(1), [&](Engine& e) {
    e.scheduleAction(2500, [&](const Scheduler& s) -> Result<SchedulerEvent> {
      const Container* am = nullptr;
      for (const auto& [id, c] : s.containers()) {
        if (c.isAm) am = &c;
      }
      if (am == nullptr) return internalError("no AM container at 2500");
      lostNode = s.cluster().nodeName(am->node);
      return SchedulerEvent(NodeRemoved{lostNode});
    });
  });
  auto kills = ofKind(r->log, DecisionKind::kKill);
  ASSERT_FALSE(kills.empty());
  EXPECT_EQ(kills[0].exitStatus, ContainerExitStatus::ABORTED);
  EXPECT_TRUE(kills[0].am);
  bool secondAttempt = false;
  for (const Decision& d : ofKind(r->log, DecisionKind::kAllocate)) {
    if (d.container.attempt.attempt == 2 && d.am) secondAttempt = true;
    if (d.time > 2500) {
      EXPECT_NE(r->engine->scheduler().cluster().nodeName(d.node), lostNode);
    }
  }
  EXPECT_TRUE(secondAttempt);
  EXPECT_EQ(r->engine->stats().amRestarts, 1);
  EXPECT_EQ(r->engine->jobs()[0].state, "FINISHED");
  // Per job (jobs.csv's am_restarts): the lost node's kills are ABORTED, not preemptions.
  EXPECT_EQ(r->engine->jobs()[0].amRestarts, 1);
  EXPECT_EQ(r->engine->jobs()[0].preempted, 0);
}

TEST(Engine, KilledTaskIsAskedForAgainAndRunsElsewhere) {
  // Three 1 GB nodes: the AM takes one, each map another. At 2500 the node of one map is lost:
  // that map ends ABORTED, the AM asks for it again, and it runs once the other map's node frees.
  const Trace t = TraceBuilder().nodes(3, 1024).job(JobBuilder("j").maps(2, 4000)).build();
  auto r = runTrace(t, opts(4), [&](Engine& e) {
    e.scheduleAction(2500, [&](const Scheduler& s) -> Result<SchedulerEvent> {
      for (const auto& [id, c] : s.containers()) {
        if (!c.isAm) return SchedulerEvent(NodeRemoved{s.cluster().nodeName(c.node)});
      }
      return internalError("no task container at 2500");
    });
  });
  auto kills = ofKind(r->log, DecisionKind::kKill);
  ASSERT_EQ(kills.size(), 1u);
  EXPECT_FALSE(kills[0].am);
  EXPECT_EQ(kills[0].exitStatus, ContainerExitStatus::ABORTED);
  auto allocs = ofKind(r->log, DecisionKind::kAllocate);
  ASSERT_EQ(allocs.size(), 4u) << "AM, two maps, and the lost map again";
  EXPECT_GT(allocs[3].time, 2500);
  EXPECT_EQ(allocs[3].container.attempt.attempt, 1u) << "same attempt: only the task was lost";
  EXPECT_EQ(r->engine->stats().amRestarts, 0);
  EXPECT_EQ(r->engine->jobs()[0].state, "FINISHED");
}

TEST(Engine, UntilStopsWithJobsStillRunning) {
  auto r = runTrace(TraceBuilder().nodes(1).job(JobBuilder("j").maps(1, 60000)).build(),
                    opts(1, true, 10000));
  EXPECT_EQ(r->engine->stats().endMs, 10000);
  EXPECT_EQ(r->engine->jobs()[0].state, "RUNNING");
  EXPECT_FALSE(r->engine->jobs()[0].endMs.has_value());
}

TEST(Engine, StopsWhenNothingCanEverChange) {
  // The AM fits the maximum allocation (8 GB by default) but no node (4 GB): the app waits
  // forever; the run stops once 100 heartbeat cycles decided nothing, the same way in both modes.
  TraceJob big = JobBuilder("big").maps(1, 100).build();
  big.amResource = Resource::of(6144, 1);
  Trace t = TraceBuilder().nodes(2, 4096).job(JobBuilder("ok").maps(1, 1000)).build();
  t.jobs.push_back(big);
  auto fast = runTrace(t, opts(2, true));
  auto naive = runTrace(t, opts(2, false));
  EXPECT_TRUE(fast->engine->stats().stalled);
  EXPECT_EQ(fast->engine->jobs()[0].state, "FINISHED");
  EXPECT_EQ(fast->engine->jobs()[1].state, "ACCEPTED");
  EXPECT_EQ(fast->engine->stats().endMs, naive->engine->stats().endMs);
  EXPECT_EQ(fast->logText, naive->logText);
}

TEST(Engine, AmBiggerThanTheMaximumIsRejected) {
  TraceJob big = JobBuilder("big").build();
  big.amResource = Resource::of(100000, 1);
  Trace t = TraceBuilder().nodes(1).job(JobBuilder("ok").maps(1, 100)).build();
  t.jobs.push_back(big);
  auto r = runTrace(t);
  EXPECT_EQ(r->engine->jobs()[0].state, "FINISHED");
  EXPECT_EQ(r->engine->jobs()[1].state, "REJECTED");
  EXPECT_NE(r->engine->jobs()[1].note.find("maximum allocation"), std::string::npos);
}

// Capacity preemption in the replay: queue b fills the one node, then a (same guarantee) asks.
// The monitor runs every second from t = 1 s; each round's figures reach preemption.csv and the
// samples, and a's first task starts long before b's 100 s maps end.
TEST(Engine, PreemptionRoundsAreRecordedAndFreeRoomForTheStarvedQueue) {
  const std::string dir = ::testing::TempDir() + "/engine_preemption";
  std::filesystem::remove_all(dir);
  EngineOptions o = opts(1);
  o.conf.set("yarn.resourcemanager.scheduler.class", "capacity");
  o.conf.set("yarn.scheduler.capacity.root.queues", "a,b");
  for (const char* q : {"a", "b"}) {
    o.conf.set(fmt::format("yarn.scheduler.capacity.root.{}.capacity", q), "50");
    o.conf.set(fmt::format("yarn.scheduler.capacity.root.{}.maximum-capacity", q), "100");
    o.conf.set(fmt::format("yarn.scheduler.capacity.root.{}.user-limit-factor", q), "2");
  }
  o.conf.set("yarn.resourcemanager.scheduler.monitor.enable", "true");
  const std::string p = "yarn.resourcemanager.monitor.capacity.preemption.";
  o.conf.set(p + "monitoring_interval", "1000");
  o.conf.set(p + "total_preemption_per_round", "1.0");
  o.conf.set(p + "natural_termination_factor", "1.0");
  o.outputDir = dir;
  Trace t = TraceBuilder()
                .nodes(1)
                .job(JobBuilder("hog").queue("b").maps(9, 100000))
                .job(JobBuilder("late").queue("a").at(10000).maps(4, 5000))
                .build();
  auto r = runTrace(t, o);
  const RunStats& s = r->engine->stats();
  const JobResult& late = r->engine->jobs()[1];
  EXPECT_EQ(late.state, "FINISHED");
  ASSERT_TRUE(late.endMs);
  EXPECT_LT(*late.endMs, 100000) << "a ran on preempted room, not after b's maps";
  // One round per second of the run (a tick at the very end sorts after the job's finish).
  EXPECT_GE(s.preemptionRounds, (s.endMs - 1) / 1000);
  EXPECT_LE(s.preemptionRounds, s.endMs / 1000);
  EXPECT_GT(s.containersMarked, 0);
  // preemption.csv: a row per round for root, root.a and root.b; b's guarantee is 5 GB.
  std::ifstream in(dir + "/preemption.csv");
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.substr(0, 40), "t,queue,partition,guaranteed_mb,guarante");
  int rows = 0, bRows = 0;
  while (std::getline(in, line)) {
    ++rows;
    if (line.find(",root.b,,5120,5,") != std::string::npos) ++bRows;
  }
  EXPECT_EQ(rows, 3 * s.preemptionRounds);
  EXPECT_EQ(bRows, s.preemptionRounds);
  std::ifstream track(dir + "/realtimetrack.json");
  std::stringstream text;
  text << track.rdbuf();
  EXPECT_NE(text.str().find("\"queue.b.guaranteed.memory\":5"), std::string::npos);
  EXPECT_NE(text.str().find("\"preemption.containers.marked\":"), std::string::npos);
  // The configured guarantee and maximum of each queue (50% and 100% of 10 GB), and the
  // containers preempted from b, counted per queue.
  EXPECT_NE(text.str().find("\"queue.a.guarantee.memory\":5,"), std::string::npos);
  EXPECT_NE(text.str().find("\"queue.a.maximum.memory\":10,"), std::string::npos);
  EXPECT_NE(text.str().find("\"queue.b.containers.marked\":"), std::string::npos);
  EXPECT_EQ(text.str().find("\"queue.a.containers.marked\":"), std::string::npos);
  // Every container once: allocated = AM + task = completed + released + killed + running.
  EXPECT_EQ(s.amAllocations, 2);
  EXPECT_EQ(s.allocations, s.endedCompleted + s.endedReleased + s.endedKilled + s.runningAtEnd);
  EXPECT_EQ(s.endedPreempted, s.containersPreemptKilled) << "the rounds' kills, exit PREEMPTED";
  EXPECT_LE(s.endedPreempted, s.endedKilled);
  // Per job: every mark, give-back and kill was of b's hog; each counts the time its map had
  // run.
  const JobResult& hog = r->engine->jobs()[0];
  EXPECT_GT(hog.preemptionMarked, 0);
  EXPECT_EQ(hog.preempted, s.endedPreempted);
  EXPECT_GT(hog.preemptionReleased + hog.preempted, 0);
  EXPECT_LE(hog.preemptionReleased + hog.preempted, hog.preemptionMarked);
  EXPECT_EQ(late.preemptionMarked, 0);
  EXPECT_EQ(late.preemptionReleased + late.preempted, 0);
  EXPECT_GT(hog.preemptedRunMs, 0);
  EXPECT_LE(hog.preemptedRunMs, (hog.preemptionReleased + hog.preempted) * s.endMs);
  // jobs.csv carries the four columns, hog's figures in its row.
  ASSERT_TRUE(writeJobsCsv(dir + "/jobs.csv", r->engine->jobs()).isOk());
  std::ifstream jobs(dir + "/jobs.csv");
  std::getline(jobs, header);
  EXPECT_EQ(header,
            "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state,"
            "preemption_marked,preemption_released,preempted_killed,preempted_run_ms,"
            "am_restarts");
  std::getline(jobs, line);
  EXPECT_TRUE(
      line.ends_with(fmt::format(",{},{},{},{},0", hog.preemptionMarked, hog.preemptionReleased,
                                 hog.preempted, hog.preemptedRunMs)))
      << line;
}

std::string slurpFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The values column of a metrics/ CSV ("t,value" rows).
std::vector<std::string> csvValues(const std::string& path) {
  std::vector<std::string> out;
  std::istringstream in(slurpFile(path));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) out.push_back(line.substr(line.find(',') + 1));
  return out;
}

// SLS's FairSchedulerMetrics: per queue, demand, usage, min share, max share (cut at the
// cluster) and fair share, memory and vcores, one CSV each in metrics/.
TEST(Engine, FairQueueGaugesAsSlsFairSchedulerMetricsWritesThem) {
  const std::string dir = ::testing::TempDir() + "/engine_fair_gauges";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/fair-scheduler.xml")
      << "<allocations><queue name=\"a\"><minResources>2048 mb, 2 vcores</minResources>"
         "</queue><queue name=\"b\"><maxResources>4096 mb, 4 vcores</maxResources></queue>"
         "</allocations>";
  EngineOptions o = opts(1);
  o.conf.set("yarn.resourcemanager.scheduler.class", "fair");
  o.conf.set("yarn.scheduler.fair.allocation.file", dir + "/fair-scheduler.xml");
  o.outputDir = dir + "/out";
  Trace t = TraceBuilder()
                .nodes(1)
                .job(JobBuilder("ja").queue("a").maps(3, 20000))
                .job(JobBuilder("jb").queue("b").maps(6, 20000))
                .build();
  auto r = runTrace(t, o);
  EXPECT_EQ(r->engine->jobs()[0].state, "FINISHED");
  const std::string m = dir + "/out/metrics/variable.queue.";
  for (const std::string& v : csvValues(m + "a.minshare.memory.csv")) EXPECT_EQ(v, "2048");
  for (const std::string& v : csvValues(m + "a.minshare.vcores.csv")) EXPECT_EQ(v, "2");
  for (const std::string& v : csvValues(m + "b.maxshare.memory.csv")) EXPECT_EQ(v, "4096");
  for (const std::string& v : csvValues(m + "a.maxshare.memory.csv")) {
    EXPECT_EQ(v, "10240") << "unbounded: the cluster";
  }
  EXPECT_EQ(csvValues(m + "b.usage.memory.csv"),
            csvValues(dir + "/out/metrics/counter.queue.b.allocated.memory.csv"));
  auto positive = [](const std::vector<std::string>& v) {
    return std::any_of(v.begin(), v.end(), [](const std::string& x) { return std::stol(x) > 0; });
  };
  EXPECT_TRUE(positive(csvValues(m + "a.fairshare.memory.csv")));
  EXPECT_TRUE(positive(csvValues(m + "b.demand.vcores.csv")));
  for (const std::string& v : csvValues(m + "b.usage.memory.csv")) {
    EXPECT_LE(std::stol(v), 4096) << "b stays within its max share";
  }
}

TEST(Engine, JobsWithADeadlineReserveAndRunInTheirReservationQueue) {
  EngineOptions o = opts(1);
  o.conf.set("yarn.resourcemanager.scheduler.class", "capacity");
  o.conf.set("yarn.resourcemanager.reservation-system.enable", "true");
  o.conf.set("yarn.scheduler.capacity.root.queues", "dedicated,be");
  o.conf.set("yarn.scheduler.capacity.root.dedicated.capacity", "50");
  o.conf.set("yarn.scheduler.capacity.root.be.capacity", "50");
  o.conf.set("yarn.scheduler.capacity.root.dedicated.reservable", "true");
  Trace t = TraceBuilder()
                .nodes(2)
                .job(JobBuilder("greedy").queue("dedicated").maps(30, 60000))
                .job(JobBuilder("early").queue("dedicated").at(500).maps(1, 1000).deadline(9000))
                .job(JobBuilder("rj").queue("dedicated").at(5000).maps(4, 10000).deadline(60000))
                .build();
  auto r = runTrace(t, o);
  const JobResult& rj = r->engine->jobs()[2];
  EXPECT_TRUE(rj.reservationAsked);
  EXPECT_EQ(rj.reservationId, "reservation_0_0001") << rj.reservationNote;
  EXPECT_EQ(rj.queue, "root.dedicated.reservation_0_0001");
  EXPECT_EQ(rj.state, "FINISHED");
  ASSERT_TRUE(rj.endMs.has_value());
  EXPECT_LE(*rj.endMs, 60000);
  // A job within the first plan step has no follower run before it: it runs without one.
  const JobResult& early = r->engine->jobs()[1];
  EXPECT_TRUE(early.reservationId.empty());
  EXPECT_NE(early.reservationNote.find("first plan step"), std::string::npos);
  EXPECT_EQ(r->engine->jobs()[0].queue, "root.dedicated.dedicated-default");
  ReservationMetrics m = reservationMetrics(r->engine->jobs(), r->engine->stats());
  EXPECT_EQ(m.asked, 2);
  EXPECT_EQ(m.accepted, 1);
  EXPECT_DOUBLE_EQ(m.acceptanceRatio, 0.5);
  EXPECT_EQ(m.metDeadline, 1);
  EXPECT_GT(m.utilisation, 0.0);
  EXPECT_LE(m.utilisation, 1.0);
  EXPECT_EQ(m.bestEffortJobs, 2);
}

// Placement: 6 nodes on 3 racks; a service of tagged web servers with anti-affinity
// (notin,node,web) beside a batch job. `webs` more than nodes cannot all be placed.
Trace placementTrace(int webs) {
  Trace t = TraceBuilder()
                .job(JobBuilder("svc").maps(webs, 20000))
                .job(JobBuilder("batch").maps(12, 3000))
                .build();
  for (int i = 0; i < 6; ++i) {
    t.nodes.push_back(
        TraceNode{fmt::format("n{}", i), fmt::format("/r{}", i / 2), Resource::of(10240, 10), {}});
  }
  for (TraceTask& task : t.jobs[0].tasks) {
    task.allocationTags = {"web"};
    task.placementSpec = "notin,node,web";
  }
  return t;
}

EngineOptions placementOpts(const char* handler) {
  EngineOptions o = opts(3);
  o.conf.set("yarn.resourcemanager.scheduler.class", "capacity");
  o.conf.set("yarn.resourcemanager.placement-constraints.handler", handler);
  return o;
}

// Every allocation of the service's SchedulingRequest (priority 20) lands on a node without a
// live web server; returns how many there were.
int checkAntiAffinity(const Run& r) {
  std::unordered_map<ContainerId, NodeId> live;
  int placed = 0;
  for (const Decision& d : r.log.decisions()) {
    if (d.kind == DecisionKind::kAllocate && d.app == r.engine->jobs()[0].app && !d.am) {
      for (const auto& [c, n] : live) EXPECT_NE(n, d.node) << "two web servers on one node";
      live[d.container] = d.node;
      ++placed;
    } else if (d.kind == DecisionKind::kComplete || d.kind == DecisionKind::kKill ||
               d.kind == DecisionKind::kRelease) {
      live.erase(d.container);
    }
  }
  return placed;
}

TEST(Engine, TaggedTasksAreSchedulingRequestsUnderTheSchedulerHandler) {
  auto r = runTrace(placementTrace(6), placementOpts("scheduler"));
  const JobResult& svc = r->engine->jobs()[0];
  EXPECT_EQ(svc.state, "FINISHED");
  EXPECT_TRUE(svc.rejections.empty());
  EXPECT_EQ(r->engine->jobs()[1].state, "FINISHED");
  EXPECT_EQ(checkAntiAffinity(*r), 6);
  const PlacementTracker* p = r->engine->placement();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->placed(), 6);
  ASSERT_EQ(p->table().size(), 3u);  // one row per rack, tag web of job 0
  for (const auto& [key, spread] : p->table()) {
    EXPECT_EQ(std::get<0>(key), 0u);
    EXPECT_EQ(std::get<1>(key), "web");
    EXPECT_EQ(spread.placed, 2);
    EXPECT_EQ(spread.peakNode, 1);
    EXPECT_EQ(spread.live, 0);
  }
}

TEST(Engine, ProcessorRejectionsGiveTasksUpAndAreCounted) {
  auto r = runTrace(placementTrace(8), placementOpts("placement-processor"));
  const JobResult& svc = r->engine->jobs()[0];
  EXPECT_EQ(svc.state, "FINISHED");
  EXPECT_EQ(checkAntiAffinity(*r), 6);
  ASSERT_EQ(svc.rejections.size(), 1u);
  EXPECT_EQ(svc.rejections.at("COULD_NOT_PLACE_ON_NODE"), 2);
  EXPECT_EQ(r->engine->jobs()[1].state, "FINISHED");

  const std::string dir = ::testing::TempDir() + "/engine_placement";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(writeJobsCsv(dir + "/jobs.csv", r->engine->jobs(), true).isOk());
  std::ifstream in(dir + "/jobs.csv");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find(",rejected,rejection_reasons\n"), std::string::npos);
  EXPECT_NE(text.str().find(",FINISHED,2,COULD_NOT_PLACE_ON_NODE=2\n"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find(",FINISHED,0,\n"), std::string::npos) << text.str();
}

TEST(Engine, HeartbeatSkipLeavesPlacementRunsIdentical) {
  for (const char* handler : {"scheduler", "placement-processor"}) {
    EngineOptions naiveOpts = placementOpts(handler);
    naiveOpts.heartbeatSkip = false;
    auto fast = runTrace(placementTrace(8), placementOpts(handler));
    auto naive = runTrace(placementTrace(8), naiveOpts);
    EXPECT_EQ(fast->logText, naive->logText) << handler;
  }
}

TEST(Engine, TraceWithoutPlacementKeysHasNoTracker) {
  auto r = runTrace(TraceBuilder().nodes(1).job(JobBuilder("j").maps(1, 100)).build());
  EXPECT_EQ(r->engine->placement(), nullptr);
}

TEST(Engine, DisabledHandlerKillsTheTaggedJobWithTheReason) {
  auto r = runTrace(placementTrace(2), placementOpts("disabled"));
  const JobResult& svc = r->engine->jobs()[0];
  EXPECT_EQ(svc.state, "KILLED");
  EXPECT_NE(svc.note.find("placement-constraints.handler"), std::string::npos) << svc.note;
  EXPECT_EQ(r->engine->jobs()[1].state, "FINISHED");
}

}  // namespace
}  // namespace spindle::sim
