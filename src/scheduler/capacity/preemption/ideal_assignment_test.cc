// The ideal-assignment fixpoint, dead zone, natural termination and the shared per-round budget, on
// small hand-made trees (YARN's PreemptableResourceCalculator and
// ProportionalCapacityPreemptionPolicy's shared totalPreemptionAllowed).
#include "scheduler/capacity/preemption/ideal_assignment.h"

#include <gtest/gtest.h>

#include "scheduler/capacity/preemption/preemption_policy.h"
#include "scheduler/capacity/preemption/test_snapshot_builder.h"

namespace spindle::preemption {
namespace {

using testing::SnapshotBuilder;

// The table-test knobs: report the ideal preemption in one round.
PreemptionSettings tableKnobs() {
  PreemptionSettings s;
  s.totalPreemptionPerRound = 1.0;
  s.naturalTerminationFactor = 1.0;
  return s;
}

int64_t idealOf(const PreemptionPlan& plan, const std::string& path,
                const std::string& partition = "") {
  for (const QueueFigures& f : plan.figures) {
    if (f.path == path && f.partition == partition) return f.ideal.memoryMb();
  }
  ADD_FAILURE() << "no figures for " << path;
  return -1;
}

int marked(const PreemptionPlan& plan, const std::string& path, const std::string& partition = "") {
  int n = 0;
  for (const PreemptionCandidate& c : plan.candidates) {
    n += c.queuePath == path && c.partition == partition;
  }
  return n;
}

// A worked example (not an upstream test): A/B/C/D with G 20/30/30/20, U 40/50/10/0, P 10/10/30/0.
TEST(IdealAssignment, WorkedExampleFromReference) {
  PreemptionSnapshot s = SnapshotBuilder(100)
                             .leaf("A", 20, 40, 10)
                             .leaf("B", 30, 50, 10)
                             .leaf("C", 30, 10, 30)
                             .leaf("D", 20, 0, 0)
                             .build();
  PreemptionSettings knobs = tableKnobs();
  auto plan = planPreemptionRound(s, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(plan.isOk()) << plan.status().message();
  EXPECT_EQ(idealOf(*plan, "root.A"), 28);
  EXPECT_EQ(idealOf(*plan, "root.B"), 42);
  EXPECT_EQ(idealOf(*plan, "root.C"), 30);
  EXPECT_EQ(idealOf(*plan, "root.D"), 0);
  EXPECT_EQ(marked(*plan, "root.A"), 12);
  EXPECT_EQ(marked(*plan, "root.B"), 8);
  EXPECT_EQ(marked(*plan, "root.C"), 0);
  // Reasons name the victim's figures and the queue that is short.
  for (const PreemptionCandidate& c : plan->candidates) {
    EXPECT_EQ(c.selector, SelectorKind::kFifo);
    EXPECT_EQ(c.killWaitMs, knobs.maxWaitBeforeKillMs);
    EXPECT_GT(c.used.memoryMb(), c.ideal.memoryMb());
    EXPECT_EQ(c.beneficiaries, std::vector<std::string>{"root.C"});
  }
  // Newest containers of the app go first.
  ASSERT_FALSE(plan->candidates.empty());
  EXPECT_EQ(plan->candidates.front().container.seq, 40u);
}

// Satisfied queues never take from each other (YARN-5864), unless balance mode (YARN-8379)
// is on; its picks carry the balance selector's own kill wait.
TEST(IdealAssignment, SatisfiedQueuesBalanceOnlyInBalanceMode) {
  PreemptionSnapshot s = SnapshotBuilder(100).leaf("A", 50, 50, 30).leaf("B", 50, 50, 0).build();
  PreemptionSnapshot skewed =
      SnapshotBuilder(100).leaf("A", 30, 30, 30).leaf("B", 30, 70, 0).build();
  PreemptionSettings knobs = tableKnobs();
  auto plan = planPreemptionRound(skewed, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(plan.isOk());
  EXPECT_TRUE(plan->candidates.empty());

  knobs.preemptToBalanceEnabled = true;
  auto balanced = planPreemptionRound(skewed, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(balanced.isOk());
  // A and B tie at ratio 1.0 and split the idle 40 by guarantee: both end at 50.
  EXPECT_EQ(marked(*balanced, "root.B"), 20);
  for (const PreemptionCandidate& c : balanced->candidates) {
    EXPECT_EQ(c.selector, SelectorKind::kFifoBalance);
    EXPECT_EQ(c.killWaitMs, 300000);
  }
  // Already balanced: nothing to do in either mode.
  auto even = planPreemptionRound(s, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(even.isOk());
  EXPECT_TRUE(even->candidates.empty());
}

// Dead zone (max_ignored_over_capacity): a leaf using no more than G x 1.1 is never a victim, even
// with a lower ideal.
TEST(IdealAssignment, DeadZoneProtectsQueuesNearTheirGuarantee) {
  PreemptionSnapshot within =
      SnapshotBuilder(100).leaf("A", 40, 44, 0).leaf("B", 60, 56, 20).build();
  auto plan = planPreemptionRound(within, testing::defaultCalculator(), tableKnobs());
  ASSERT_TRUE(plan.isOk());
  EXPECT_EQ(idealOf(*plan, "root.A"), 40);
  EXPECT_TRUE(plan->candidates.empty());

  PreemptionSnapshot beyond =
      SnapshotBuilder(100).leaf("A", 40, 45, 0).leaf("B", 60, 55, 20).build();
  auto plan2 = planPreemptionRound(beyond, testing::defaultCalculator(), tableKnobs());
  ASSERT_TRUE(plan2.isOk());
  EXPECT_EQ(marked(*plan2, "root.A"), 5);
}

// The natural termination factor (natural_termination_factor) scales the target, rounding half-up
// under the default calculator and up under DRF.
TEST(IdealAssignment, NaturalTerminationDampensTheTarget) {
  PreemptionSettings knobs = tableKnobs();
  knobs.naturalTerminationFactor = 0.2;
  PreemptionSnapshot s = SnapshotBuilder(100).leaf("A", 40, 60, 0).leaf("B", 60, 40, 40).build();
  auto plan = planPreemptionRound(s, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(plan.isOk());
  EXPECT_EQ(marked(*plan, "root.A"), 4);  // 20 x 0.2

  // 2 x 0.2 = 0.4: half-up gives 0 under the default calculator ...
  PreemptionSnapshot small = SnapshotBuilder(100).leaf("A", 40, 47, 0).leaf("B", 60, 53, 2).build();
  auto none = planPreemptionRound(small, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(marked(*none, "root.A"), 0);
  // ... and 1 under DRF, which rounds up.
  PreemptionSnapshot drf = SnapshotBuilder(100).leaf("A", 40, 47, 0).leaf("B", 60, 53, 2).build();
  auto one = planPreemptionRound(drf, testing::dominantCalculator(), knobs);
  ASSERT_TRUE(one.isOk());
  EXPECT_EQ(marked(*one, "root.A"), 1);
}

// The target goes through the scheduler's calculator with YARN's rounding: Resources.
// multiplyAndNormalizeUp(rc, toBePreempted, factor, <1, 1>). 200 x 0.07 is 14.000000000000002
// in double; DominantResourceCalculator rounds (long) ceil((float) (v x factor)) = 14, not 15.
TEST(IdealAssignment, NaturalTerminationRoundsTheProductAsFloatUnderDrf) {
  PreemptionSettings knobs = tableKnobs();
  knobs.naturalTerminationFactor = 0.07;
  PreemptionSnapshot s =
      SnapshotBuilder(1000).leaf("A", 400, 600, 0).leaf("B", 600, 400, 400).build();
  auto drf = planPreemptionRound(s, testing::dominantCalculator(), knobs);
  ASSERT_TRUE(drf.isOk());
  EXPECT_EQ(marked(*drf, "root.A"), 14);
  // DefaultResourceCalculator: (long) (v x factor + 0.5) = 14 as well.
  auto def = planPreemptionRound(s, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(def.isOk());
  EXPECT_EQ(marked(*def, "root.A"), 14);
}

// totalPreemptionAllowed (containerBasedPreemptOrKill): one budget (whole cluster x
// total_preemption_per_round) for all partitions.
TEST(IdealAssignment, BudgetIsSharedAcrossPartitions) {
  PreemptionSettings knobs = tableKnobs();
  knobs.totalPreemptionPerRound = 0.1;  // 10% of 200 = 20 for the whole round
  PreemptionSnapshot s = SnapshotBuilder(100)
                             .partition("x", 100)
                             .leaf("A", 50, 80, 0)
                             .leaf("B", 50, 20, 40)
                             .on("x")
                             .leaf("A", 50, 80, 0)
                             .leaf("B", 50, 20, 40)
                             .build();
  auto plan = planPreemptionRound(s, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(plan.isOk()) << plan.status().message();
  // Each partition alone would ask for 30; the level scaling caps each at 20 ...
  for (const QueueFigures& f : plan->figures) {
    if (f.path == "root.A") {
      EXPECT_EQ(f.toBePreempted.memoryMb(), 20) << f.partition;
    }
  }
  // ... and the selectors stop when the shared 20 is spent.
  EXPECT_EQ(plan->candidates.size(), 20u);
  EXPECT_EQ(marked(*plan, "root.A", "") + marked(*plan, "root.A", "x"), 20);
  EXPECT_EQ(plan->budgetLeft.memoryMb(), 0);
}

// A queue over its guarantee only through a non-preemptable child keeps that surplus.
TEST(IdealAssignment, DisabledQueueKeepsItsSurplus) {
  PreemptionSnapshot s = SnapshotBuilder(100)
                             .leaf("A", 30, 60, 0)
                             .leaf("B", 30, 40, 0)
                             .leaf("C", 40, 0, 40)
                             .disablePreemption("A")
                             .build();
  auto plan = planPreemptionRound(s, testing::defaultCalculator(), tableKnobs());
  ASSERT_TRUE(plan.isOk());
  EXPECT_EQ(marked(*plan, "root.A"), 0);
  EXPECT_EQ(marked(*plan, "root.B"), 10);
}

TEST(IdealAssignment, ObserveOnlyComputesButFlagsThePlan) {
  PreemptionSettings knobs = tableKnobs();
  knobs.observeOnly = true;
  PreemptionSnapshot s = SnapshotBuilder(100).leaf("A", 40, 60, 0).leaf("B", 60, 40, 40).build();
  auto plan = planPreemptionRound(s, testing::defaultCalculator(), knobs);
  ASSERT_TRUE(plan.isOk());
  EXPECT_TRUE(plan->observeOnly);
  EXPECT_EQ(plan->candidates.size(), 20u);
}

TEST(IdealAssignment, RejectsBrokenSnapshots) {
  PreemptionSnapshot s = SnapshotBuilder(100).leaf("A", 40, 1, 0).build();
  s.apps[0].containers[0].node = NodeId(7);
  auto plan = planPreemptionRound(s, testing::defaultCalculator(), tableKnobs());
  ASSERT_FALSE(plan.isOk());
  EXPECT_NE(plan.status().message().find("unknown node 7"), std::string::npos)
      << plan.status().message();
}

}  // namespace
}  // namespace spindle::preemption
