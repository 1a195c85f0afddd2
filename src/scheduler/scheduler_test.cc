#include "scheduler/scheduler.h"

#include <gtest/gtest.h>

#include "scheduler/scheduler_factory.h"

namespace spindle {
namespace {

TEST(SchedulerFactory, UnknownSchedulerIsAnErrorListingKnownOnes) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.class", "lottery");
  SimulatedClock clock;
  Rng rng(1);
  auto s = createScheduler(conf, clock, rng);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.status().message().find("known: fifo"), std::string::npos);
}

TEST(SchedulerFactory, FullClassNameSelectsFifo) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.class",
           "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler");
  SimulatedClock clock;
  Rng rng(1);
  auto s = createScheduler(conf, clock, rng);
  ASSERT_TRUE(s.isOk()) << s.status().toString();
  EXPECT_STREQ((*s)->typeName(), "fifoScheduler");
}

TEST(Scheduler, IdsPrintAndParseLikeYarn) {
  Configuration conf;
  conf.set("spindle.cluster.timestamp", "1700000000000");
  SimulatedClock clock;
  Rng rng(1);
  auto s = createScheduler(conf, clock, rng).value();
  ContainerId c{{AppId(3), 1}, 42};
  EXPECT_EQ(s->appIdString(AppId(3)), "application_1700000000000_0003");
  EXPECT_EQ(s->containerIdString(c), "container_1700000000000_0003_01_000042");
  EXPECT_EQ(s->parseContainerId("container_1700000000000_0003_01_000042").value(), c);
  EXPECT_EQ(s->parseContainerId("container_e17_1700000000000_0003_01_000042").value(), c);
  EXPECT_FALSE(s->parseContainerId("container_1_x_01_2").isOk());
}

}  // namespace
}  // namespace spindle
