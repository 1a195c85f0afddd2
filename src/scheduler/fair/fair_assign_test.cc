// Fair Scheduler assignment path: delay scheduling (DS-1, DS-2, DS-3 and through heartbeats),
// DRF vs fair order, assignmultiple, maxAMShare, reservations and headroom (DS-4).
#include <gtest/gtest.h>

#include "scheduler/fair/fs_test_fixture.h"
#include "scheduler/fair/locality_delay.h"

namespace spindle {
namespace {

using fair::LocalityDelay;
using fstest::allocationXml;
using fstest::Fs;

constexpr SchedulerKey kKey{1, 0};

// DS-1 TestFSAppAttempt.testDelayScheduling: 10 nodes, thresholds 0.5 and 0.6.
TEST(LocalityDelay, CountThresholdsRelaxOneLevelAtATime) {
  LocalityDelay d;
  auto query = [&] { return d.allowedByCount(kKey, 10, 0.5f, 0.6f); };
  EXPECT_EQ(query(), Locality::kNodeLocal);
  for (int i = 0; i < 5; ++i) {
    d.addOpportunity(kKey);
    EXPECT_EQ(query(), Locality::kNodeLocal) << "opportunity " << i + 1;
  }
  d.addOpportunity(kKey);
  EXPECT_EQ(query(), Locality::kRackLocal) << "6 > 10 x 0.5";
  d.resetAllowedLevel(kKey, Locality::kNodeLocal);
  d.resetOpportunities(kKey, 0);
  for (int i = 0; i < 5; ++i) {
    d.addOpportunity(kKey);
    EXPECT_EQ(query(), Locality::kNodeLocal);
  }
  d.addOpportunity(kKey);
  EXPECT_EQ(query(), Locality::kRackLocal);
  for (int i = 0; i < 6; ++i) {
    d.addOpportunity(kKey);
    EXPECT_EQ(query(), Locality::kRackLocal) << "opportunity " << i + 1;
  }
  d.addOpportunity(kKey);
  EXPECT_EQ(query(), Locality::kOffSwitch) << "7 > 10 x 0.6";
}

// DS-2 testDelaySchedulingForContinuousScheduling: delays 5 s and 6 s.
TEST(LocalityDelay, TimeThresholdsRelaxAfterTheDelay) {
  LocalityDelay d;
  auto at = [&](TimeMs t) { return d.allowedByTime(kKey, 5000, 6000, t, /*appStart=*/0); };
  EXPECT_EQ(at(0), Locality::kNodeLocal);
  EXPECT_EQ(at(4000), Locality::kNodeLocal);
  EXPECT_EQ(at(6000), Locality::kRackLocal);
  d.resetAllowedLevel(kKey, Locality::kNodeLocal);
  EXPECT_EQ(at(12000), Locality::kRackLocal);
  EXPECT_EQ(at(19000), Locality::kOffSwitch);
}

// DS-3: the default thresholds (-1) disable delay scheduling.
TEST(LocalityDelay, NegativeThresholdsMeanNoDelay) {
  LocalityDelay d;
  EXPECT_EQ(d.allowedByCount(kKey, 10, -1.0f, -1.0f), Locality::kOffSwitch);
  EXPECT_EQ(d.allowedByTime(kKey, -1, 6000, 0, 0), Locality::kOffSwitch);
}

const Decision* lastAllocation(Fs& fs) {
  const Decision* last = nullptr;
  for (const auto& d : fs.log().decisions()) {
    if (d.kind == DecisionKind::kAllocate) last = &d;
  }
  return last;
}

// Thresholds 0.5 on 4 nodes: a key relaxes after 3 (> 2) missed opportunities per level.
TEST(FairAssign, DelaySchedulingWaitsForLocalityThenGoesOffSwitch) {
  Fs fs(allocationXml(""), {{"yarn.scheduler.fair.locality.threshold.node", "0.5"},
                            {"yarn.scheduler.fair.locality.threshold.rack", "0.5"}});
  fs.node("h1", "/r1", 8192)
      .node("h2", "/r1", 8192)
      .node("h3", "/r2", 8192)
      .node("h4", "/r2", 8192);
  AppId a = fs.app("root.a");
  fs.askOnHost(a, 1, "h1", "/r1", 1024, 1);
  for (int i = 1; i <= 5; ++i) {
    fs.heartbeat("h3");
    EXPECT_EQ(fs.allocations(a), 0) << "heartbeat " << i;
  }
  ASSERT_NE(fs.sched().lastSkip(a), nullptr);
  EXPECT_EQ(fs.sched().lastSkip(a)->skip, SkipReason::kLocalityDelay);
  fs.heartbeat("h3");
  ASSERT_EQ(fs.allocations(a), 1);
  EXPECT_EQ(lastAllocation(fs)->locality, Locality::kOffSwitch);
}

TEST(FairAssign, DelaySchedulingTakesRackLocalOnceRelaxedToRack) {
  Fs fs(allocationXml(""), {{"yarn.scheduler.fair.locality.threshold.node", "0.5"},
                            {"yarn.scheduler.fair.locality.threshold.rack", "0.5"}});
  fs.node("h1", "/r1", 8192)
      .node("h2", "/r1", 8192)
      .node("h3", "/r2", 8192)
      .node("h4", "/r2", 8192);
  AppId a = fs.app("root.a");
  fs.askOnHost(a, 1, "h1", "/r1", 1024, 2);
  fs.heartbeat("h2");  // first offer: node-local only
  EXPECT_EQ(fs.allocations(a), 0);
  fs.heartbeat("h3");
  fs.heartbeat("h3");  // third opportunity: relaxed to rack-local
  fs.heartbeat("h2");
  ASSERT_EQ(fs.allocations(a), 1);
  EXPECT_EQ(lastAllocation(fs)->locality, Locality::kRackLocal);
  fs.heartbeat("h1");
  ASSERT_EQ(fs.allocations(a), 2);
  EXPECT_EQ(lastAllocation(fs)->locality, Locality::kNodeLocal);
}

TEST(FairAssign, WithoutThresholdsEveryNodeServesAtOnce) {
  Fs fs(allocationXml(""));
  fs.node("h1", "/r1", 8192).node("h3", "/r2", 8192);
  AppId a = fs.app("root.a");
  fs.askOnHost(a, 1, "h1", "/r1", 1024, 1);
  fs.heartbeat("h3");
  EXPECT_EQ(fs.allocations(a), 1);
}

// Continuous scheduling: time-based delays on the injected clock; each MonitorTick also
// schedules every node.
TEST(FairAssign, ContinuousSchedulingUsesTimeDelaysAndSchedulesOnTicks) {
  Fs fs(allocationXml(""), {{"yarn.scheduler.fair.continuous-scheduling-enabled", "true"},
                            {"yarn.scheduler.fair.locality-delay-node-ms", "1000"},
                            {"yarn.scheduler.fair.locality-delay-rack-ms", "1000"}});
  fs.node("h1", "/r1", 8192).node("h3", "/r2", 8192);
  AppId a = fs.app("root.a");
  fs.askOnHost(a, 1, "h1", "/r1", 1024, 1);
  fs.heartbeat("h3");
  fs.clock().advanceMs(1500);
  fs.heartbeat("h3");  // relaxed to rack-local: still nothing on another rack
  EXPECT_EQ(fs.allocations(a), 0);
  fs.clock().advanceMs(1500);
  fs.heartbeat("h3");
  ASSERT_EQ(fs.allocations(a), 1);
  EXPECT_EQ(lastAllocation(fs)->locality, Locality::kOffSwitch);

  AppId b = fs.app("root.b");
  fs.ask(b, 1, "*", 1024, 1, 1);
  fs.tick();
  EXPECT_EQ(fs.allocations(b), 1) << "the tick's continuous pass allocated without a heartbeat";
}

const std::vector<std::pair<std::string, std::string>> kAssignAll = {
    {"yarn.scheduler.fair.assignmultiple", "true"},
    {"yarn.scheduler.fair.dynamic.max.assign", "false"}};

// Queue a asks <1 GB, 3 vcores>, b asks <2 GB, 1 vcore> on <20 GB, 20 vcores>: DRF offers the
// queue with the smaller dominant share, the fair policy the one using less memory.
TEST(FairAssign, DrfOrdersQueuesByDominantShare) {
  Fs fs(allocationXml("<defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>"
                      "<queue name=\"a\"/><queue name=\"b\"/>"),
        kAssignAll);
  fs.node("h1", "/r1", 20480, 20);
  AppId a = fs.app("root.a");
  AppId b = fs.app("root.b");
  fs.ask(a, 1, "*", 1024, 3, 3);
  fs.ask(b, 1, "*", 2048, 1, 3);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocationOrder(), (std::vector<AppId>{a, b, b, a, b, a}));
}

TEST(FairAssign, FairPolicyOrdersQueuesByMemoryOnly) {
  Fs fs(allocationXml("<queue name=\"a\"/><queue name=\"b\"/>"), kAssignAll);
  fs.node("h1", "/r1", 20480, 20);
  AppId a = fs.app("root.a");
  AppId b = fs.app("root.b");
  fs.ask(a, 1, "*", 1024, 3, 3);
  fs.ask(b, 1, "*", 2048, 1, 3);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocationOrder(), (std::vector<AppId>{a, b, a, a, b, b}));
}

TEST(FairAssign, OneContainerPerHeartbeatUnlessAssignMultiple) {
  Fs single;
  single.node("h1", "/r1", 8192, 8);
  AppId a = single.app("root.a");
  single.ask(a, 1, "*", 1024, 1, 8);
  single.heartbeat("h1");
  EXPECT_EQ(single.allocations(a), 1);

  Fs capped(allocationXml(""), {{"yarn.scheduler.fair.assignmultiple", "true"},
                                {"yarn.scheduler.fair.dynamic.max.assign", "false"},
                                {"yarn.scheduler.fair.max.assign", "3"}});
  capped.node("h1", "/r1", 8192, 8);
  AppId b = capped.app("root.a");
  capped.ask(b, 1, "*", 1024, 1, 8);
  capped.heartbeat("h1");
  EXPECT_EQ(capped.allocations(b), 3);

  // dynamic.max.assign: keep going while the total fits in half the node's free resource
  // (4 GB); the check comes after the assignment, so a fifth container gets through.
  Fs dynamic(allocationXml(""), {{"yarn.scheduler.fair.assignmultiple", "true"}});
  dynamic.node("h1", "/r1", 8192, 8);
  AppId c = dynamic.app("root.a");
  dynamic.ask(c, 1, "*", 1024, 1, 8);
  dynamic.heartbeat("h1");
  EXPECT_EQ(dynamic.allocations(c), 5);
}

// maxAMShare 0.25 of an 8 GB fair share: two 1 GB AMs, the third waits until one finishes.
TEST(FairAssign, MaxAmShareHoldsBackAms) {
  Fs fs(allocationXml("<queue name=\"a\"><maxAMShare>0.25</maxAMShare></queue>"));
  fs.node("h1", "/r1", 8192, 8);
  AppId a1 = fs.app("root.a", "u", 1024);
  AppId a2 = fs.app("root.a", "u", 1024);
  AppId a3 = fs.app("root.a", "u", 1024);
  for (int i = 0; i < 3; ++i) fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(a1), 1);
  EXPECT_EQ(fs.allocations(a2), 1);
  EXPECT_EQ(fs.allocations(a3), 0);
  ASSERT_NE(fs.sched().lastSkip(a3), nullptr);
  EXPECT_EQ(fs.sched().lastSkip(a3)->skip, SkipReason::kAmLimit);
  EXPECT_EQ(fs.queue("root.a").amUsage, Resource::of(2048, 2));
  fs.remove(a1);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(a3), 1);
}

// A starved app whose ask does not fit reserves the node; the node serves nobody else until the
// reservation is fulfilled.
TEST(FairAssign, ReservationHoldsTheNodeForAStarvedApp) {
  Fs fs(allocationXml("<queue name=\"a\"/><queue name=\"b\"/>"));
  fs.node("h1", "/r1", 4096, 8);
  AppId a = fs.app("root.a");
  fs.ask(a, 1, "*", 1024, 1, 3);
  for (int i = 0; i < 3; ++i) fs.heartbeat("h1");
  ASSERT_EQ(fs.allocations(a), 3);
  AppId b = fs.app("root.b");
  fs.ask(b, 1, "*", 2048, 1, 1);
  fs.tick();
  fs.heartbeat("h1");
  EXPECT_EQ(fs.count(DecisionKind::kReserve, b), 1);
  EXPECT_EQ(fs.sched().cluster().reserved(), Resource::of(2048, 1));
  EXPECT_EQ(fs.sched().findApp(b)->reserved(), Resource::of(2048, 1));

  fs.ask(a, 1, "*", 1024, 1, 1);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(a), 3) << "the reserved node gives its last 1 GB to nobody else";

  fs.release(a, *fs.sched().findApp(a)->liveContainers().begin());
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(b), 1);
  EXPECT_EQ(fs.count(DecisionKind::kUnreserve, b), 1);
  EXPECT_TRUE(fs.sched().cluster().reserved().isZero());
}

TEST(FairAssign, SmallAsksDoNotReserve) {
  Fs fs(allocationXml("<queue name=\"a\"/><queue name=\"b\"/>"));
  fs.node("h1", "/r1", 2048, 8);
  AppId a = fs.app("root.a");
  fs.ask(a, 1, "*", 1024, 1, 2);
  fs.heartbeat("h1");
  fs.heartbeat("h1");
  AppId b = fs.app("root.b");
  fs.ask(b, 1, "*", 1024, 1, 1);  // below 2 x the 1 GB increment
  fs.tick();
  fs.heartbeat("h1");
  EXPECT_EQ(fs.count(DecisionKind::kReserve, b), 0);
}

// DS-4 (fair policy): memory min(fair - usage, cluster free, max - usage); vcores
// min(cluster free, max - usage).
TEST(FairAssign, HeadroomFollowsThePolicy) {
  Fs fs(
      allocationXml("<queue name=\"a\"><maxResources>5120 mb, 3 vcores</maxResources></queue>"
                    "<queue name=\"b\"/>"));
  fs.node("h1", "/r1", 8192, 8);
  AppId a = fs.app("root.a");
  fs.ask(a, 1, "*", 1024, 1, 2);
  fs.heartbeat("h1");
  fs.heartbeat("h1");
  AppId b = fs.app("root.b");
  fs.ask(b, 1, "*", 1024, 1, 1);
  fs.tick();
  EXPECT_EQ(fs.fairMb("root.a"), 4096);
  EXPECT_EQ(fs.sched().headroom(a), Resource::of(2048, 1));
  EXPECT_FALSE(fs.sched().headroom(AppId{}).has_value());
}

}  // namespace
}  // namespace spindle
