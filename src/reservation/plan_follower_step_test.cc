#include "reservation/plan_follower_step.h"

#include <gtest/gtest.h>

#include "reservation/reservation_test_util.h"

namespace spindle::reservation {
namespace {

using testing::containers;
using testing::TestPlan;

TEST(PlanFollowerStepTest, ShrinkingQueuesComeFirstAndGangsCapTheirMaximum) {
  TestPlan p = TestPlan::make(containers(100), 10, std::make_unique<NoOverCommitPolicy>());
  ReservationId grow = p.newId(), shrink = p.newId(), gang = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.fixed(grow, "a", 0, 10, {30})));
  ASSERT_TRUE(p.plan->addReservation(p.fixed(shrink, "b", 0, 10, {10})));
  ReservationAllocation g = p.fixed(gang, "c", 0, 10, {20});
  ReservationDefinition def = g.definition();
  def.stages[0].concurrency = 2;
  def.stages[0].numContainers = 2;
  ASSERT_TRUE(p.plan->addReservation(
      ReservationAllocation(gang, def, "c", "dedicated", 0, 10, g.allocationRequests())));
  PlanFollowerStep step = planFollowerStep(
      *p.plan, PlanFollowerInput{.clockNowMs = 3,  // rounds up to the step: 10 is past them all
                                 .clusterResource = containers(200),
                                 .planResources = containers(100),
                                 .existingQueues = {{shrink.toString(), containers(40)}}});
  EXPECT_EQ(step.nowMs, 10);
  EXPECT_TRUE(step.entitlements.empty());
  EXPECT_EQ(step.expired, std::vector<std::string>{shrink.toString()});

  step = planFollowerStep(
      *p.plan, PlanFollowerInput{.clockNowMs = 0,
                                 .clusterResource = containers(200),
                                 .planResources = containers(100),
                                 .existingQueues = {{shrink.toString(), containers(40)}}});
  ASSERT_EQ(step.entitlements.size(), 3u);
  EXPECT_EQ(step.entitlements[0].id, shrink);  // 10 - 40 < 0: gives resources back first
  EXPECT_FALSE(step.entitlements[0].create);
  EXPECT_TRUE(step.entitlements[1].create);
  EXPECT_FLOAT_EQ(step.entitlements[0].capacity, 0.1f);
  const ReservationQueueEntitlement& ge =
      step.entitlements[1].id == gang ? step.entitlements[1] : step.entitlements[2];
  EXPECT_FLOAT_EQ(ge.capacity, 0.2f);
  EXPECT_FLOAT_EQ(ge.maxCapacity, 0.2f);
  EXPECT_FLOAT_EQ(step.defaultQueueCapacity, 1.0f - 0.1f - 0.2f - 0.3f);
  EXPECT_FALSE(step.replan);
}

TEST(PlanFollowerStepTest, OverCommittedPlanReplansAndScalesQueuesDown) {
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  ASSERT_TRUE(p.addFixed("a", 0, 1, {60}));
  ASSERT_TRUE(p.addFixed("b", 0, 1, {40}));
  PlanFollowerStep step = planFollowerStep(
      *p.plan, PlanFollowerInput{.clockNowMs = 0,
                                 .clusterResource = containers(100),
                                 .planResources = containers(50),  // the plan queue shrank
                                 .existingQueues = {}});
  EXPECT_TRUE(step.replan);
  EXPECT_EQ(step.reserved, containers(100));
  float total = 0;
  for (const auto& e : step.entitlements) total += e.capacity;
  EXPECT_NEAR(total, 1.0f, 1e-6);  // scaled to the plan, not 200 %
  EXPECT_NEAR(step.defaultQueueCapacity, 0.0f, 1e-6);
}

}  // namespace
}  // namespace spindle::reservation
