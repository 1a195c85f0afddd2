// The queue-priority ("underutilized preemption") selector on a two-node cluster: a
// higher-priority queue under its guarantee holds a reservation on a full node of a
// lower-priority queue that is itself under its guarantee.
#include "scheduler/capacity/preemption/queue_priority_selector.h"

#include <gtest/gtest.h>

#include "scheduler/capacity/preemption/preemption_policy.h"
#include "scheduler/capacity/preemption/test_snapshot_builder.h"

namespace spindle::preemption {
namespace {

ContainerSnapshot container(AttemptId app, uint64_t seq, NodeId node, int64_t size,
                            int64_t createdMs, bool am = false, bool reservation = false) {
  return ContainerSnapshot{.id = {app, seq},
                           .node = node,
                           .size = Resource::of(size, size),
                           .requestPriority = 1,
                           .isAm = am,
                           .isReservation = reservation,
                           .killable = false,
                           .ignoresExclusivity = false,
                           .creationTimeMs = createdMs};
}

// a (priority 2): 5 running on n2 plus a 10-unit reservation on n1 (created at t=0).
// b (priority 1): an AM and eight 5-unit containers on n1, leaving 5 free there.
PreemptionSnapshot scenario(int aPriority, int64_t nowMs) {
  PreemptionSnapshot s;
  s.clusterTotal = Resource::of(100, 100);
  s.partitions = {{"", Resource::of(100, 100), true}};
  s.nowMs = nowMs;
  QueueId root = s.addQueue("root", QueueId());
  QueueId a = s.addQueue("root.a", root);
  QueueId b = s.addQueue("root.b", root);
  s.queues[a.value()].relativePriority = aPriority;
  s.queues[b.value()].relativePriority = 1;
  auto amounts = [](int64_t g, int64_t u, int64_t p, int64_t r) {
    QueuePartitionAmounts x;
    x.guaranteed = Resource::of(g, g);
    x.max = Resource::of(100, 100);
    x.used = Resource::of(u, u);
    x.pending = Resource::of(p, p);
    x.pendingDeductReserved = Resource::of(p - r, p - r);
    x.reserved = Resource::of(r, r);
    return x;
  };
  s.queues[root.value()].partitions[""] = amounts(100, 60, 0, 10);
  s.queues[a.value()].partitions[""] = amounts(50, 15, 10, 10);
  s.queues[b.value()].partitions[""] = amounts(50, 45, 0, 0);
  s.nodes = {NodeSnapshot{NodeId(0), "n1", "", Resource::of(5, 5), Resource(), std::nullopt},
             NodeSnapshot{NodeId(1), "n2", "", Resource::of(45, 45), Resource(), std::nullopt}};
  AppSnapshot appA;
  appA.attempt = {AppId(1), 1};
  appA.name = "appA";
  appA.queue = a;
  for (uint64_t i = 1; i <= 5; ++i) {
    appA.containers.push_back(container(appA.attempt, i, NodeId(1), 1, 0, i == 1));
  }
  appA.containers.push_back(container(appA.attempt, 6, NodeId(0), 10, 0, false, true));
  s.nodes[0].reservedContainer = appA.containers.back().id;
  AppSnapshot appB;
  appB.attempt = {AppId(2), 1};
  appB.name = "appB";
  appB.queue = b;
  appB.containers.push_back(container(appB.attempt, 1, NodeId(0), 5, 10, true));
  for (uint64_t i = 2; i <= 9; ++i) {
    appB.containers.push_back(container(appB.attempt, i, NodeId(0), 5, static_cast<int64_t>(i)));
  }
  s.queues[a.value()].appsInPreemptionOrder = {appA.attempt};
  s.queues[b.value()].appsInPreemptionOrder = {appB.attempt};
  s.apps = {appA, appB};
  return s;
}

PreemptionSettings knobs() {
  PreemptionSettings s;
  s.underutilizedPreemptionEnabled = true;
  s.totalPreemptionPerRound = 1.0;
  return s;
}

TEST(QueuePrioritySelector, FreesTheReservedNodeFromALowerPriorityQueue) {
  auto plan = planPreemptionRound(scenario(2, 60000), testing::defaultCalculator(), knobs());
  ASSERT_TRUE(plan.isOk()) << plan.status().message();
  ASSERT_EQ(plan->candidates.size(), 1u);
  const PreemptionCandidate& c = plan->candidates[0];
  EXPECT_EQ(c.selector, SelectorKind::kQueuePriority);
  EXPECT_EQ(c.queuePath, "root.b");
  // Oldest non-AM container of b on n1; b's AM (created later) is never taken.
  EXPECT_EQ(c.container.seq, 2u);
  EXPECT_EQ(c.beneficiaries, std::vector<std::string>{"root.a"});
}

TEST(QueuePrioritySelector, WaitsForTheReservationDelay) {
  auto plan = planPreemptionRound(scenario(2, 59999), testing::defaultCalculator(), knobs());
  ASSERT_TRUE(plan.isOk());
  EXPECT_TRUE(plan->candidates.empty());
}

TEST(QueuePrioritySelector, EqualPrioritiesNeverPreemptUnderutilizedQueues) {
  auto plan = planPreemptionRound(scenario(1, 60000), testing::defaultCalculator(), knobs());
  ASSERT_TRUE(plan.isOk());
  EXPECT_TRUE(plan->candidates.empty());
}

TEST(QueuePrioritySelector, DisabledByDefault) {
  auto plan =
      planPreemptionRound(scenario(2, 60000), testing::defaultCalculator(), PreemptionSettings{});
  ASSERT_TRUE(plan.isOk());
  EXPECT_TRUE(plan->candidates.empty());
}

}  // namespace
}  // namespace spindle::preemption
