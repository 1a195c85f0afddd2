#include "reservation/reservation_agent.h"

#include <gtest/gtest.h>

#include "reservation/reservation_test_util.h"

namespace spindle::reservation {
namespace {

using testing::containers;
using testing::Def;
using testing::TestPlan;

TestPlan emptyPlan() {
  return TestPlan::make(containers(100), 1000, std::make_unique<NoOverCommitPolicy>());
}

PlanStatus create(ReservationAgent& agent, TestPlan& p, const ReservationDefinition& d,
                  ReservationId id = ReservationId::of(1, 1)) {
  return agent.createReservation(id, "u1", *p.plan, d);
}

TEST(ReservationAgentTest, StagesThePlannerCannotTakeAreContractErrors) {
  TestPlan p = emptyPlan();
  GreedyReservationAgent agent(AgentSettings{});
  auto bad = [&](int64_t n, int64_t gang, Resource cap) {
    return create(agent, p, Def(0, 100000).stage(cap, n, gang, 1000));
  };
  PlanStatus s = bad(10, 0, containers(1));
  EXPECT_EQ(s.kind(), PlanErrorKind::kContractValidation);
  EXPECT_EQ(s.message(), "Gang Size should be >= 1");
  s = bad(10, 3, containers(1));
  EXPECT_EQ(s.message(), "Parallelism must be an exact multiple of gang size");
  s = bad(0, 1, containers(1));
  EXPECT_EQ(s.kind(), PlanErrorKind::kContractValidation);
  s = bad(1, 1, Resource::of(16384, 1));
  EXPECT_EQ(s.kind(), PlanErrorKind::kContractValidation);
  EXPECT_EQ(p.plan->size(), 0u);
}

TEST(ReservationAgentTest, OrderNoGapPlacesStagesBackToBack) {
  for (bool left : {true, false}) {
    TestPlan p = emptyPlan();
    GreedyReservationAgent agent(AgentSettings{.favorEarlyAllocation = left});
    ReservationDefinition d = Def(0, 60000)
                                  .interpreter(Interpreter::kOrderNoGap)
                                  .stage(containers(1), 10, 1, 10000)
                                  .stage(containers(1), 20, 20, 5000);
    ASSERT_TRUE(create(agent, p, d)) << left;
    const ReservationAllocation* a = p.plan->reservationById(ReservationId::of(1, 1));
    int64_t first = left ? 0 : 45000;
    EXPECT_EQ(a->resourcesAtTime(first), containers(10)) << left;
    EXPECT_EQ(a->resourcesAtTime(first + 10000), containers(20)) << left;
    EXPECT_TRUE(a->resourcesAtTime(first + 15000).isZero()) << left;
    // The reservation spans the contract, not its allocation.
    EXPECT_EQ(a->startTime(), 0);
    EXPECT_EQ(a->endTime(), 60000);
  }
}

TEST(ReservationAgentTest, OrderNoGapRefusesAGapItCannotClose) {
  TestPlan p = emptyPlan();
  ASSERT_TRUE(p.addFixed("other", 10000, 1000, std::vector<int64_t>(5, 100)));
  GreedyReservationAgent agent(AgentSettings{.favorEarlyAllocation = true});
  ReservationDefinition d = Def(0, 60000)
                                .interpreter(Interpreter::kOrderNoGap)
                                .stage(containers(1), 10, 10, 10000)
                                .stage(containers(1), 10, 10, 10000);
  PlanStatus s = create(agent, p, d);
  EXPECT_EQ(s.kind(), PlanErrorKind::kPlanning);
  EXPECT_TRUE(s.message().find("ORDER_NO_GAP") != std::string::npos) << s.message();
  EXPECT_EQ(p.plan->size(), 1u);
}

TEST(ReservationAgentTest, AnyTakesTheFirstStageThatFitsInItsDirection) {
  for (bool left : {true, false}) {
    TestPlan p = emptyPlan();
    GreedyReservationAgent agent(AgentSettings{.favorEarlyAllocation = left});
    ReservationDefinition d = Def(0, 20000)
                                  .interpreter(Interpreter::kAny)
                                  .stage(containers(1), 3, 1, 1000)
                                  .stage(containers(1), 7, 1, 1000);
    ASSERT_TRUE(create(agent, p, d));
    Resource held = p.plan->reservationById(ReservationId::of(1, 1))
                        ->resourcesOverTime()
                        .maxOverRange(*p.calc, containers(100), 0, 20000);
    EXPECT_EQ(held, containers(left ? 3 : 7));
  }
}

TEST(ReservationAgentTest, UpdateOfAnUnknownReservationIsAnIllegalArgument) {
  TestPlan p = emptyPlan();
  auto agent = makeReservationAgent("AlignedPlannerWithGreedy", AgentSettings{}).value();
  PlanStatus s = agent->updateReservation(ReservationId::of(1, 9), "u1", *p.plan,
                                          Def(0, 10000).stage(containers(1), 1, 1, 1000));
  EXPECT_EQ(s.kind(), PlanErrorKind::kIllegalArgument);
  EXPECT_TRUE(s.message().ends_with("does not exist in the plan"));
}

TEST(ReservationAgentTest, DuplicateCreateIsRefusedWithoutRetrying) {
  TestPlan p = emptyPlan();
  AlignedPlannerWithGreedy agent(AgentSettings{});
  ReservationDefinition d = Def(0, 10000).stage(containers(1), 1, 1, 1000);
  ASSERT_TRUE(create(agent, p, d));
  PlanStatus s = create(agent, p, d);
  EXPECT_EQ(s.kind(), PlanErrorKind::kIllegalArgument);
  EXPECT_TRUE(s.message().ends_with("already exists"));
}

TEST(ReservationAgentTest, AgentsAreChosenByYarnClassNames) {
  EXPECT_STREQ(makeReservationAgent(kGreedyReservationAgentClass, {}).value()->className(),
               kGreedyReservationAgentClass);
  EXPECT_STREQ(makeReservationAgent(" AlignedPlannerWithGreedy ", {}).value()->className(),
               kAlignedPlannerWithGreedyClass);
  auto bad = makeReservationAgent("SimpleAgent", {});
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.status().message().find("SimpleAgent") != std::string::npos);
}

TEST(ReservationAgentTest, OldGreedyAllocatorPlacesLate) {
  TestPlan p = emptyPlan();
  ASSERT_TRUE(p.addFixed("other", 8000, 1000, {100, 100}));
  IterativePlanner agent(std::make_unique<StageExecutionIntervalUnconstrained>(),
                         std::make_unique<StageAllocatorGreedy>(), false);
  ASSERT_TRUE(create(agent, p, Def(0, 10000).stage(containers(1), 20, 10, 3000)));
  const ReservationAllocation* a = p.plan->reservationById(ReservationId::of(1, 1));
  EXPECT_EQ(a->resourcesAtTime(5000), containers(20));
  EXPECT_EQ(a->resourcesAtTime(7000), containers(20));
  EXPECT_TRUE(a->resourcesAtTime(4000).isZero());
}

TEST(ReservationAgentTest, SubStepWindowsNeverFit) {
  TestPlan p = emptyPlan();
  GreedyReservationAgent agent(AgentSettings{});
  PlanStatus s = create(agent, p, Def(100, 120).stage(containers(1), 1, 1, 10));
  EXPECT_EQ(s.kind(), PlanErrorKind::kPlanning);
  EXPECT_EQ(s.message(), "The request cannot be satisfied");
}

}  // namespace
}  // namespace spindle::reservation
