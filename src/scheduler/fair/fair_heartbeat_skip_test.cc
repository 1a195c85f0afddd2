// FairScheduler's answers to the heartbeat-skip contract (scheduler.h, docs/simulator.md):
// hasPendingDemand() and emptyHeartbeatIsNoop(node) from incremental aggregates, and a
// randomised check that a heartbeat the scheduler calls a no-op records nothing and changes
// no allocation, reservation or share.
#include <gtest/gtest.h>

#include "base/rng.h"
#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

TEST(FairHeartbeatSkip, NoDemandOnceUpdatedAndNothingPending) {
  Fs fs(allocationXml(R"(<queue name="a"/>)"));
  fs.node("h1", "/r1", 8192).node("h2", "/r1", 8192);
  const NodeId h1 = *fs.sched().cluster().findNode("h1");
  // No update pass has run yet: the first heartbeat runs it, so it is not a no-op.
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  EXPECT_FALSE(fs.sched().emptyHeartbeatIsNoop(h1));
  fs.heartbeat("h1");
  EXPECT_FALSE(fs.sched().hasPendingDemand());
  EXPECT_TRUE(fs.sched().emptyHeartbeatIsNoop(h1));

  const AppId a = fs.app("root.a");
  EXPECT_FALSE(fs.sched().hasPendingDemand()) << "an app without asks is no demand";
  fs.ask(a, 1, "*", 1024, 1, 2);
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  EXPECT_FALSE(fs.sched().emptyHeartbeatIsNoop(h1));
  fs.heartbeat("h1");  // one container per heartbeat (assignmultiple off)
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(a), 2);
  EXPECT_FALSE(fs.sched().hasPendingDemand()) << "the asks are all served";
  EXPECT_TRUE(fs.sched().emptyHeartbeatIsNoop(h1));

  // An ask withdrawn by the AM (count 0) leaves nothing pending either.
  fs.ask(a, 2, "*", 1024, 1, 3);
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  fs.ask(a, 2, "*", 1024, 1, 0);
  EXPECT_FALSE(fs.sched().hasPendingDemand());

  // A removed app with pending asks stops counting.
  const AppId b = fs.app("root.a");
  fs.ask(b, 1, "*", 1024, 1, 5);
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  fs.remove(b);
  EXPECT_FALSE(fs.sched().hasPendingDemand());
}

TEST(FairHeartbeatSkip, LazyUpdateDueIsDemand) {
  Fs fs(allocationXml(R"(<queue name="a"/>)"), {{"yarn.scheduler.fair.update-interval-ms", "500"}});
  fs.node("h1", "/r1", 8192);
  const NodeId h1 = *fs.sched().cluster().findNode("h1");
  fs.heartbeat("h1");
  EXPECT_TRUE(fs.sched().emptyHeartbeatIsNoop(h1));
  fs.clock().advanceMs(499);
  EXPECT_FALSE(fs.sched().hasPendingDemand());
  fs.clock().advanceMs(1);
  // Without a MonitorTick the next heartbeat runs the update pass.
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  EXPECT_FALSE(fs.sched().emptyHeartbeatIsNoop(h1));
  fs.tick();
  EXPECT_FALSE(fs.sched().hasPendingDemand());
}

TEST(FairHeartbeatSkip, ReservationWithoutAsksIsServedOnItsNodeOnly) {
  Fs fs(allocationXml(R"(<queue name="a"/><queue name="b"/>)"));
  fs.node("h1", "/r1", 4096).node("h2", "/r1", 4096);
  const NodeId h1 = *fs.sched().cluster().findNode("h1");
  const NodeId h2 = *fs.sched().cluster().findNode("h2");
  const AppId a = fs.app("root.a");
  fs.ask(a, 1, "*", 3072, 1, 2);
  fs.heartbeat("h1");
  fs.heartbeat("h2");
  EXPECT_EQ(fs.allocations(a), 2);
  // b is starved (usage 0 < fair share) and its 2 GB ask fits on neither node: h1 is reserved.
  const AppId b = fs.app("root.b");
  fs.ask(b, 1, "*", 2048, 1, 1);
  fs.tick();  // the update pass gives b its fair share
  fs.heartbeat("h1");
  ASSERT_TRUE(fs.sched().cluster().node(h1).reservation().has_value());
  // The AM withdraws the ask: nothing is pending, but h1's heartbeat would drop the reservation.
  fs.ask(b, 1, "*", 2048, 1, 0);
  EXPECT_TRUE(fs.sched().hasPendingDemand());
  EXPECT_FALSE(fs.sched().emptyHeartbeatIsNoop(h1));
  EXPECT_TRUE(fs.sched().emptyHeartbeatIsNoop(h2));
  fs.heartbeat("h1");
  EXPECT_FALSE(fs.sched().cluster().node(h1).reservation().has_value());
  EXPECT_FALSE(fs.sched().hasPendingDemand());
}

// Random asks, releases, removals, ticks and clock moves on a small cluster; every heartbeat the
// scheduler calls a no-op must record no decision and leave allocations, reservations, usage and
// fair shares as they were; and without pending demand every node's heartbeat is a no-op.
TEST(FairHeartbeatSkip, NoopHeartbeatsChangeNothingRandomised) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Fs fs(allocationXml(R"(<queue name="a"><weight>2</weight></queue><queue name="b"/>
                           <queue name="c"><maxRunningApps>1</maxRunningApps></queue>)"),
          {{"yarn.scheduler.fair.assignmultiple", seed % 2 ? "true" : "false"},
           {"yarn.scheduler.fair.preemption", seed % 3 ? "false" : "true"},
           {"yarn.scheduler.fair.locality.threshold.node", "0.5"}});
    const std::vector<std::string> hosts = {"h1", "h2", "h3", "h4"};
    for (size_t i = 0; i < hosts.size(); ++i) {
      fs.node(hosts[i], i < 2 ? "/r1" : "/r2", 4096, 4);
    }
    Rng rng(seed);
    std::vector<AppId> apps;
    int noops = 0;
    for (int step = 0; step < 300; ++step) {
      const int op = static_cast<int>(rng.uniformInt(0, 9));
      if (op == 0 && apps.size() < 6) {
        const char* queues[] = {"root.a", "root.b", "root.c"};
        apps.push_back(fs.app(queues[rng.uniformInt(0, 2)], "u", rng.uniformInt(0, 1) * 1024));
      } else if (op == 1 && !apps.empty()) {
        const AppId a = apps[rng.uniformInt(0, static_cast<int64_t>(apps.size()) - 1)];
        const int64_t mb = 1024 * rng.uniformInt(1, 3);
        const int count = static_cast<int>(rng.uniformInt(0, 4));
        if (rng.uniformInt(0, 1)) {
          const size_t h = static_cast<size_t>(rng.uniformInt(0, 3));
          fs.askOnHost(a, 2, hosts[h], h < 2 ? "/r1" : "/r2", mb, count);
        } else {
          fs.ask(a, 2, "*", mb, 1, count);
        }
      } else if (op == 2 && !apps.empty() && rng.uniformInt(0, 3) == 0) {
        const size_t i =
            static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(apps.size()) - 1));
        fs.remove(apps[i]);
        apps.erase(apps.begin() + static_cast<std::ptrdiff_t>(i));
      } else if (op == 3) {
        fs.clock().advanceMs(rng.uniformInt(0, 700));
      } else if (op == 4) {
        fs.tick();
      } else if (op == 5 && !apps.empty()) {
        // Release a random live container of a random app.
        const AppId a = apps[rng.uniformInt(0, static_cast<int64_t>(apps.size()) - 1)];
        const auto& live = fs.sched().findApp(a)->liveContainers();
        if (!live.empty()) fs.release(a, *live.begin());
      } else {
        const std::string& h = hosts[rng.uniformInt(0, 3)];
        const NodeId n = *fs.sched().cluster().findNode(h);
        const bool noop = fs.sched().emptyHeartbeatIsNoop(n);
        if (!fs.sched().hasPendingDemand()) {
          for (const std::string& other : hosts) {
            EXPECT_TRUE(fs.sched().emptyHeartbeatIsNoop(*fs.sched().cluster().findNode(other)))
                << "seed " << seed << " step " << step;
          }
        }
        const size_t decisions = fs.log().decisions().size();
        const Resource allocated = fs.sched().cluster().allocated();
        const Resource reserved = fs.sched().cluster().reserved();
        const int64_t fairA = fs.fairMb("root.a");
        const int64_t usageB = fs.queue("root.b").usage.memoryMb();
        fs.heartbeat(h);
        if (noop) {
          ++noops;
          EXPECT_EQ(fs.log().decisions().size(), decisions) << "seed " << seed << " step " << step;
          EXPECT_EQ(fs.sched().cluster().allocated(), allocated);
          EXPECT_EQ(fs.sched().cluster().reserved(), reserved);
          EXPECT_EQ(fs.fairMb("root.a"), fairA);
          EXPECT_EQ(fs.queue("root.b").usage.memoryMb(), usageB);
        }
      }
    }
    EXPECT_GT(noops, 0) << "seed " << seed << ": the check never ran";
  }
}

}  // namespace
}  // namespace spindle
