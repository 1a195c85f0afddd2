// yarn.scheduler.fair.* keys (FairSchedulerConfiguration) and, for vector CFG-5, the Fair
// Scheduler's allocation increment (resource_config with fairIncrements).
#include "scheduler/fair/config/fair_site_config.h"

#include <gtest/gtest.h>

#include "resource/resource_calculator.h"
#include "resource/resource_config.h"

namespace spindle::fair {
namespace {

TEST(FairSiteConfigTest, Defaults) {
  auto s = parseFairSiteConfig(Configuration());
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->allocationFile, "fair-scheduler.xml");
  EXPECT_FALSE(s->allocationFileSet);
  EXPECT_EQ(s->allocationReloadIntervalMs, 10000);
  EXPECT_TRUE(s->userAsDefaultQueue);
  EXPECT_TRUE(s->allowUndeclaredPools);
  EXPECT_FALSE(s->preemption);
  EXPECT_FLOAT_EQ(s->preemptionUtilizationThreshold, 0.8f);
  EXPECT_FALSE(s->sizeBasedWeight);
  EXPECT_FALSE(s->assignMultiple);
  EXPECT_TRUE(s->dynamicMaxAssign);
  EXPECT_EQ(s->maxAssign, -1);
  EXPECT_FLOAT_EQ(s->localityThresholdNode, -1.0f);
  EXPECT_FLOAT_EQ(s->localityThresholdRack, -1.0f);
  EXPECT_FALSE(s->continuousSchedulingEnabled);
  EXPECT_EQ(s->continuousSchedulingSleepMs, 5);
  EXPECT_EQ(s->localityDelayNodeMs, -1);
  EXPECT_EQ(s->localityDelayRackMs, -1);
  EXPECT_EQ(s->updateIntervalMs, 500);
  EXPECT_EQ(s->waitTimeBeforeKillMs, 15000);
  EXPECT_EQ(s->waitTimeBeforeNextStarvationCheckMs, 10000);
  EXPECT_EQ(s->preemptionIntervalMs, 5000);
  EXPECT_TRUE(s->amPreemption);
  EXPECT_FLOAT_EQ(s->reservableNodes, 0.05f);
  EXPECT_FLOAT_EQ(s->reservationThresholdIncrementMultiple, 2.0f);
  EXPECT_FALSE(s->eventLogEnabled);
}

TEST(FairSiteConfigTest, Overrides) {
  Configuration conf;
  conf.set("yarn.scheduler.fair.allocation.file", "/etc/fs.xml");
  conf.set("yarn.scheduler.fair.preemption", "true");
  conf.set("yarn.scheduler.fair.preemption.cluster-utilization-threshold", "0");
  conf.set("yarn.scheduler.fair.assignmultiple", "TRUE");
  conf.set("yarn.scheduler.fair.max.assign", "3");
  conf.set("yarn.scheduler.fair.locality.threshold.node", "0.5");
  conf.set("yarn.scheduler.fair.locality.threshold.rack", "0.6");
  conf.set("yarn.scheduler.fair.locality-delay-node-ms", "5000");
  conf.set("yarn.scheduler.fair.user-as-default-queue", "false");
  conf.set("yarn.scheduler.fair.update-interval-ms", "-7");
  auto s = parseFairSiteConfig(conf);
  ASSERT_TRUE(s.isOk());
  EXPECT_EQ(s->allocationFile, "/etc/fs.xml");
  EXPECT_TRUE(s->allocationFileSet);
  EXPECT_TRUE(s->preemption);
  EXPECT_FLOAT_EQ(s->preemptionUtilizationThreshold, 0.0f);
  EXPECT_TRUE(s->assignMultiple);
  EXPECT_EQ(s->maxAssign, 3);
  EXPECT_FLOAT_EQ(s->localityThresholdNode, 0.5f);
  EXPECT_FLOAT_EQ(s->localityThresholdRack, 0.6f);
  EXPECT_EQ(s->localityDelayNodeMs, 5000);
  EXPECT_FALSE(s->userAsDefaultQueue);
  EXPECT_EQ(s->updateIntervalMs, 500);
  ASSERT_EQ(s->warnings.size(), 1u);
  EXPECT_NE(s->warnings[0].find("-7 is invalid"), std::string::npos);
}

TEST(FairSiteConfigTest, AllMalformedKeysAreReported) {
  auto conf = Configuration::parseString(R"(<configuration>
<property><name>yarn.scheduler.fair.preemption</name><value>yes</value></property>
<property><name>yarn.scheduler.fair.max.assign</name><value>many</value></property>
</configuration>)",
                                         "yarn-site.xml");
  ASSERT_TRUE(conf.isOk());
  auto s = parseFairSiteConfig(*conf);
  ASSERT_FALSE(s.isOk());
  const std::string& m = s.status().message();
  EXPECT_NE(m.find("yarn-site.xml:2"), std::string::npos) << m;
  EXPECT_NE(m.find("yarn.scheduler.fair.preemption"), std::string::npos) << m;
  EXPECT_NE(m.find("yarn-site.xml:3"), std::string::npos) << m;
  EXPECT_NE(m.find("yarn.scheduler.fair.max.assign"), std::string::npos) << m;
}

TEST(FairSiteConfigTest, CFG5_AllocationIncrementRoundsUp) {
  Configuration conf;
  conf.set("yarn.resource-types.memory-mb.increment-allocation", "256");
  conf.set("yarn.scheduler.minimum-allocation-mb", "0");
  conf.set("yarn.scheduler.minimum-allocation-vcores", "0");
  ResourceTypes types;
  auto bounds = allocationBoundsFromConfig(conf, types, /*fairIncrements=*/true);
  ASSERT_TRUE(bounds.isOk()) << bounds.status().message();
  auto rc = makeDominantResourceCalculator(types);
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(769, 1), *bounds).memoryMb(), 1024);
  EXPECT_EQ(normalizeRequest(*rc, Resource::of(1023, 1), *bounds).memoryMb(), 1024);
}

}  // namespace
}  // namespace spindle::fair
