// Fair Scheduler 3.x preemption (vectors P3-1, P3-2, P3-4, P3-11): a greedy app fills two
// 4 GB nodes with 8 x 1 GB; a starving app asks 4 x 2 GB.
#include <gtest/gtest.h>

#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

enum class Mode { kFairShare, kMinShare };

std::string preemptionQueues(Mode mode) {
  const std::string parentKnobs =
      mode == Mode::kFairShare ? "<fairSharePreemptionThreshold>1</fairSharePreemptionThreshold>"
                                 "<fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>"
                               : "<minSharePreemptionTimeout>0</minSharePreemptionTimeout>";
  const std::string child =
      mode == Mode::kFairShare ? "" : "<minResources>4096mb,4vcores</minResources>";
  const std::string children =
      "<queue name=\"child-1\">" + child + "</queue><queue name=\"child-2\">" + child + "</queue>";
  return "<queue name=\"preemptable\">" + parentKnobs + children + "</queue>" +
         "<queue name=\"preemptable-sibling\">" + parentKnobs + "</queue>" +
         "<queue name=\"nonpreemptable\"><allowPreemptionFrom>false</allowPreemptionFrom>" +
         parentKnobs + children + "</queue>";
}

struct Outcome {
  int greedy = 0;
  int starving = 0;
  int marked = 0;
};

Outcome run(Mode mode, const std::string& greedyQueue, const std::string& starvingQueue,
            const std::string& threshold = "0.0") {
  Fs fs(allocationXml(preemptionQueues(mode)),
        {{"yarn.scheduler.fair.preemption", "true"},
         {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", threshold},
         {"yarn.scheduler.fair.waitTimeBeforeKill", "0"}});
  fs.node("n1", "/r1", 4096, 12).node("n2", "/r1", 4096, 12);
  AppId greedy = fs.app(greedyQueue);
  fs.ask(greedy, 1, "*", 1024, 1, 8);
  for (int i = 0; i < 4; ++i) fs.heartbeat("n1");
  for (int i = 0; i < 4; ++i) fs.heartbeat("n2");
  EXPECT_EQ(fs.sched().findApp(greedy)->liveContainers().size(), 8u);
  AppId starving = fs.app(starvingQueue);
  fs.ask(starving, 1, "*", 2048, 2, 4);
  fs.clock().advanceMs(1000);
  fs.tick();
  for (int i = 0; i < 3; ++i) {
    fs.heartbeat("n1");
    fs.heartbeat("n2");
  }
  Outcome o;
  o.greedy = static_cast<int>(fs.sched().findApp(greedy)->liveContainers().size());
  o.starving = static_cast<int>(fs.sched().findApp(starving)->liveContainers().size());
  o.marked = fs.count(DecisionKind::kPreemptMark, greedy);
  return o;
}

// P3-1 testPreemptionWithinSameLeafQueue: in fair-share mode the two apps of one leaf each have
// a 4 GB fair share; min-share deficits exist only for queues, so min-share mode preempts nothing.
TEST(FairPreemption, WithinOneLeafOnlyForFairShare) {
  Outcome fair = run(Mode::kFairShare, "root.preemptable.child-1", "root.preemptable.child-1");
  EXPECT_EQ(fair.starving, 2);
  EXPECT_EQ(fair.greedy, 4);
  EXPECT_EQ(fair.marked, 4);
  Outcome min = run(Mode::kMinShare, "root.preemptable.child-1", "root.preemptable.child-1");
  EXPECT_EQ(min.greedy, 8);
  EXPECT_EQ(min.starving, 0);
}

// P3-2 testPreemptionBetweenTwoSiblingLeafQueues.
TEST(FairPreemption, BetweenSiblingLeaves) {
  for (Mode mode : {Mode::kFairShare, Mode::kMinShare}) {
    Outcome o = run(mode, "root.preemptable.child-1", "root.preemptable.child-2");
    EXPECT_EQ(o.starving, 2);
    EXPECT_EQ(o.greedy, 4);
  }
}

// P3-4 testNoPreemptionFromDisallowedQueue: allowPreemptionFrom=false covers the children.
TEST(FairPreemption, NothingFromADisallowedQueue) {
  Outcome o = run(Mode::kFairShare, "root.nonpreemptable.child-1", "root.preemptable.child-1");
  EXPECT_EQ(o.greedy, 8);
  EXPECT_EQ(o.marked, 0);
}

// P3-11: starvation is only looked for above the utilisation threshold.
TEST(FairPreemption, GatedByClusterUtilisation) {
  Outcome o = run(Mode::kFairShare, "root.preemptable.child-1", "root.preemptable.child-2", "1.1");
  EXPECT_EQ(o.greedy, 8);
  EXPECT_EQ(o.marked, 0);
}

// Victims are non-AM containers first; a node whose set would need an AM loses to one that
// does not.
TEST(FairPreemption, AmContainersAreAvoided) {
  Fs fs(allocationXml(preemptionQueues(Mode::kFairShare)),
        {{"yarn.scheduler.fair.preemption", "true"},
         {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", "0"},
         {"yarn.scheduler.fair.waitTimeBeforeKill", "0"}});
  fs.node("n1", "/r1", 4096, 12).node("n2", "/r1", 4096, 12);
  AppId greedy = fs.app("root.preemptable.child-1", "u", /*amMb=*/1024);
  fs.ask(greedy, 1, "*", 1024, 1, 7);
  for (int i = 0; i < 4; ++i) fs.heartbeat("n1");  // the AM and 3 containers
  for (int i = 0; i < 4; ++i) fs.heartbeat("n2");
  ASSERT_EQ(fs.sched().findApp(greedy)->liveContainers().size(), 8u);
  AppId starving = fs.app("root.preemptable.child-2");
  fs.ask(starving, 1, "*", 2048, 2, 4);
  fs.clock().advanceMs(1000);
  fs.tick();
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, greedy), 4);
  EXPECT_EQ(fs.sched().findApp(greedy)->liveContainers().size(), 4u);
  EXPECT_EQ(fs.sched().findApp(greedy)->amUsed(), Resource::of(1024, 1)) << "the AM survives";
  for (const auto& d : fs.log().decisions()) {
    if (d.kind == DecisionKind::kPreemptMark) {
      EXPECT_FALSE(d.am);
    }
  }
}

TEST(FairPreemption, KillWaitsForWaitTimeBeforeKill) {
  Fs fs(allocationXml(preemptionQueues(Mode::kFairShare)),
        {{"yarn.scheduler.fair.preemption", "true"},
         {"yarn.scheduler.fair.preemption.cluster-utilization-threshold", "0"},
         {"yarn.scheduler.fair.waitTimeBeforeKill", "15000"}});
  fs.node("n1", "/r1", 4096, 12).node("n2", "/r1", 4096, 12);
  AppId greedy = fs.app("root.preemptable.child-1");
  fs.ask(greedy, 1, "*", 1024, 1, 8);
  for (int i = 0; i < 4; ++i) fs.heartbeat("n1");
  for (int i = 0; i < 4; ++i) fs.heartbeat("n2");
  AppId starving = fs.app("root.preemptable.child-2");
  fs.ask(starving, 1, "*", 2048, 2, 4);
  fs.clock().advanceMs(1000);
  fs.tick();
  EXPECT_EQ(fs.count(DecisionKind::kPreemptMark, greedy), 4);
  EXPECT_EQ(fs.sched().findApp(greedy)->liveContainers().size(), 8u) << "marked, not killed yet";
  // P3-10: the app is checked again only after waitTimeBeforeKill + 4 heartbeat intervals +
  // waitTimeBeforeNextStarvationCheck.
  EXPECT_EQ(fs.sched().fsApp(starving)->nextStarvationCheck, 1000 + 15000 + 4 * 1000 + 10000);
  fs.clock().advanceMs(14999);
  fs.heartbeat("n1");
  EXPECT_EQ(fs.sched().findApp(greedy)->liveContainers().size(), 8u);
  fs.clock().advanceMs(1);
  fs.heartbeat("n1");
  EXPECT_EQ(fs.sched().findApp(greedy)->liveContainers().size(), 4u);
  EXPECT_EQ(fs.sched().findApp(starving)->liveContainers().size(), 2u)
      << "the freed node went to the starved app in the same heartbeat";
}

}  // namespace
}  // namespace spindle
