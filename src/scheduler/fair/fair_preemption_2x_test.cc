// Fair Scheduler 2.x preemption (spindle.scheduler.fair.preemption.design = 2.x): the leaves'
// resourceDeficit over time (vectors P2-4, P2-5, P2-6), the cluster utilisation gate (P2-1), one
// preemptResources round stopping when the parents tie (P2-3), and warn-then-kill.
#include <gtest/gtest.h>

#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

std::vector<std::pair<std::string, std::string>> site2x(const std::string& threshold = "0",
                                                        bool preemption = true) {
  return {{"spindle.scheduler.fair.preemption.design", "2.x"},
          {"yarn.scheduler.fair.preemption", preemption ? "true" : "false"},
          {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", threshold}};
}

int64_t deficitMb(Fs& fs, const std::string& leaf) {
  return fs.sched().resourceDeficit(fs.queue(leaf)).memoryMb();
}

// P2-1 testPreemptionWithFreeResources: B's min-share deficit (5 s timeout) reaches
// preemptResources only when utilisation is above the threshold; A gives a container only when
// it is over its 2 GB fair share.
struct P21 {
  int64_t toPreemptMb;
  int marked;
};

P21 runP21(const std::string& threshold, int aContainers) {
  Fs fs(allocationXml(R"(
    <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>
    <queue name="queueA"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
    <queue name="queueB"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
    <defaultMinSharePreemptionTimeout>5</defaultMinSharePreemptionTimeout>
    <fairSharePreemptionTimeout>10</fairSharePreemptionTimeout>)"),
        site2x(threshold));
  fs.node("n1", "/r1", 4096, 4);
  AppId a = fs.app("root.queueA");
  fs.ask(a, 1, "*", 1024, 1, aContainers);
  for (int i = 0; i < aContainers; ++i) fs.heartbeat("n1");
  AppId b = fs.app("root.queueB");
  fs.ask(b, 1, "*", 1024, 1, 1);
  fs.tick();
  fs.clock().advanceMs(6000);
  fs.tick();
  return {fs.sched().lastToPreempt().memoryMb(), fs.count(DecisionKind::kPreemptMark, a)};
}

TEST(FairPreemption2x, UtilisationThresholdGatesTheCheck) {
  P21 low = runP21("0.0", 2);  // 0.5 > 0
  EXPECT_EQ(low.toPreemptMb, 1024);
  EXPECT_EQ(low.marked, 0) << "A at its fair share gives nothing";
  P21 high = runP21("0.8", 3);  // 0.75 > 0.8 is false
  EXPECT_EQ(high.toPreemptMb, 0);
  EXPECT_EQ(high.marked, 0);
  P21 mid = runP21("0.7", 3);  // 0.75 > 0.7
  EXPECT_EQ(mid.toPreemptMb, 1024);
  EXPECT_EQ(mid.marked, 1);
}

// P2-3 testPreemptionIsNotDelayedToNextRound: A2's fair-share deficit is its full fair share
// (3277 MB), and one round warns 3 of app1's containers: after three, A's usage / weight (4096 /
// 8) ties B's (1024 / 2), B wins the tie by name and is not over its share.
TEST(FairPreemption2x, OneRoundWarnsUntilTheParentsTie) {
  Fs fs(allocationXml(R"(
    <queue name="queueA"><weight>8</weight>
      <queue name="queueA1"/><queue name="queueA2"/></queue>
    <queue name="queueB"><weight>2</weight></queue>
    <defaultFairSharePreemptionTimeout>10</defaultFairSharePreemptionTimeout>
    <defaultFairSharePreemptionThreshold>0.5</defaultFairSharePreemptionThreshold>)"),
        {{"spindle.scheduler.fair.preemption.design", "2.x"},
         {"yarn.scheduler.fair.preemption", "true"},
         {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", "0"},
         {"yarn.scheduler.fair.preemptionInterval", "5000"},
         {"yarn.scheduler.fair.waitTimeBeforeKill", "10000"}});
  fs.node("n1", "/r1", 8192, 8);
  AppId app1 = fs.app("root.queueA.queueA1");
  fs.ask(app1, 1, "*", 1024, 1, 7);
  AppId app2 = fs.app("root.queueB");
  fs.ask(app2, 1, "*", 1024, 1, 1);
  for (int i = 0; i < 8; ++i) fs.heartbeat("n1");
  ASSERT_EQ(fs.sched().findApp(app1)->liveContainers().size(), 7u);
  AppId app3 = fs.app("root.queueA.queueA2");
  fs.ask(app3, 1, "*", 1024, 1, 7);
  fs.tick();
  fs.clock().advanceMs(11000);
  fs.tick();
  EXPECT_EQ(deficitMb(fs, "root.queueA.queueA2"), 3277);
  EXPECT_EQ(fs.sched().lastToPreempt().memoryMb(), 3277);
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, app1), 3);
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, app2), 0);
  EXPECT_EQ(fs.sched().preemptionMessage(app1).containers.size(), 3u);
  // The newest containers of the least important priority go first.
  std::vector<ContainerId> marked;
  for (const auto& d : fs.log().decisions()) {
    if (d.kind == DecisionKind::kPreemptMark) marked.push_back(d.container);
  }
  ASSERT_EQ(marked.size(), 3u);
  EXPECT_GT(marked[0], marked[1]);
  EXPECT_GT(marked[1], marked[2]);
}

// P2-4 testPreemptionDecision: min-share deficit after 5 s, fair-share deficit (6144 / 4) after
// 10 s.
TEST(FairPreemption2x, DeficitGrowsWithTheTimeouts) {
  Fs fs(allocationXml(R"(
    <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>
    <queue name="queueA"><weight>.25</weight><minResources>1024mb,0vcores</minResources></queue>
    <queue name="queueB"><weight>.25</weight><minResources>1024mb,0vcores</minResources></queue>
    <queue name="queueC"><weight>.25</weight><minResources>1024mb,0vcores</minResources></queue>
    <queue name="queueD"><weight>.25</weight><minResources>1024mb,0vcores</minResources></queue>
    <defaultMinSharePreemptionTimeout>5</defaultMinSharePreemptionTimeout>
    <defaultFairSharePreemptionTimeout>10</defaultFairSharePreemptionTimeout>
    <defaultFairSharePreemptionThreshold>.5</defaultFairSharePreemptionThreshold>)"),
        site2x("0", /*preemption=*/false));
  for (const char* n : {"n1", "n2", "n3"}) fs.node(n, "/r1", 2048, 2);
  for (const char* q : {"root.queueA", "root.queueB"}) {
    for (int i = 0; i < 3; ++i) fs.ask(fs.app(q), 1, "*", 1024, 1, 1);
  }
  fs.tick();
  for (int round = 0; round < 2; ++round) {
    for (const char* n : {"n1", "n2", "n3"}) fs.heartbeat(n);
  }
  EXPECT_EQ(fs.queue("root.queueA").usage.memoryMb() + fs.queue("root.queueB").usage.memoryMb(),
            6144);
  for (const char* q : {"root.queueC", "root.queueD"}) {
    for (int i = 0; i < 3; ++i) fs.ask(fs.app(q), 1, "*", 1024, 1, 1);
  }
  fs.tick();
  EXPECT_EQ(deficitMb(fs, "root.queueC"), 0);
  EXPECT_EQ(deficitMb(fs, "root.queueD"), 0);
  fs.clock().advanceMs(6000);
  EXPECT_EQ(deficitMb(fs, "root.queueC"), 1024);
  EXPECT_EQ(deficitMb(fs, "root.queueD"), 1024);
  fs.tick();
  fs.clock().advanceMs(6000);
  EXPECT_EQ(deficitMb(fs, "root.queueC"), 1536);
  EXPECT_EQ(deficitMb(fs, "root.queueD"), 1536);
  EXPECT_TRUE(fs.sched().queueStarved(fs.queue("root.queueC")));
  EXPECT_FALSE(fs.sched().queueStarved(fs.queue("root.queueA")));
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, AppId{}), 0);
  EXPECT_EQ(fs.sched().lastToPreempt().memoryMb(), 0) << "preemption is off";
}

// P2-5 testPreemptionDecisionWithDRF: componentwise min share, DRF max of the two deficits.
TEST(FairPreemption2x, DrfDeficits) {
  Fs fs(allocationXml(R"(
    <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
    <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>
    <queue name="queueA"><weight>.25</weight><minResources>1024mb,1vcores</minResources></queue>
    <queue name="queueB"><weight>.25</weight><minResources>1024mb,2vcores</minResources></queue>
    <queue name="queueC"><weight>.25</weight><minResources>1024mb,3vcores</minResources></queue>
    <queue name="queueD"><weight>.25</weight><minResources>1024mb,2vcores</minResources></queue>
    <defaultMinSharePreemptionTimeout>5</defaultMinSharePreemptionTimeout>
    <defaultFairSharePreemptionTimeout>10</defaultFairSharePreemptionTimeout>
    <defaultFairSharePreemptionThreshold>.5</defaultFairSharePreemptionThreshold>)"),
        site2x("0", /*preemption=*/false));
  for (const char* n : {"n1", "n2", "n3"}) fs.node(n, "/r1", 2048, 4);
  for (const char* q : {"root.queueA", "root.queueB"}) {
    for (int i = 0; i < 3; ++i) fs.ask(fs.app(q), 1, "*", 1024, 1, 1);
  }
  fs.tick();
  for (int round = 0; round < 2; ++round) {
    for (const char* n : {"n1", "n2", "n3"}) fs.heartbeat(n);
  }
  for (int i = 0; i < 3; ++i) fs.ask(fs.app("root.queueC"), 1, "*", 1024, 1, 1);
  for (int i = 0; i < 3; ++i) fs.ask(fs.app("root.queueD"), 1, "*", 1024, 1, 2);
  fs.tick();
  fs.clock().advanceMs(6000);
  const fair::FsQueue& c = fs.queue("root.queueC");
  const fair::FsQueue& d = fs.queue("root.queueD");
  EXPECT_EQ(fs.sched().resourceDeficit(c), Resource::of(1024, 3));
  EXPECT_EQ(fs.sched().resourceDeficit(d), Resource::of(1024, 2));
  fs.tick();
  fs.clock().advanceMs(6000);
  EXPECT_EQ(fs.sched().resourceDeficit(c), Resource::of(1536, 3));
  EXPECT_EQ(fs.sched().resourceDeficit(d), Resource::of(1536, 3));
}

// P2-6 testPreemptionDecisionWithVariousTimeout: inherited timeouts decide when each leaf's
// min-share and fair-share deficits appear.
TEST(FairPreemption2x, InheritedTimeouts) {
  Fs fs(allocationXml(R"(
    <queue name="default"><maxResources>0mb,0vcores</maxResources></queue>
    <queue name="queueA"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
    <queue name="queueB"><weight>2</weight>
      <minSharePreemptionTimeout>10</minSharePreemptionTimeout>
      <fairSharePreemptionTimeout>25</fairSharePreemptionTimeout>
      <queue name="queueB1"><minResources>1024mb,0vcores</minResources>
        <minSharePreemptionTimeout>5</minSharePreemptionTimeout></queue>
      <queue name="queueB2"><minResources>1024mb,0vcores</minResources>
        <fairSharePreemptionTimeout>20</fairSharePreemptionTimeout></queue>
    </queue>
    <queue name="queueC"><weight>1</weight><minResources>1024mb,0vcores</minResources></queue>
    <defaultMinSharePreemptionTimeout>15</defaultMinSharePreemptionTimeout>
    <defaultFairSharePreemptionTimeout>30</defaultFairSharePreemptionTimeout>)"),
        site2x("0", /*preemption=*/false));
  const std::vector<std::tuple<std::string, int64_t, int64_t>> timeouts = {
      {"root", 30000, 15000},
      {"root.default", 30000, 15000},
      {"root.queueA", 30000, 15000},
      {"root.queueB", 25000, 10000},
      {"root.queueB.queueB1", 25000, 5000},
      {"root.queueB.queueB2", 20000, 10000},
      {"root.queueC", 30000, 15000}};
  for (const auto& [q, fair, min] : timeouts) {
    EXPECT_EQ(fs.queue(q).config().fairSharePreemptionTimeoutMs, fair) << q;
    EXPECT_EQ(fs.queue(q).config().minSharePreemptionTimeoutMs, min) << q;
  }
  fs.node("n1", "/r1", 6144, 6);
  AppId a = fs.app("root.queueA");
  fs.ask(a, 1, "*", 1024, 1, 6);
  for (int i = 0; i < 6; ++i) fs.heartbeat("n1");
  for (const char* q : {"root.queueB.queueB1", "root.queueB.queueB2", "root.queueC"}) {
    for (int i = 0; i < 3; ++i) fs.ask(fs.app(q), 1, "*", 1024, 1, 1);
  }
  fs.tick();
  struct Row {
    int64_t advanceMs, b1, b2, c;
  };
  const std::vector<Row> rows = {{6000, 1024, 0, 0},       {5000, 1024, 1024, 0},
                                 {5000, 1024, 1024, 1024}, {5000, 1024, 1536, 1024},
                                 {5000, 1536, 1536, 1024}, {5000, 1536, 1536, 1536}};
  for (const Row& r : rows) {
    fs.tick();
    fs.clock().advanceMs(r.advanceMs);
    const TimeMs t = fs.clock().nowMs();
    EXPECT_EQ(deficitMb(fs, "root.queueB.queueB1"), r.b1) << "t=" << t;
    EXPECT_EQ(deficitMb(fs, "root.queueB.queueB2"), r.b2) << "t=" << t;
    EXPECT_EQ(deficitMb(fs, "root.queueC"), r.c) << "t=" << t;
  }
}

// Warn, then kill after waitTimeBeforeKill: the warning is in the app's preemption message; a
// warned container is killed at the first check more than waitTimeBeforeKill later, and the
// freed room goes to the starved queue.
TEST(FairPreemption2x, WarnThenKill) {
  Fs fs(allocationXml(R"(
    <queue name="big"/><queue name="small"/>
    <defaultFairSharePreemptionTimeout>2</defaultFairSharePreemptionTimeout>
    <defaultFairSharePreemptionThreshold>1</defaultFairSharePreemptionThreshold>)"),
        {{"spindle.scheduler.fair.preemption.design", "2.x"},
         {"yarn.scheduler.fair.preemption", "true"},
         {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", "0.5"},
         {"yarn.scheduler.fair.preemptionInterval", "1000"},
         {"yarn.scheduler.fair.waitTimeBeforeKill", "3000"}});
  fs.node("n1", "/r1", 4096, 4);
  AppId big = fs.app("root.big");
  fs.ask(big, 1, "*", 1024, 1, 4);
  for (int i = 0; i < 4; ++i) fs.heartbeat("n1");
  AppId small = fs.app("root.small");
  fs.ask(small, 1, "*", 1024, 1, 2);
  fs.clock().advanceMs(1000);
  fs.tick();  // the fair-share clock of small stops here
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, big), 0);
  fs.clock().advanceMs(2001);
  fs.tick();
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, big), 2);
  EXPECT_EQ(fs.sched().preemptionMessage(big).containers.size(), 2u);
  for (const auto& d : fs.log().decisions()) {
    if (d.kind == DecisionKind::kPreemptMark) {
      EXPECT_NE(d.reason.find("root.small deficit"), std::string::npos) << d.reason;
      EXPECT_NE(d.reason.find("below the fair-share threshold"), std::string::npos) << d.reason;
    }
  }
  fs.clock().advanceMs(2000);
  fs.tick();
  EXPECT_EQ(fs.count(DecisionKind::kKill, big), 0) << "not yet waitTimeBeforeKill";
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, big), 2) << "warned once only";
  fs.clock().advanceMs(1001);
  fs.tick();
  EXPECT_EQ(fs.count(DecisionKind::kKill, big), 2);
  for (const auto& d : fs.log().decisions()) {
    if (d.kind == DecisionKind::kKill) {
      EXPECT_EQ(d.exitStatus, ContainerExitStatus::PREEMPTED);
    }
  }
  EXPECT_TRUE(fs.sched().preemptionMessage(big).empty());
  fs.heartbeat("n1");
  fs.heartbeat("n1");
  EXPECT_EQ(fs.sched().findApp(small)->liveContainers().size(), 2u);
  EXPECT_EQ(fs.sched().findApp(big)->liveContainers().size(), 2u);
}

// Victim choice: a queue with allowPreemptionFrom=false is skipped even when it is the most over
// its share; inside a FIFO leaf the latest-started app gives first; within an app the least
// important priority goes first, so its AM container (priority 0) is the last.
TEST(FairPreemption2x, VictimOrder) {
  Fs fs(allocationXml(R"(
    <queue name="locked"><allowPreemptionFrom>false</allowPreemptionFrom></queue>
    <queue name="fifo"><schedulingPolicy>fifo</schedulingPolicy><maxAMShare>-1</maxAMShare></queue>
    <queue name="starved"/>
    <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>
    <defaultFairSharePreemptionThreshold>1</defaultFairSharePreemptionThreshold>)"),
        {{"spindle.scheduler.fair.preemption.design", "2.x"},
         {"yarn.scheduler.fair.preemption", "true"},
         {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", "0"},
         {"yarn.scheduler.fair.preemptionInterval", "0"}});
  fs.node("n1", "/r1", 12288, 12);
  AppId locked = fs.app("root.locked");
  fs.ask(locked, 1, "*", 1024, 1, 6);
  for (int i = 0; i < 6; ++i) fs.heartbeat("n1");
  AppId early = fs.app("root.fifo", "u", /*amMb=*/1024);
  fs.heartbeat("n1");  // early's AM
  fs.ask(early, 1, "*", 1024, 1, 2);
  fs.clock().advanceMs(1);
  AppId late = fs.app("root.fifo", "u", /*amMb=*/1024);
  fs.heartbeat("n1");  // late's AM
  fs.ask(late, 2, "*", 1024, 1, 1);
  fs.ask(late, 1, "*", 1024, 1, 1);
  for (int i = 0; i < 4; ++i) fs.heartbeat("n1");
  ASSERT_EQ(fs.sched().findApp(early)->liveContainers().size(), 3u);
  ASSERT_EQ(fs.sched().findApp(late)->liveContainers().size(), 3u);
  AppId starved = fs.app("root.starved");
  fs.ask(starved, 1, "*", 1024, 1, 4);
  fs.tick();
  fs.clock().advanceMs(1001);
  fs.tick();
  // Fair shares 4 GB each; starved's deficit 4 GB; fifo holds 6 GB, locked 6 GB.
  EXPECT_EQ(fs.sched().lastToPreempt().memoryMb(), 4096);
  std::vector<std::pair<AppId, SchedulerKey>> order;
  std::vector<bool> am;
  for (const auto& d : fs.log().decisions()) {
    if (d.kind != DecisionKind::kPreemptMark) continue;
    order.emplace_back(d.app, fs.sched().findContainer(d.container)->key);
    am.push_back(d.am);
  }
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, locked), 0);
  ASSERT_EQ(order.size(), 2u) << "fifo drops to its 4 GB fair share";
  EXPECT_EQ(order[0].first, late);
  EXPECT_EQ(order[0].second.priority, 2) << "the least important priority first";
  EXPECT_EQ(order[1].first, late);
  EXPECT_EQ(order[1].second.priority, 1);
  EXPECT_FALSE(am[0] || am[1]) << "the AM (priority 0) would be the app's last";
}

TEST(FairPreemption2x, DesignKeyIsValidated) {
  Configuration conf;
  conf.set("spindle.scheduler.fair.preemption.design", "4.x");
  SimulatedClock clock;
  Rng rng(1);
  auto s = FairScheduler::createWithAllocation(conf, allocationXml(""), clock, rng);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("spindle.scheduler.fair.preemption.design"),
            std::string::npos);
  EXPECT_NE(s.status().message().find("expected 3.x or 2.x, got '4.x'"), std::string::npos);
}

}  // namespace
}  // namespace spindle
