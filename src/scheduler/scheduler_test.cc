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

// checkInvariants recomputes the base's caches and names the one that is wrong. The scheduler's
// own records are corrupted directly (const_cast: there is no other way to break them).
class CorruptedCore : public ::testing::Test {
 protected:
  void SetUp() override {
    sched_ = createScheduler(Configuration(), clock_, rng_).value();
    ASSERT_TRUE(sched_->handle(NodeAdded{"h1", "/r1", Resource::of(8192, 8), {}, {}}).isOk());
    AppSubmission sub;
    sub.amResource = Resource::of(1024, 1);
    app_ = sched_->submit(sub).value();
    ASSERT_TRUE(sched_->handle(NodeHeartbeat{"h1", {}}).isOk());
    ASSERT_EQ(sched_->containers().size(), 1u);
    ASSERT_TRUE(sched_->checkInvariants().isOk()) << sched_->checkInvariants().message();
  }
  Application& app() { return const_cast<Application&>(*sched_->findApp(app_)); }
  void expectCaught(const std::string& what) {
    Status s = sched_->checkInvariants();
    EXPECT_FALSE(s.isOk());
    EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
  }

  SimulatedClock clock_;
  Rng rng_{1};
  std::unique_ptr<Scheduler> sched_;
  AppId app_;
};

TEST_F(CorruptedCore, ReservedWithoutANodeReservation) {
  app().addReserved(Resource::of(1024, 1));
  expectCaught("reserved <memory:1024, vCores:1> != its node reservations");
}

TEST_F(CorruptedCore, ContainerMissingFromItsAppsIndex) {
  const auto& [id, c] = *sched_->containers().begin();
  app().removeContainer(id, c.resource, c.isAm);
  expectCaught("does not lead to its ContainerTable record");
}

}  // namespace
}  // namespace spindle
