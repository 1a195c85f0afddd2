// Fair Scheduler: where users' groups come from (hadoop.security.group.mapping and the static
// overrides), as the group placement rules see them.
#include <gtest/gtest.h>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

const char* kPrimaryGroupPolicy = R"(<?xml version="1.0"?>
<allocations>
  <queuePlacementPolicy><rule name="primaryGroup"/></queuePlacementPolicy>
</allocations>)";

std::string placedQueue(const Configuration& conf, const std::string& user) {
  SimulatedClock clock;
  Rng rng(1);
  Configuration c = conf;
  c.set("spindle.fair.allocation-xml", kPrimaryGroupPolicy);
  auto fs = FairScheduler::create(c, clock, rng);
  EXPECT_TRUE(fs.isOk()) << fs.status().toString();
  if (!fs.isOk()) return "";
  AppSubmission sub;
  sub.name = "job";
  sub.queue = "default";
  sub.user = user;
  Result<AppId> id = (*fs)->submit(sub);
  EXPECT_TRUE(id.isOk()) << id.status().toString();
  return id.isOk() ? (*fs)->findApp(*id)->queue() : "";
}

TEST(FairGroups, DefaultIsTheUserPrivateGroup) {
  EXPECT_EQ(placedQueue(Configuration(), "alice"), "root.alice");
}

TEST(FairGroups, StaticOverridesWin) {
  Configuration conf;
  conf.set("hadoop.user.group.static.mapping.overrides", "alice=eng,ops;");
  EXPECT_EQ(placedQueue(conf, "alice"), "root.eng");
  EXPECT_EQ(placedQueue(conf, "bob"), "root.bob");
}

TEST(FairGroups, YarnTestMappingByName) {
  Configuration conf;
  conf.set("hadoop.security.group.mapping",
           "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.SimpleGroupsMapping");
  EXPECT_EQ(placedQueue(conf, "u"), "root.ugroup");
}

TEST(FairGroups, MalformedOverridesFailCreation) {
  Configuration conf;
  conf.set("hadoop.user.group.static.mapping.overrides", "alice");
  conf.set("spindle.fair.allocation-xml", kPrimaryGroupPolicy);
  SimulatedClock clock;
  Rng rng(1);
  auto fs = FairScheduler::create(conf, clock, rng);
  ASSERT_FALSE(fs.isOk());
  EXPECT_NE(fs.status().message().find("alice"), std::string::npos) << fs.status().message();
}

}  // namespace
}  // namespace spindle
