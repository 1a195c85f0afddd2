#include "reservation/reservation_input_validator.h"

#include <gtest/gtest.h>

#include <map>

#include "reservation/reservation_settings.h"
#include "reservation/reservation_test_util.h"

namespace spindle::reservation {
namespace {

using testing::containers;
using testing::Def;
using testing::TestPlan;

class ValidatorTest : public ::testing::Test {
 protected:
  ValidatorTest()
      : p(TestPlan::make(containers(100), 1000, std::make_unique<NoOverCommitPolicy>())),
        v(*p.clock,
          [this](std::string_view q) { return q == "dedicated" ? p.plan.get() : nullptr; }) {
    p.clock->set(1000);
  }
  std::string submitError(const ReservationDefinition& d, std::string_view queue = "dedicated") {
    auto r = v.validateSubmission(queue, id, &d);
    return r ? std::string() : r.status().message();
  }
  TestPlan p;
  ReservationInputValidator v;
  ReservationId id = ReservationId::of(1404198295326, 3);
};

TEST_F(ValidatorTest, AcceptsAValidSubmission) {
  auto r = v.validateSubmission("dedicated", id, nullptr);
  EXPECT_FALSE(r);
  ReservationDefinition d = Def(2000, 60000).stage(containers(1), 10, 1, 5000);
  auto ok = v.validateSubmission("dedicated", id, &d);
  ASSERT_TRUE(ok) << ok.status().toString();
  EXPECT_EQ(*ok, p.plan.get());
}

TEST_F(ValidatorTest, NamesTheReservationAndTheField) {
  std::string e = submitError(Def(0, 500).stage(containers(1), 1, 1, 100));
  EXPECT_TRUE(e.starts_with("The specified deadline: 500 is the past.")) << e;
  EXPECT_TRUE(e.ends_with("(reservation reservation_1404198295326_0003, field deadline)")) << e;
}

TEST_F(ValidatorTest, QueueMustBeReservable) {
  ReservationDefinition d = Def(2000, 60000).stage(containers(1), 1, 1, 100);
  EXPECT_TRUE(submitError(d, "").starts_with("The queue is not specified."));
  EXPECT_TRUE(submitError(d, "default")
                  .starts_with("The specified queue: default is not managed by reservation "
                               "system."));
  auto r = v.validateSubmission("dedicated", std::nullopt, &d);
  EXPECT_TRUE(r.status().message().starts_with("Missing reservation id"));
  EXPECT_EQ(r.status().kind(), PlanErrorKind::kYarn);
}

TEST_F(ValidatorTest, DurationsMustFitTheWindowExceptForAny) {
  ReservationDefinition order = Def(2000, 10000)
                                    .interpreter(Interpreter::kOrder)
                                    .stage(containers(1), 1, 1, 5000)
                                    .stage(containers(1), 1, 1, 5000);
  EXPECT_TRUE(
      submitError(order).starts_with("The time difference (8000) between arrival (2000) "
                                     "and deadline (10000) must  be greater or equal to "
                                     "the minimum resource duration (10000)"))
      << submitError(order);
  ReservationDefinition all = order;
  all.interpreter = Interpreter::kAll;
  EXPECT_EQ(submitError(all), "");
  ReservationDefinition any =
      Def(2000, 3000).interpreter(Interpreter::kAny).stage(containers(1), 1, 1, 5000);
  EXPECT_EQ(submitError(any), "");
}

TEST_F(ValidatorTest, LargestGangMustFitThePlan) {
  EXPECT_TRUE(submitError(Def(2000, 60000).stage(containers(1), 101, 101, 1000))
                  .starts_with("The size of the largest gang in the reservation definition"));
  EXPECT_TRUE(submitError(Def(2000, 60000).stage(containers(1), 101, 1, 1000)).empty());
}

TEST_F(ValidatorTest, NoStagesAndBadRecurrence) {
  EXPECT_TRUE(submitError(Def(2000, 60000)).starts_with("No resources have been specified"));
  ReservationDefinition d = Def(2000, 60000).stage(containers(1), 1, 1, 1000);
  d.recurrenceExpression = "abc";
  EXPECT_TRUE(submitError(d).starts_with("Invalid period abc")) << submitError(d);
  d.recurrenceExpression = "-5";
  EXPECT_TRUE(submitError(d).starts_with("Negative Period : -5")) << submitError(d);
  d.recurrenceExpression = "7000000";
  EXPECT_TRUE(submitError(d).starts_with("The maximum periodicity: 86400000 must be divisible"))
      << submitError(d);
  d.recurrenceExpression = "3600000";
  EXPECT_EQ(submitError(d), "");
  d.recurrenceExpression = "10000";
  EXPECT_TRUE(submitError(d).find("must be less than or equal to the periodicity") !=
              std::string::npos);
}

TEST_F(ValidatorTest, UpdateAndDeleteNeedAKnownId) {
  ReservationDefinition d = Def(2000, 60000).stage(containers(1), 1, 1, 1000);
  auto r = v.validateUpdate(id, &d, p.plan.get());
  EXPECT_TRUE(r.status().message().starts_with(
      "The specified reservation with ID: reservation_1404198295326_0003 is unknown."));
  ASSERT_TRUE(p.plan->addReservation(p.fixed(id, "u", 2000, 1000, {1})));
  EXPECT_TRUE(v.validateUpdate(id, &d, p.plan.get()));
  EXPECT_TRUE(v.validateDelete(id, p.plan.get()));
  EXPECT_FALSE(v.validateDelete(std::nullopt, p.plan.get()));
}

TEST(ReservationIdTest, RoundTripsYarnsForm) {
  auto id = ReservationId::parse("reservation_1404198295326_0003");
  ASSERT_TRUE(id);
  EXPECT_EQ(id->sequence, 3);
  EXPECT_EQ(id->toString(), "reservation_1404198295326_0003");
  EXPECT_EQ(ReservationId::of(1, 12345).toString(), "reservation_1_12345");
  EXPECT_FALSE(ReservationId::parse("application_1_0001"));
  EXPECT_FALSE(ReservationId::parse("reservation_x_1"));
}

TEST(InterpreterTest, NamesAndRestIntegers) {
  EXPECT_EQ(parseInterpreter("R_ORDER_NO_GAP").value(), Interpreter::kOrderNoGap);
  EXPECT_EQ(parseInterpreter("0").value(), Interpreter::kAny);
  auto bad = parseInterpreter("R_SOME");
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.status().message().find("R_SOME") != std::string::npos);
  EXPECT_FALSE(interpreterFromInt(4));
}

PropertyLookup props(std::map<std::string, std::string> m) {
  return [m = std::move(m)](std::string_view k) -> std::optional<std::string> {
    auto it = m.find(std::string(k));
    if (it == m.end()) return std::nullopt;
    return it->second;
  };
}

TEST(ReservationSettingsTest, DefaultsAreYarns) {
  auto s = readReservationSystemSettings(props({})).value();
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.planFollowerTimeStepMs, 1000);
  EXPECT_EQ(s.maxPeriodicityMs, 86400000);
  EXPECT_TRUE(s.agent.favorEarlyAllocation);
  EXPECT_EQ(s.agent.smoothnessFactor, 10);
  auto q = readCapacityQueueReservationSettings(props({}), "root.dedicated").value();
  EXPECT_FALSE(q.reservable);
  EXPECT_EQ(q.agentClass, kAlignedPlannerWithGreedyClass);
  EXPECT_EQ(q.policyClass, kCapacityOverTimePolicyClass);
  EXPECT_EQ(q.plannerClass, kSimpleCapacityReplannerClass);
  EXPECT_EQ(q.instantaneousMaxCapacity, 100);
  EXPECT_EQ(q.averageCapacity, 100);
  EXPECT_EQ(q.reservationWindowMs, 86400000);
  EXPECT_EQ(q.enforcementWindowMs, 3600000);
  EXPECT_TRUE(q.moveOnExpiry);
}

TEST(ReservationSettingsTest, ReadsKeysAndRejectsBadValues) {
  auto s = readReservationSystemSettings(
               props({{"yarn.resourcemanager.reservation-system.enable", "true"},
                      {"yarn.resourcemanager.reservation-system.planfollower.time-step", "2s"},
                      {"yarn.resourcemanager.reservation-system.favor-early-allocation", "false"}}))
               .value();
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.planFollowerTimeStepMs, 2000);
  EXPECT_FALSE(s.agent.favorEarlyAllocation);
  auto negative = readReservationSystemSettings(
      props({{"yarn.resourcemanager.reservation-system.planfollower.time-step", "-5"}}));
  EXPECT_EQ(negative->planFollowerTimeStepMs, 1000);
  auto bad = readCapacityQueueReservationSettings(
      props({{"yarn.scheduler.capacity.root.dedicated.reservable", "yes"}}), "root.dedicated");
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.status().message().find("root.dedicated.reservable") != std::string::npos);
}

TEST(ReservationSettingsTest, BuildsAPlanFromClassNames) {
  auto calc = makeDefaultResourceCalculator(ResourceTypes());
  SimulatedClock clock(0);
  ReservationSystemSettings sys;
  ReservableQueueSettings q;
  q.queuePath = "root.dedicated";
  q.policyClass = "NoOverCommitPolicy";
  q.agentClass = kGreedyReservationAgentClass;
  auto rp =
      makeReservationPlan(sys, q, *calc, clock, containers(100), containers(1), containers(8));
  ASSERT_TRUE(rp) << rp.status().toString();
  EXPECT_EQ(rp->plan->queueName(), "dedicated");
  EXPECT_STREQ(rp->plan->sharingPolicy().className(), kNoOverCommitPolicyClass);
  EXPECT_STREQ(rp->agent->className(), kGreedyReservationAgentClass);
  EXPECT_STREQ(rp->replanner->className(), kSimpleCapacityReplannerClass);
  q.policyClass = "FairPolicy";
  EXPECT_FALSE(
      makeReservationPlan(sys, q, *calc, clock, containers(100), containers(1), containers(8)));
}

}  // namespace
}  // namespace spindle::reservation
