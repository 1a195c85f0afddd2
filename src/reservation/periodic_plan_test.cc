// Periodic reservations in the plan: the load in every period, availability for periodic and
// non-periodic requests, the policies, the agents, queries by time, archiving, the replanner and
// the plan follower's step.
#include <gtest/gtest.h>

#include "reservation/plan_follower_step.h"
#include "reservation/reservation_agent.h"
#include "reservation/reservation_test_util.h"
#include "reservation/simple_capacity_replanner.h"

namespace spindle::reservation {
namespace {

using testing::containers;
using testing::Def;
using testing::TestPlan;

// 100 containers, 10 ms steps, periods dividing 1000 ms.
TestPlan smallPlan(std::unique_ptr<SharingPolicy> policy = std::make_unique<NoOverCommitPolicy>()) {
  return TestPlan::make(containers(100), 10, std::move(policy), Resource::of(8192, 8), 1000);
}

std::vector<ReservationId> ids(const std::vector<const ReservationAllocation*>& list) {
  std::vector<ReservationId> out;
  for (const auto* a : list) out.push_back(a->id());
  return out;
}

TEST(PeriodicPlanTest, LoadRepeatsInEveryPeriodAndGoesWithTheReservation) {
  TestPlan p = smallPlan();
  ReservationId id = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.periodic(id, "u1", 1010, 1040, 60, 100)));
  for (int64_t k : {0, 1, 5, 1000}) {
    EXPECT_EQ(p.plan->totalCommittedResources(1010 + k * 100), containers(60)) << k;
    EXPECT_EQ(p.plan->totalCommittedResources(1039 + k * 100), containers(60)) << k;
    EXPECT_EQ(p.plan->totalCommittedResources(1040 + k * 100), containers(0)) << k;
    EXPECT_EQ(p.plan->userResourcesAtTime("u1", 1020 + k * 100), containers(60)) << k;
  }
  EXPECT_EQ(p.plan->userResourcesAtTime("u2", 1020), containers(0));
  EXPECT_TRUE(p.plan->hasPeriodicReservations());
  EXPECT_EQ(p.plan->activeReservationCount("u1", 1009), 0);
  EXPECT_EQ(p.plan->activeReservationCount("u1", 1u << 30), 1);  // good until cancelled
  auto load = p.plan->cumulativeLoadOverTime(1200, 1400);
  ASSERT_TRUE(load);
  EXPECT_EQ(load->capacityAtTime(1215), containers(60));
  EXPECT_EQ(load->capacityAtTime(1345), containers(0));
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();

  ASSERT_TRUE(p.plan->deleteReservation(id));
  EXPECT_FALSE(p.plan->hasPeriodicReservations());
  EXPECT_EQ(p.plan->totalCommittedResources(1510), containers(0));
  EXPECT_FALSE(p.plan->hasPeriodicLoad("u1"));
  EXPECT_EQ(p.plan->activeReservationCount("u1", 5000), 0);
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
}

TEST(PeriodicPlanTest, NonPeriodicRefusedWhereAPeriodicOneHoldsALaterPeriod) {
  TestPlan p = smallPlan();
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u1", 1010, 1040, 60, 100)));
  // Six periods later, [1610, 1640) is promised to the periodic reservation.
  PlanStatus s = p.plan->addReservation(p.fixed(p.newId(), "u2", 1600, 10, {50, 50, 50}));
  EXPECT_EQ(s.kind(), PlanErrorKind::kResourceOverCommit) << s.toString();
  // Next to it, the capacity is free.
  ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 1640, 10, {100, 100})));
  // 40 containers fit beside the periodic 60.
  ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 1610, 10, {40})));
  auto avail = p.plan->availableResourceOverTime("u3", std::nullopt, 2000, 2100);
  ASSERT_TRUE(avail);
  EXPECT_EQ(avail->capacityAtTime(2005), containers(100));
  EXPECT_EQ(avail->capacityAtTime(2015), containers(40));
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
}

TEST(PeriodicPlanTest, PeriodicRefusedByANonPeriodicReservationBeyondMaxPeriodicity) {
  TestPlan p = smallPlan();
  // 50 containers at [5010, 5030): 40 periods of 100 after [1010, 1030), beyond the 1000 ms
  // max-periodicity YARN looks at.
  ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 5010, 10, {50, 50})));
  PlanStatus s = p.plan->addReservation(p.periodic(p.newId(), "u1", 1010, 1040, 60, 100));
  EXPECT_EQ(s.kind(), PlanErrorKind::kResourceOverCommit) << s.toString();
  EXPECT_EQ(p.plan->size(), 1u);
  // The periodic availability is the least over every instance.
  auto avail = p.plan->availableResourceOverTime("u1", std::nullopt, 1000, 1100, 100);
  ASSERT_TRUE(avail);
  EXPECT_EQ(avail->capacityAtTime(1005), containers(100));
  EXPECT_EQ(avail->capacityAtTime(1015), containers(50));
  EXPECT_EQ(avail->capacityAtTime(1035), containers(100));
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u1", 1030, 1060, 60, 100)));
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
}

TEST(PeriodicPlanTest, PeriodicAvailabilityRefusesBadPeriods) {
  TestPlan p = smallPlan();
  auto divider = p.plan->availableResourceOverTime("u1", std::nullopt, 0, 30, 300);
  EXPECT_EQ(divider.status().kind(), PlanErrorKind::kPlanning);
  EXPECT_EQ(divider.status().message(),
            "The reservation periodicity (300) must be an exact divider of the system maxPeriod "
            "(1000)");
  auto longer = p.plan->availableResourceOverTime("u1", std::nullopt, 0, 300, 200);
  EXPECT_EQ(longer.status().message(),
            "Invalid input: (end - start) = (300 - 0) = 300 > period = 200");
}

TEST(PeriodicPlanTest, PeriodicReservationsOfDifferentPeriodsAddUp) {
  TestPlan p = smallPlan();
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u1", 0, 20, 30, 100)));
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u2", 0, 50, 30, 250)));
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u3", 0, 20, 40, 500)));
  EXPECT_EQ(p.plan->totalCommittedResources(0), containers(100));
  EXPECT_EQ(p.plan->totalCommittedResources(500), containers(100));
  EXPECT_EQ(p.plan->totalCommittedResources(250), containers(30));
  EXPECT_EQ(p.plan->totalCommittedResources(100), containers(30));
  // Full at 0 mod 500: a fourth periodic one cannot have it in any period.
  PlanStatus s = p.plan->addReservation(p.periodic(p.newId(), "u4", 1000, 1010, 1, 1000));
  EXPECT_EQ(s.kind(), PlanErrorKind::kResourceOverCommit) << s.toString();
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
}

TEST(PeriodicPlanTest, InstantaneousQuotaCountsPeriodicLoadInLaterPeriods) {
  TestPlan p = smallPlan(std::make_unique<CapacityOverTimePolicy>(CapacityOverTimePolicy::Settings{
      .validWindowMs = 100, .instantaneousMaxPercent = 50, .averagePercent = 100}));
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u1", 0, 20, 40, 100)));
  PlanStatus s = p.plan->addReservation(p.fixed(p.newId(), "u1", 900, 10, {20}));
  EXPECT_EQ(s.kind(), PlanErrorKind::kPlanningQuota) << s.toString();
  ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u1", 900, 10, {10})));
  ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 900, 10, {50})));
}

TEST(PeriodicPlanTest, AverageQuotaSeesEveryPeriod) {
  // 10 % on average over 100 ms; 30 % for 30 ms every 100 ms averages 9 %.
  TestPlan p = smallPlan(std::make_unique<CapacityOverTimePolicy>(CapacityOverTimePolicy::Settings{
      .validWindowMs = 100, .instantaneousMaxPercent = 100, .averagePercent = 10}));
  ASSERT_TRUE(p.plan->addReservation(p.periodic(p.newId(), "u1", 0, 30, 30, 100)));
  // Far ahead, 20 % for 20 ms next to a period's 30 % goes over the average there.
  PlanStatus s = p.plan->addReservation(p.fixed(p.newId(), "u1", 5030, 10, {20, 20}));
  EXPECT_EQ(s.kind(), PlanErrorKind::kPlanningQuota) << s.toString();
  // And the other way round: a periodic one refused by non-periodic load far ahead.
  TestPlan q = smallPlan(std::make_unique<CapacityOverTimePolicy>(CapacityOverTimePolicy::Settings{
      .validWindowMs = 100, .instantaneousMaxPercent = 100, .averagePercent = 10}));
  ASSERT_TRUE(q.plan->addReservation(q.fixed(q.newId(), "u1", 5030, 10, {20, 20})));
  s = q.plan->addReservation(q.periodic(q.newId(), "u1", 0, 30, 30, 100));
  EXPECT_EQ(s.kind(), PlanErrorKind::kPlanningQuota) << s.toString();
}

TEST(PeriodicPlanTest, CurrentInEachActiveWindowAndNeverArchived) {
  TestPlan p = smallPlan();
  ReservationId periodic = p.newId(), full = p.newId(), once = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.periodic(periodic, "u1", 1010, 1040, 10, 100)));
  ASSERT_TRUE(p.plan->addReservation(p.periodic(full, "u1", 1000, 1100, 10, 100)));
  ASSERT_TRUE(p.plan->addReservation(p.fixed(once, "u2", 1000, 10, {10})));
  using V = std::vector<ReservationId>;
  EXPECT_EQ(ids(p.plan->reservationsAtTime(999)), V{});
  EXPECT_EQ(ids(p.plan->reservationsAtTime(1005)), (V{once, full}));
  EXPECT_EQ(ids(p.plan->reservationsAtTime(1010)), (V{full, periodic}));
  EXPECT_EQ(ids(p.plan->reservationsAtTime(1040)), V{full});
  // Every later period: inside the window, and a window as long as the period is always on.
  EXPECT_EQ(ids(p.plan->reservationsAtTime(7315)), (V{full, periodic}));
  EXPECT_EQ(ids(p.plan->reservationsAtTime(7340)), V{full});
  EXPECT_EQ(ids(p.plan->reservationsAtTime(7309)), V{full});
  // An interval reaching into a later window finds it.
  EXPECT_EQ(ids(p.plan->reservations(std::nullopt, ReservationInterval{7350, 7410}, "u1")),
            (V{full, periodic}));
  EXPECT_EQ(ids(p.plan->reservations(std::nullopt, ReservationInterval{7340, 7409}, "u1")),
            V{full});
  // The periodic reservation holds its share in every window.
  const ReservationAllocation* r = p.plan->reservationById(periodic);
  EXPECT_EQ(r->resourcesAtTime(1005), containers(0));
  EXPECT_EQ(r->resourcesAtTime(1010), containers(10));
  EXPECT_EQ(r->resourcesAtTime(90010), containers(10));
  EXPECT_EQ(r->resourcesAtTime(90040), containers(0));

  std::vector<ReservationId> archived = p.plan->archiveCompletedReservations(1000000);
  EXPECT_EQ(archived, V{once});
  EXPECT_EQ(p.plan->size(), 2u);
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
}

TEST(PeriodicPlanTest, UpdateBetweenPeriodicAndNonPeriodicKeepsTheIndexes) {
  TestPlan p = smallPlan();
  ReservationId id = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.fixed(id, "u1", 1000, 10, {30, 30})));
  ASSERT_TRUE(p.plan->updateReservation(p.periodic(id, "u1", 1000, 1020, 30, 100)));
  EXPECT_TRUE(p.plan->reservationById(id)->isPeriodic());
  EXPECT_EQ(p.plan->totalCommittedResources(1500), containers(30));
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
  // A refused update (over capacity in a later period) leaves the periodic version in place.
  ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 3000, 10, {70})));
  PlanStatus s = p.plan->updateReservation(p.periodic(id, "u1", 1000, 1020, 40, 100));
  EXPECT_EQ(s.kind(), PlanErrorKind::kResourceOverCommit) << s.toString();
  EXPECT_EQ(p.plan->totalCommittedResources(2500), containers(30));
  ASSERT_TRUE(p.plan->updateReservation(p.fixed(id, "u1", 1000, 10, {30, 30})));
  EXPECT_FALSE(p.plan->hasPeriodicReservations());
  EXPECT_EQ(p.plan->totalCommittedResources(1500), containers(0));
  EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();
}

TEST(PeriodicPlanTest, AgentsPlaceWhereEveryPeriodHasRoom) {
  for (bool aligned : {false, true}) {
    SCOPED_TRACE(aligned ? "AlignedPlannerWithGreedy" : "GreedyReservationAgent");
    TestPlan p = smallPlan();
    // Offsets [0, 40) of the period starting at 2000 are taken.
    ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 2000, 10, {80, 80, 80, 80})));
    std::unique_ptr<ReservationAgent> agent =
        makeReservationAgent(
            aligned ? kAlignedPlannerWithGreedyClass : kGreedyReservationAgentClass,
            AgentSettings{.favorEarlyAllocation = true})
            .value();
    ReservationDefinition def = Def(1000, 1100).stage(containers(1), 50, 50, 10);
    def.recurrenceExpression = "100";
    ReservationId id = p.newId();
    PlanStatus s = agent->createReservation(id, "u1", *p.plan, def);
    ASSERT_TRUE(s) << s.toString();
    const ReservationAllocation* r = p.plan->reservationById(id);
    ASSERT_TRUE(r->isPeriodic());
    EXPECT_EQ(r->periodicity(), 100);
    // Not at offsets [0, 40): the first slot free in every period is [1040, 1050).
    EXPECT_EQ(r->resourcesAtTime(1040), containers(50)) << r->resourcesOverTime().toString();
    EXPECT_EQ(r->resourcesAtTime(2040), containers(50));
    EXPECT_EQ(r->resourcesAtTime(2030), containers(0));
    EXPECT_EQ(r->resourcesAtTime(1030), containers(0));
    // The allocation is kept folded into the period.
    for (const auto& [interval, res] : r->allocationRequests()) {
      EXPECT_GE(interval.start, 0);
      EXPECT_LE(interval.end, 100);
    }
    EXPECT_TRUE(p.plan->checkInvariants().isOk()) << p.plan->checkInvariants().message();

    // No room in some period: refused.
    ASSERT_TRUE(p.plan->addReservation(p.fixed(p.newId(), "u2", 9000, 100, {40})));
    ReservationDefinition big = Def(1000, 1100).stage(containers(1), 60, 60, 100);
    big.recurrenceExpression = "100";
    s = agent->createReservation(p.newId(), "u1", *p.plan, big);
    EXPECT_TRUE(s.isPlanningException()) << s.toString();
  }
}

TEST(PeriodicPlanTest, ReplannerDropsPeriodicReservationsAfterACapacityLoss) {
  TestPlan p = smallPlan();
  ReservationId first = p.newId(), second = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.periodic(first, "u1", 0, 50, 50, 100)));
  p.clock->set(1);
  ASSERT_TRUE(p.plan->addReservation(p.periodic(second, "u1", 0, 50, 50, 100)));
  p.plan->setTotalCapacity(containers(60));
  p.clock->set(5000);
  SimpleCapacityReplanner replanner(/*enforcementWindowMs=*/1000);
  auto dropped = replanner.plan(*p.plan);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(*dropped, std::vector<ReservationId>{second});
}

TEST(PeriodicPlanTest, FollowerGivesTheQueueItsShareInEachWindow) {
  TestPlan p = smallPlan();
  ReservationId id = p.newId();
  ASSERT_TRUE(p.plan->addReservation(p.periodic(id, "u1", 1010, 1040, 25, 100)));
  const std::string queue = id.toString();
  PlanFollowerInput in{.clockNowMs = 0,
                       .clusterResource = containers(100),
                       .planResources = containers(100),
                       .existingQueues = {}};
  for (int64_t period = 0; period < 3; ++period) {
    in.clockNowMs = 1015 + period * 100;
    PlanFollowerStep inside = planFollowerStep(*p.plan, in);
    ASSERT_EQ(inside.entitlements.size(), 1u) << in.clockNowMs;
    EXPECT_EQ(inside.entitlements[0].queue, queue);
    EXPECT_TRUE(inside.entitlements[0].create);  // expired between windows, made again
    EXPECT_FLOAT_EQ(inside.entitlements[0].capacity, 0.25f);
    EXPECT_FLOAT_EQ(inside.defaultQueueCapacity, 0.75f);
    in.existingQueues[queue] = containers(25);

    in.clockNowMs = 1045 + period * 100;
    PlanFollowerStep between = planFollowerStep(*p.plan, in);
    EXPECT_TRUE(between.entitlements.empty());
    EXPECT_EQ(between.expired, std::vector<std::string>{queue});
    EXPECT_FLOAT_EQ(between.defaultQueueCapacity, 1.0f);
    in.existingQueues.erase(queue);
  }
}

}  // namespace
}  // namespace spindle::reservation
