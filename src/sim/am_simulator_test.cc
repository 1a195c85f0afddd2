#include "sim/am_simulator.h"

#include <gtest/gtest.h>

#include "app/container_state.h"
#include "sim/test_traces.h"

namespace spindle::sim {
namespace {

using testing::JobBuilder;

ContainerId cid(uint32_t attempt, uint64_t seq) { return ContainerId{{AppId(1), attempt}, seq}; }

int anyCount(const AmActions& a, int32_t priority) {
  for (const ResourceRequest& r : a.asks) {
    if (r.resourceName == "*" && r.key.priority == priority) return r.numContainers;
  }
  return -1;  // not sent
}

struct AmFixture {
  TraceJob job;
  AmSimulator am;
  AmFixture(const JobBuilder& b, AmKind kind, bool workPreserving = false)
      : job(b.build()), am(job, kind, workPreserving) {}
  AmActions beat(TimeMs now, PreemptionMessage pm = {}) { return am.heartbeat(now, pm, true); }
  void give(uint64_t seq, int32_t priority, uint32_t attempt = 1) {
    am.notifyAllocated({cid(attempt, seq), NodeId(0), "node1", "/default-rack",
                        Locality::kOffSwitch, SchedulerKey{priority, 0}, false});
  }
  void startAm(uint32_t attempt = 1) {
    am.notifyAllocated(
        {cid(attempt, 1), NodeId(0), "node1", "/default-rack", Locality::kOffSwitch, kAmKey, true});
  }
};

TEST(MapReduceAm, AsksMapsFirstAndReducesOnlyAfterEveryMapFinished) {
  AmFixture f(JobBuilder("j").maps(2, 100).reduces(1, 50), AmKind::kMapReduce);
  EXPECT_TRUE(f.beat(1000).asks.empty()) << "nothing is asked before the AM container runs";
  f.startAm();
  AmActions a = f.beat(2000);
  EXPECT_TRUE(a.amStarted);
  EXPECT_EQ(anyCount(a, 20), 2);
  EXPECT_EQ(anyCount(a, 10), -1) << "no reduce before the maps finish";
  f.give(2, 20);
  f.give(3, 20);
  a = f.beat(3000);
  ASSERT_EQ(a.starts.size(), 2u);
  EXPECT_EQ(a.starts[0].durationMs, 100);
  f.am.notifyCompleted(cid(1, 2), ContainerExitStatus::SUCCESS, 0);
  a = f.beat(4000);
  EXPECT_EQ(anyCount(a, 10), -1) << "one map still runs";
  f.am.notifyCompleted(cid(1, 3), ContainerExitStatus::SUCCESS, 0);
  a = f.beat(5000);
  EXPECT_EQ(anyCount(a, 10), 1);
  f.give(4, 10);
  a = f.beat(6000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 50);
  EXPECT_FALSE(a.finished);
  f.am.notifyCompleted(cid(1, 4), ContainerExitStatus::SUCCESS, 0);
  a = f.beat(7000);
  EXPECT_TRUE(a.finished);
  ASSERT_EQ(a.releases.size(), 1u);
  EXPECT_EQ(a.releases[0], cid(1, 1)) << "the AM container is released at the end";
}

int countAt(const AmActions& a, const std::string& name) {
  for (const ResourceRequest& r : a.asks) {
    if (r.resourceName == name) return r.numContainers;
  }
  return -1;  // not sent
}

// A map with three preferred hosts (its input block's replicas) is asked node-local on each,
// rack-local on each distinct rack, and off-switch; given a container on one of the hosts, the
// AM takes every one of its names back, the scheduler having decremented that host, its rack
// and ANY (RMContainerRequestor.decContainerReq).
TEST(MapReduceAm, MapWithThreeHostsAsksEachHostEachRackAndAny) {
  JobBuilder b("j");
  b.maps(2, 100);
  TraceJob job = b.build();
  job.tasks[0].host = "h1";
  job.tasks[0].rack = "/r1";
  job.tasks[0].otherHosts = {{"h2", "/r1"}, {"h3", "/r2"}};
  job.tasks[0].durationMs = 111;  // tells the maps apart
  job.tasks[1].host = "h3";
  job.tasks[1].rack = "/r2";
  job.tasks[1].otherHosts = {{"h4", "/r2"}, {"h5", "/r3"}};
  AmSimulator am(job, AmKind::kMapReduce, false);
  am.notifyAllocated({cid(1, 1), NodeId(0), "h9", "/r9", Locality::kOffSwitch, kAmKey, true});
  AmActions a = am.heartbeat(1000, {}, true);
  EXPECT_EQ(countAt(a, "*"), 2);
  EXPECT_EQ(countAt(a, "h1"), 1);
  EXPECT_EQ(countAt(a, "h2"), 1);
  EXPECT_EQ(countAt(a, "h3"), 2) << "both maps name h3";
  EXPECT_EQ(countAt(a, "h4"), 1);
  EXPECT_EQ(countAt(a, "h5"), 1);
  EXPECT_EQ(countAt(a, "/r1"), 1) << "a rack once per task, however many of its hosts are there";
  EXPECT_EQ(countAt(a, "/r2"), 2);
  EXPECT_EQ(countAt(a, "/r3"), 1);
  // A node-local container on h2: map 0 (the only map naming h2) runs there.
  am.notifyAllocated(
      {cid(1, 2), NodeId(1), "h2", "/r1", Locality::kNodeLocal, SchedulerKey{20, 0}, false});
  a = am.heartbeat(2000, {}, true);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 111);
  // Map 0's other names are taken back; map 1's stay.
  EXPECT_EQ(countAt(a, "h1"), 0);
  EXPECT_EQ(countAt(a, "h3"), 1);
  EXPECT_EQ(countAt(a, "/r2"), 1);
  EXPECT_EQ(countAt(a, "*"), -1) << "the scheduler's ANY decrement already agrees";
}

TEST(MapReduceAm, ReRequestsAKilledTask) {
  AmFixture f(JobBuilder("j").maps(1, 100), AmKind::kMapReduce);
  f.startAm();
  EXPECT_EQ(anyCount(f.beat(1000), 20), 1);
  f.give(2, 20);
  AmActions a = f.beat(2000);
  EXPECT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(anyCount(a, 20), -1) << "the scheduler already took its count to 0";
  f.am.notifyCompleted(cid(1, 2), ContainerExitStatus::PREEMPTED, 0);
  a = f.beat(3000);
  EXPECT_EQ(anyCount(a, 20), 1) << "the preempted map is asked for again";
  EXPECT_FALSE(a.finished);
  EXPECT_EQ(f.am.tasksDone(), 0);
}

TEST(MapReduceAm, LosingTheAmContainerRestartsEveryTask) {
  AmFixture f(JobBuilder("j").maps(2, 100), AmKind::kMapReduce);
  f.startAm();
  f.beat(1000);
  f.give(2, 20);
  f.give(3, 20);
  f.beat(2000);
  f.am.notifyCompleted(cid(1, 2), ContainerExitStatus::SUCCESS, 0);
  f.am.notifyCompleted(cid(1, 1), ContainerExitStatus::ABORTED, 0);
  AmActions a = f.beat(3000);
  EXPECT_TRUE(a.restart);
  f.am.resetForNewAttempt();
  EXPECT_EQ(f.am.tasksDone(), 0);
  EXPECT_EQ(f.am.restarts(), 1);
  f.give(5, 20, 1);  // a late container of the old attempt is ignored
  f.startAm(2);
  a = f.beat(4000);
  EXPECT_TRUE(a.starts.empty());
  EXPECT_EQ(anyCount(a, 20), 2) << "the new attempt runs both maps again";
}

TEST(MapReduceAm, HonoursPreemptionByReleasingTheNamedContainer) {
  AmFixture f(JobBuilder("j").maps(1, 100), AmKind::kMapReduce);
  f.startAm();
  f.beat(1000);
  f.give(2, 20);
  f.beat(2000);
  PreemptionMessage pm;
  pm.containers.push_back(cid(1, 2));
  AmActions a = f.beat(3000, pm);
  ASSERT_EQ(a.releases.size(), 1u);
  EXPECT_EQ(a.releases[0], cid(1, 2));
  EXPECT_EQ(anyCount(a, 20), 1) << "and asks for the task again";
  TraceJob job = JobBuilder("k").maps(1, 100).build();
  AmSimulator ignoring(job, AmKind::kMapReduce);
  ignoring.notifyAllocated({cid(1, 1), NodeId(0), "n", "/r", Locality::kOffSwitch, kAmKey, true});
  ignoring.heartbeat(1000, {}, false);
  ignoring.notifyAllocated({cid(1, 2), NodeId(0), "n", "/r", Locality::kOffSwitch, {20, 0}, false});
  ignoring.heartbeat(2000, {}, false);
  EXPECT_TRUE(ignoring.heartbeat(3000, pm, false).releases.empty())
      << "with spindle.sls.am.honour-preemption false the AM keeps it";
}

// spindle.sls.am.preemption.work-preserving: MapReduce's checkpointing of preempted tasks
// (MAPREDUCE-4584). A task given back for a preemption message resumes with what is left.
TEST(MapReduceAm, WorkPreservingResumesAReleasedTaskWithItsRemainingDuration) {
  for (bool workPreserving : {false, true}) {
    AmFixture f(JobBuilder("j").maps(1, 100000), AmKind::kMapReduce, workPreserving);
    f.startAm();
    f.beat(1000);
    f.give(2, 20);
    ASSERT_EQ(f.beat(2000).starts.size(), 1u);  // runs from 2 s
    PreemptionMessage pm;
    pm.negotiable.push_back(cid(1, 2));
    AmActions a = f.beat(32000, pm);  // 30 s done, given back
    ASSERT_EQ(a.releases.size(), 1u);
    EXPECT_EQ(anyCount(a, 20), 1) << "the task is asked for again";
    f.give(3, 20);
    a = f.beat(40000);
    ASSERT_EQ(a.starts.size(), 1u);
    EXPECT_EQ(a.starts[0].durationMs, workPreserving ? 70000 : 100000)
        << (workPreserving ? "only the 70 s it had left" : "off: from zero, as SLS");
    // Preempted a second time: the two runs add up.
    pm.negotiable = {cid(1, 3)};
    f.beat(50000, pm);
    f.give(4, 20);
    a = f.beat(51000);
    ASSERT_EQ(a.starts.size(), 1u);
    EXPECT_EQ(a.starts[0].durationMs, workPreserving ? 60000 : 100000);
    f.am.notifyCompleted(cid(1, 4), ContainerExitStatus::SUCCESS, 111000);
    EXPECT_TRUE(f.beat(112000).finished);
  }
}

// A container the monitor kills (exit PREEMPTED, the AM ignored the message) is checkpointed at
// the kill time, not at the beat that reports it; other losses lose the run since the last start.
TEST(MapReduceAm, WorkPreservingCountsUpToTheKillAndOnlyForPreemption) {
  AmFixture f(JobBuilder("j").reduces(1, 600000), AmKind::kMapReduce, true);
  f.startAm();
  f.beat(1000);
  f.give(2, 10);
  f.beat(2000);  // runs from 2 s
  f.am.notifyCompleted(cid(1, 2), ContainerExitStatus::PREEMPTED, 102000);
  AmActions a = f.beat(103000);
  EXPECT_EQ(anyCount(a, 10), 1);
  f.give(3, 10);
  a = f.beat(104000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 500000) << "100 s ran before the kill";
  f.am.notifyCompleted(cid(1, 3), ContainerExitStatus::ABORTED, 304000);  // node lost
  f.beat(305000);
  f.give(4, 10);
  a = f.beat(306000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 500000)
      << "the 200 s since the checkpoint are lost, the checkpoint is not";
}

TEST(MapReduceAm, WorkPreservingLeavesAtLeastOneMillisecondAndANewAttemptStartsFromZero) {
  AmFixture f(JobBuilder("j").maps(1, 5000), AmKind::kMapReduce, true);
  f.startAm();
  f.beat(1000);
  f.give(2, 20);
  f.beat(2000);
  PreemptionMessage pm;
  pm.containers.push_back(cid(1, 2));
  f.beat(7000, pm);  // given back just as its 5 s ran out
  f.give(3, 20);
  AmActions a = f.beat(8000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 1) << "the rerun still has a container and ends";
  f.am.notifyCompleted(cid(1, 1), ContainerExitStatus::ABORTED, 8500);  // the AM is lost
  EXPECT_TRUE(f.beat(9000).restart);
  f.am.resetForNewAttempt();
  f.startAm(2);
  f.beat(10000);
  f.give(4, 20, 2);
  a = f.beat(11000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 5000) << "a new attempt has no checkpoints";
}

TEST(MapReduceAm, AsksPerHostRackAndAny) {
  AmFixture f(JobBuilder("j").task(TaskType::kMap, 10, "node1").task(TaskType::kMap, 10, "node2"),
              AmKind::kMapReduce);
  f.startAm();
  AmActions a = f.beat(1000);
  std::map<std::string, int> counts;
  for (const ResourceRequest& r : a.asks) counts[r.resourceName] = r.numContainers;
  EXPECT_EQ(counts, (std::map<std::string, int>{
                        {"*", 2}, {"/default-rack", 2}, {"node1", 1}, {"node2", 1}}));
  // node-local on node1: the scheduler took node1, the rack and ANY; the AM's view agrees, so
  // nothing needs re-sending.
  f.am.notifyAllocated({cid(1, 2), NodeId(0), "node1", "/default-rack", Locality::kNodeLocal,
                        SchedulerKey{20, 0}, false});
  a = f.beat(2000);
  EXPECT_TRUE(a.asks.empty());
}

TEST(DagAm, AsksEachTaskItsRequestDelayAfterTheAmStarted) {
  AmFixture f(JobBuilder("j")
                  .type("dag")
                  .task(TaskType::kMap, 10, "", 0)
                  .task(TaskType::kMap, 10, "", 2500),
              AmKind::kDag);
  f.startAm();
  EXPECT_EQ(anyCount(f.beat(1000), 20), 1) << "delay 0: asked on the first beat";
  EXPECT_EQ(anyCount(f.beat(2000), 20), -1);
  EXPECT_EQ(anyCount(f.beat(3000), 20), -1) << "1000 + 2500 not reached";
  EXPECT_EQ(anyCount(f.beat(4000), 20), 2) << "the delayed task joins the outstanding one";
}

TEST(StreamAm, RunsStreamsAgainUntilTheJobEndTime) {
  AmFixture f(JobBuilder("j").type("stream").end(10000).maps(1, 1000), AmKind::kStream);
  f.startAm();
  EXPECT_EQ(anyCount(f.beat(1000), 20), 1);
  f.give(2, 20);
  f.beat(2000);
  f.am.notifyCompleted(cid(1, 2), ContainerExitStatus::SUCCESS, 0);
  AmActions a = f.beat(4000);
  EXPECT_EQ(anyCount(a, 20), 1) << "a finished stream is asked for again before the end time";
  EXPECT_FALSE(a.finished);
  a = f.beat(10000);
  EXPECT_TRUE(a.finished) << "the job's end time stops the stream AM";
}

TEST(StreamAm, WorkPreservingResumesOnceThenTheNextRunIsWhole) {
  AmFixture f(JobBuilder("j").type("stream").end(60000).maps(1, 10000), AmKind::kStream, true);
  f.startAm();
  f.beat(1000);
  f.give(2, 20);
  f.beat(2000);
  PreemptionMessage pm;
  pm.negotiable.push_back(cid(1, 2));
  f.beat(6000, pm);  // 4 s done
  f.give(3, 20);
  AmActions a = f.beat(7000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 6000);
  f.am.notifyCompleted(cid(1, 3), ContainerExitStatus::SUCCESS, 13000);
  f.beat(14000);  // asked for again: a new run of the stream
  f.give(4, 20);
  a = f.beat(15000);
  ASSERT_EQ(a.starts.size(), 1u);
  EXPECT_EQ(a.starts[0].durationMs, 10000) << "a finished run leaves no checkpoint behind";
}

TEST(AmKindFor, BuiltInAndRegisteredNames) {
  SlsSettings sls;
  sls.amTypes["spark"] = "org.apache.hadoop.yarn.sls.appmaster.StreamAMSimulator";
  EXPECT_EQ(*amKindFor("mapreduce", sls), AmKind::kMapReduce);
  EXPECT_EQ(*amKindFor("dag", sls), AmKind::kDag);
  EXPECT_EQ(*amKindFor("spark", sls), AmKind::kStream);
  auto bad = amKindFor("tez", sls);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("unknown am.type 'tez'"), std::string::npos);
}

}  // namespace
}  // namespace spindle::sim
