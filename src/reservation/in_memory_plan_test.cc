#include "reservation/in_memory_plan.h"

#include <gtest/gtest.h>

#include "base/rng.h"
#include "reservation/reservation_test_util.h"

namespace spindle::reservation {
namespace {

using testing::containers;
using testing::TestPlan;

TEST(InMemoryPlanTest, RefusedReservationLeavesThePlanUnchanged) {
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  ASSERT_TRUE(p.addFixed("a", 0, 1, {60, 60}));
  std::string before = p.plan->committed().toString();
  PlanStatus s = p.addFixed("b", 1, 1, {50});
  EXPECT_EQ(s.kind(), PlanErrorKind::kResourceOverCommit);
  EXPECT_TRUE(s.message().starts_with("Resources at time")) << s.message();
  EXPECT_EQ(p.plan->size(), 1u);
  EXPECT_EQ(p.plan->committed().toString(), before);
  EXPECT_TRUE(p.plan->consumptionForUserOverTime("b", 0, 10)->isEmpty());
}

TEST(InMemoryPlanTest, RefusedUpdateKeepsTheOldVersion) {
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  ReservationId id = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.fixed(id, "a", 0, 1, {10, 10})));
  ASSERT_TRUE(p.addFixed("b", 5, 1, {95}));
  PlanStatus s = p.plan->updateReservation(p.fixed(id, "a", 5, 1, {10}));
  EXPECT_EQ(s.kind(), PlanErrorKind::kResourceOverCommit);
  EXPECT_EQ(p.plan->reservationById(id)->startTime(), 0);
  EXPECT_EQ(p.plan->totalCommittedResources(0), containers(10));
  EXPECT_TRUE(p.plan->checkInvariants().isOk());
}

TEST(InMemoryPlanTest, UpdateByAnotherUserIsMismatched) {
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  ReservationId id = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.fixed(id, "a", 0, 1, {10})));
  EXPECT_EQ(p.plan->updateReservation(p.fixed(id, "b", 0, 1, {10})).kind(),
            PlanErrorKind::kMismatchedUser);
}

TEST(InMemoryPlanTest, QueriesByTimeAndUser) {
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  ASSERT_TRUE(p.addFixed("a", 0, 1, {1, 1, 1}));  // [0, 3)
  ASSERT_TRUE(p.addFixed("b", 2, 1, {1, 1}));     // [2, 4)
  ASSERT_TRUE(p.addFixed("a", 5, 1, {1}));        // [5, 6)
  EXPECT_EQ(p.plan->reservationsAtTime(2).size(), 2u);
  EXPECT_EQ(p.plan->reservationsAtTime(3).size(), 1u);
  EXPECT_EQ(p.plan->reservationsAtTime(4).size(), 0u);
  EXPECT_EQ(p.plan->reservations(std::nullopt, ReservationInterval{0, 10}, "a").size(), 2u);
  EXPECT_EQ(p.plan->activeReservationCount("a", 1), 1);
  EXPECT_EQ(p.plan->activeReservationCount("a", 4), 0);
  EXPECT_EQ(p.plan->lastEndTime(), 6);
}

TEST(InMemoryPlanTest, CapacityOverTimeKeepsFinishedReservationsForItsWindow) {
  TestPlan p = TestPlan::make(containers(100), 1,
                              std::make_unique<CapacityOverTimePolicy>(
                                  CapacityOverTimePolicy::Settings{.validWindowMs = 10}));
  ASSERT_TRUE(p.addFixed("a", 0, 1, {5, 5}));
  EXPECT_TRUE(p.plan->archiveCompletedReservations(11).empty());
  EXPECT_EQ(p.plan->archiveCompletedReservations(12).size(), 1u);
  EXPECT_EQ(p.plan->size(), 0u);
}

TEST(InMemoryPlanTest, AvailabilityFailsWhileTheCapacityIsBelowThePromises) {
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  ASSERT_TRUE(p.addFixed("a", 0, 1, {80}));
  p.plan->setTotalCapacity(containers(50));
  auto avail = p.plan->availableResourceOverTime("b", std::nullopt, 0, 10);
  EXPECT_FALSE(avail);
  EXPECT_EQ(avail.status().kind(), PlanErrorKind::kPlanning);
}

TEST(InMemoryPlanTest, InstantaneousQuotaLowersAvailabilityPerUser) {
  TestPlan p =
      TestPlan::make(containers(100), 1,
                     std::make_unique<CapacityOverTimePolicy>(CapacityOverTimePolicy::Settings{
                         .validWindowMs = 1000, .instantaneousMaxPercent = 30}));
  ASSERT_TRUE(p.addFixed("a", 0, 1, {20}));
  auto forA = p.plan->availableResourceOverTime("a", std::nullopt, 0, 5);
  auto forB = p.plan->availableResourceOverTime("b", std::nullopt, 0, 5);
  ASSERT_TRUE(forA && forB);
  EXPECT_EQ(forA->capacityAtTime(0), containers(10));
  EXPECT_EQ(forB->capacityAtTime(0), containers(30));
  EXPECT_EQ(forA->capacityAtTime(1), containers(30));
}

TEST(InMemoryPlanTest, InvariantsHoldThroughRandomOperations) {
  Rng rng(11);
  TestPlan p = TestPlan::make(containers(100), 1, std::make_unique<NoOverCommitPolicy>());
  std::vector<ReservationId> live;
  for (int i = 0; i < 300; ++i) {
    int op = static_cast<int>(rng.uniformInt(0, 3));
    if (op <= 1 || live.empty()) {
      ReservationId id = p.newId();
      std::vector<int64_t> alloc(rng.uniformInt(1, 6));
      for (auto& a : alloc) a = rng.uniformInt(0, 30);
      if (p.plan->addReservation(
              p.fixed(id, fmt::format("u{}", i % 3), rng.uniformInt(0, 50), 1, alloc))) {
        live.push_back(id);
      }
    } else if (op == 2) {
      size_t k = static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(live.size()) - 1));
      ASSERT_TRUE(p.plan->deleteReservation(live[k]));
      live.erase(live.begin() + static_cast<int64_t>(k));
    } else {
      p.plan->archiveCompletedReservations(rng.uniformInt(0, 20));
      std::erase_if(
          live, [&](const ReservationId& id) { return p.plan->reservationById(id) == nullptr; });
    }
    ASSERT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().toString();
    for (int64_t t = 0; t < 60; t += 7) {
      ASSERT_TRUE(p.plan->totalCommittedResources(t).fitsIn(containers(100)));
    }
  }
}

}  // namespace
}  // namespace spindle::reservation
