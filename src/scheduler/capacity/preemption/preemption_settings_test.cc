#include "scheduler/capacity/preemption/preemption_settings.h"

#include <gtest/gtest.h>

namespace spindle::preemption {
namespace {

std::string key(std::string_view suffix) {
  return std::string(kPreemptionPrefix) + std::string(suffix);
}

TEST(PreemptionSettings, DefaultsAreYarns) {
  Configuration conf;
  auto s = parsePreemptionSettings(conf);
  ASSERT_TRUE(s.isOk()) << s.status().message();
  EXPECT_FALSE(s->monitorEnabled);
  EXPECT_FALSE(s->observeOnly);
  EXPECT_EQ(s->monitoringIntervalMs, 3000);
  EXPECT_EQ(s->maxWaitBeforeKillMs, 15000);
  EXPECT_DOUBLE_EQ(s->totalPreemptionPerRound, 0.1);
  EXPECT_DOUBLE_EQ(s->maxIgnoredOverCapacity, 0.1);
  EXPECT_DOUBLE_EQ(s->naturalTerminationFactor, 0.2);
  EXPECT_FALSE(s->selectBasedOnReservedContainers);
  EXPECT_FALSE(s->additionalResBalanceBasedOnReservedContainers);
  EXPECT_FALSE(s->crossQueueConservativeDrf);
  EXPECT_FALSE(s->preemptToBalanceEnabled);
  EXPECT_EQ(s->preemptToBalanceMaxWaitBeforeKillMs, 300000);
  EXPECT_FALSE(s->intraQueueEnabled);
  EXPECT_DOUBLE_EQ(s->intraQueueMinimumThreshold, 0.5);
  EXPECT_DOUBLE_EQ(s->intraQueueMaxAllowableLimit, 0.2);
  EXPECT_EQ(s->intraQueueOrderPolicy, IntraQueueOrderPolicy::kUserLimitFirst);
  EXPECT_TRUE(s->intraQueueConservativeDrf);
  EXPECT_FALSE(s->lazyPreemptionEnabled);
  EXPECT_FALSE(s->underutilizedPreemptionEnabled);
  EXPECT_EQ(s->underutilizedReservedContainerDelayMs, 60000);
  EXPECT_FALSE(s->underutilizedAllowMoveReservation);
}

TEST(PreemptionSettings, ReadsEveryKey) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.monitor.enable", "true");
  conf.set(key("observe_only"), "true");
  conf.set(key("monitoring_interval"), "1000");
  conf.set(key("max_wait_before_kill"), "5000");
  conf.set(key("total_preemption_per_round"), "0.5");
  conf.set(key("max_ignored_over_capacity"), "0.2");
  conf.set(key("natural_termination_factor"), "1.0");
  conf.set(key("select_based_on_reserved_containers"), "true");
  conf.set(key("additional_res_balance_based_on_reserved_containers"), "true");
  conf.set(key("conservative-drf"), "true");
  conf.set(key("preemption-to-balance-queue-after-satisfied.enabled"), "true");
  conf.set(key("preemption-to-balance-queue-after-satisfied.max-wait-before-kill"), "60000");
  conf.set(key("intra-queue-preemption.enabled"), "true");
  conf.set(key("intra-queue-preemption.minimum-threshold"), "0.3");
  conf.set(key("intra-queue-preemption.max-allowable-limit"), "0.5");
  conf.set(key("intra-queue-preemption.preemption-order-policy"), "priority_first");
  conf.set(key("intra-queue-preemption.conservative-drf"), "false");
  conf.set("yarn.scheduler.capacity.lazy-preemption-enabled", "true");
  const std::string under =
      "yarn.scheduler.capacity.ordering-policy.priority-utilization.underutilized-preemption.";
  conf.set(under + "enabled", "true");
  conf.set(under + "reserved-container-delay-ms", "100");
  conf.set(under + "allow-move-reservation", "true");
  auto s = parsePreemptionSettings(conf);
  ASSERT_TRUE(s.isOk()) << s.status().message();
  EXPECT_TRUE(s->monitorEnabled);
  EXPECT_TRUE(s->observeOnly);
  EXPECT_EQ(s->monitoringIntervalMs, 1000);
  EXPECT_EQ(s->maxWaitBeforeKillMs, 5000);
  EXPECT_DOUBLE_EQ(s->totalPreemptionPerRound, 0.5);
  EXPECT_DOUBLE_EQ(s->maxIgnoredOverCapacity, 0.2);
  EXPECT_DOUBLE_EQ(s->naturalTerminationFactor, 1.0);
  EXPECT_TRUE(s->selectBasedOnReservedContainers);
  EXPECT_TRUE(s->additionalResBalanceBasedOnReservedContainers);
  EXPECT_TRUE(s->crossQueueConservativeDrf);
  EXPECT_TRUE(s->preemptToBalanceEnabled);
  EXPECT_EQ(s->preemptToBalanceMaxWaitBeforeKillMs, 60000);
  EXPECT_TRUE(s->intraQueueEnabled);
  EXPECT_DOUBLE_EQ(s->intraQueueMinimumThreshold, 0.3);
  EXPECT_DOUBLE_EQ(s->intraQueueMaxAllowableLimit, 0.5);
  EXPECT_EQ(s->intraQueueOrderPolicy, IntraQueueOrderPolicy::kPriorityFirst);
  EXPECT_FALSE(s->intraQueueConservativeDrf);
  EXPECT_TRUE(s->lazyPreemptionEnabled);
  EXPECT_TRUE(s->underutilizedPreemptionEnabled);
  EXPECT_EQ(s->underutilizedReservedContainerDelayMs, 100);
  EXPECT_TRUE(s->underutilizedAllowMoveReservation);
}

TEST(PreemptionSettings, ErrorsNameKeyAndValue) {
  struct Case {
    std::string key, value;
  };
  const std::vector<Case> cases = {
      {key("total_preemption_per_round"), "1.5"},
      {key("natural_termination_factor"), "-0.1"},
      {key("max_wait_before_kill"), "-1"},
      {key("monitoring_interval"), "soon"},
      {key("observe_only"), "ture"},
      {key("intra-queue-preemption.preemption-order-policy"), "fair_first"},
  };
  for (const Case& c : cases) {
    Configuration conf;
    conf.set(c.key, c.value);
    auto s = parsePreemptionSettings(conf);
    ASSERT_FALSE(s.isOk()) << c.key;
    EXPECT_NE(s.status().message().find(c.key), std::string::npos) << s.status().message();
    EXPECT_NE(s.status().message().find(c.value), std::string::npos) << s.status().message();
  }
}

}  // namespace
}  // namespace spindle::preemption
