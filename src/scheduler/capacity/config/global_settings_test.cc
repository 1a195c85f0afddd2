#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/config/test_builder.h"

namespace spindle {
namespace {

using testing::CsConf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using testing::parseError;
using testing::parseOk;

CsConf base() {
  return std::move(CsConf()
                       .queues("root", "default,eng")
                       .cap("root.default", "50")
                       .cap("root.eng", "50")
                       .queues("root.eng", "dev")
                       .cap("root.eng.dev", "100"));
}

TEST(GlobalSettings, DefaultsMatchCapacitySchedulerConfiguration) {
  CapacityConfig cfg = parseOk(base());
  EXPECT_EQ(cfg.resourceCalculator,
            "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator");
  EXPECT_EQ(cfg.nodeLocalityDelay, 40);
  EXPECT_EQ(cfg.rackLocalityAdditionalDelay, -1);
  EXPECT_TRUE(cfg.rackLocalityFullReset);
  EXPECT_TRUE(cfg.multipleAssignmentsEnabled);
  EXPECT_EQ(cfg.maximumContainerAssignments, 100);
  EXPECT_EQ(cfg.maximumOffswitchAssignments, 1);
  EXPECT_TRUE(cfg.reservationsContinueLookAllNodes);
  EXPECT_FALSE(cfg.scheduleAsynchronously);
  EXPECT_EQ(cfg.asyncMaximumThreads, 1);
  EXPECT_EQ(cfg.asyncMaximumPendingBacklogs, 100);
  EXPECT_EQ(cfg.maximumApplications, 10000);
  EXPECT_EQ(cfg.globalQueueMaxApplication, -1);
  EXPECT_FLOAT_EQ(cfg.maximumAmResourcePercent, 0.1f);
  EXPECT_TRUE(cfg.queueMappings.empty());
  EXPECT_FALSE(cfg.queueMappingsOverride);
  EXPECT_EQ(cfg.userMaxParallelApps, INT32_MAX);
  EXPECT_EQ(cfg.clusterMaxApplicationPriority, 0);
}

TEST(GlobalSettings, ExplicitValuesAreRead) {
  CapacityConfig cfg =
      parseOk(base()
                  .set("resource-calculator",
                       "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator")
                  .set("node-locality-delay", "-1")
                  .set("rack-locality-additional-delay", "5")
                  .set("rack-locality-full-reset", "false")
                  .set("per-node-heartbeat.multiple-assignments-enabled", "false")
                  .set("per-node-heartbeat.maximum-container-assignments", "-1")
                  .set("per-node-heartbeat.maximum-offswitch-assignments", "4")
                  .set("reservations-continue-look-all-nodes", "false")
                  .set("schedule-asynchronously.enable", "true")
                  .set("schedule-asynchronously.maximum-threads", "3")
                  .set("schedule-asynchronously.maximum-pending-backlogs", "7")
                  .set("queue-mappings-override.enable", "true")
                  .set("user.max-parallel-apps", "4")
                  .set("user.jane.doe.max-parallel-apps", "1"));
  EXPECT_EQ(cfg.resourceCalculator,
            "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
  EXPECT_EQ(cfg.nodeLocalityDelay, -1);
  EXPECT_EQ(cfg.rackLocalityAdditionalDelay, 5);
  EXPECT_FALSE(cfg.rackLocalityFullReset);
  EXPECT_FALSE(cfg.multipleAssignmentsEnabled);
  EXPECT_EQ(cfg.maximumContainerAssignments, -1);
  EXPECT_EQ(cfg.maximumOffswitchAssignments, 4);
  EXPECT_FALSE(cfg.reservationsContinueLookAllNodes);
  EXPECT_TRUE(cfg.scheduleAsynchronously);
  EXPECT_EQ(cfg.asyncMaximumThreads, 3);
  EXPECT_EQ(cfg.asyncMaximumPendingBacklogs, 7);
  EXPECT_TRUE(cfg.queueMappingsOverride);
  EXPECT_EQ(cfg.userMaxParallelApps, 4);
  EXPECT_THAT(cfg.perUserMaxParallelApps, ElementsAre(Pair("jane.doe", 1)));
}

TEST(GlobalSettings, SimpleCalculatorNameIsAcceptedAndUnknownRejected) {
  EXPECT_EQ(
      parseOk(base().set("resource-calculator", "DominantResourceCalculator")).resourceCalculator,
      "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
  std::string error = parseError(base().set("resource-calculator", "FairCalculator"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.resource-calculator': unknown resource "
                               "calculator 'FairCalculator'"));
}

TEST(GlobalSettings, OffswitchLimitBelowOneIsRaisedWithAWarning) {
  CapacityConfig cfg = parseOk(base().set("per-node-heartbeat.maximum-offswitch-assignments", "0"));
  EXPECT_EQ(cfg.maximumOffswitchAssignments, 1);
  ASSERT_EQ(cfg.warnings.size(), 1u);
  EXPECT_THAT(cfg.warnings[0], HasSubstr("maximum-offswitch-assignments(0) < 1. Using 1."));
}

TEST(GlobalSettings, QueueMappingsParseUserAndGroupForms) {
  CapacityConfig cfg =
      parseOk(base().set("queue-mappings",
                         "u:alice:dev, g:staff:root.default, u:%user:%primary_group,"
                         "u:%user:root.eng.%user, g:ops:%secondary_group"));
  ASSERT_EQ(cfg.queueMappings.size(), 5u);
  const QueueMapping& alice = cfg.queueMappings[0];
  EXPECT_EQ(alice.kind, MappingKind::kUser);
  EXPECT_EQ(alice.source, "alice");
  EXPECT_EQ(alice.queue, "dev");
  EXPECT_EQ(alice.leafQueue, "dev");
  EXPECT_EQ(alice.parentQueue, "");
  EXPECT_EQ(cfg.queueMappings[1].kind, MappingKind::kGroup);
  EXPECT_EQ(cfg.queueMappings[1].parentQueue, "root");
  EXPECT_EQ(cfg.queueMappings[2].source, "%user");
  EXPECT_EQ(cfg.queueMappings[2].queue, "%primary_group");
  EXPECT_EQ(cfg.queueMappings[3].parentQueue, "root.eng");
  EXPECT_EQ(cfg.queueMappings[3].leafQueue, "%user");
}

TEST(GlobalSettings, IllegalQueueMappingsNameTheEntry) {
  std::string error = parseError(
      base().set("queue-mappings", "u:alice, x:bob:dev, u::dev, u:carol:eng, u:dan:nosuch"));
  EXPECT_THAT(error, HasSubstr("queue-mappings': Illegal queue mapping u:alice"));
  EXPECT_THAT(error, HasSubstr("Illegal queue mapping x:bob:dev (unknown mapping prefix x"));
  EXPECT_THAT(error, HasSubstr("Illegal queue mapping u::dev"));
  EXPECT_THAT(error, HasSubstr("mapping contains invalid or non-leaf queue eng (entry "
                               "'u:carol:eng'): it is a parent queue"));
  EXPECT_THAT(error, HasSubstr("mapping contains invalid or non-leaf queue nosuch"));
}

TEST(GlobalSettings, AppNameMappingsHaveTwoFields) {
  CapacityConfig cfg = parseOk(base().raw("yarn.scheduler.queue-placement-rules.app-name",
                                          "etl:dev,%application:%application"));
  EXPECT_THAT(cfg.appNameMappings,
              ElementsAre(Pair("etl", "dev"), Pair("%application", "%application")));
  std::string error =
      parseError(base().raw("yarn.scheduler.queue-placement-rules.app-name", "etl:root:dev"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.queue-placement-rules.app-name': Illegal queue "
                               "mapping etl:root:dev"));
}

TEST(GlobalSettings, BadNumbersAreErrors) {
  std::string error = parseError(base()
                                     .set("maximum-applications", "-1")
                                     .set("node-locality-delay", "forty")
                                     .set("maximum-am-resource-percent", "1.5"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.maximum-applications': must be >= 0"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.node-locality-delay'"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.maximum-am-resource-percent': is a "
                               "fraction in [0, 1]"));
}

}  // namespace
}  // namespace spindle
