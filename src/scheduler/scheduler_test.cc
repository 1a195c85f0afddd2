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

// Every yarn-site key the core reads is parsed when the scheduler is created: a malformed value
// fails creation, naming the key and why, whichever scheduler is configured.
TEST(SchedulerSettings, MalformedKeysAreRefusedAtCreationNamingTheKey) {
  struct Bad {
    const char* key;
    const char* value;
    const char* reason;
  };
  const Bad bad[] = {
      {"yarn.resourcemanager.am.max-attempts", "two", "expected an integer, got 'two'"},
      {"yarn.resourcemanager.am.max-attempts", "0", "must be a positive integer, got 0"},
      {"yarn.acl.enable", "yes", "expected true or false, got 'yes'"},
      {"yarn.cluster.max-application-priority", "high", "expected an integer, got 'high'"},
      {"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "1s",
       "expected an integer, got '1s'"},
      {"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "-5",
       "must be larger than 0, got -5"},
  };
  for (const char* scheduler : {"fifo", "capacity", "fair"}) {
    for (const Bad& b : bad) {
      Configuration conf;
      conf.set("yarn.resourcemanager.scheduler.class", scheduler);
      conf.set(b.key, b.value, {"yarn-site.xml", 7});
      SimulatedClock clock;
      Rng rng(1);
      auto s = createScheduler(conf, clock, rng);
      ASSERT_FALSE(s.isOk()) << scheduler << " " << b.key << "=" << b.value;
      const std::string& message = s.status().message();
      EXPECT_NE(message.find(std::string("yarn-site.xml:7: property '") + b.key + "'"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find(b.reason), std::string::npos) << message;
    }
  }
}

TEST(SchedulerSettings, ValidKeysAreTyped) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.class", "fifo");
  conf.set("yarn.resourcemanager.am.max-attempts", "4");
  conf.set("yarn.acl.enable", "TRUE");
  conf.set("yarn.cluster.max-application-priority", "10");
  conf.set("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250");
  SimulatedClock clock;
  Rng rng(1);
  auto s = createScheduler(conf, clock, rng).value();
  EXPECT_EQ(s->settings().maxAppAttempts, 4);
  EXPECT_TRUE(s->settings().aclEnabled);
  EXPECT_EQ(s->settings().maxApplicationPriority, 10);
  EXPECT_EQ(s->settings().nmHeartbeatIntervalMs, 250);
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
  // The epoch lives in the id's upper bits, as YARN's ContainerId.getContainerId() (epoch << 40).
  const ContainerId withEpoch{{AppId(3), 1}, (uint64_t{17} << 40) | 42};
  EXPECT_EQ(s->parseContainerId("container_e17_1700000000000_0003_01_000042").value(), withEpoch);
  EXPECT_EQ(s->containerIdString(withEpoch), "container_e17_1700000000000_0003_01_000042");
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
