// Fair Scheduler: fair shares observed through the scheduler (vectors FS-3, FS-5, FS-10, FSS-1..3),
// maxRunningApps (MRA-1, MRA-2, MRA-4), queue placement at submit, ACLs and reload.
#include "scheduler/fair/fair_scheduler.h"

#include <gtest/gtest.h>

#include "scheduler/fair/fs_test_fixture.h"
#include "scheduler/scheduler_factory.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

TEST(FairScheduler, FactoryCreatesItByShortAndClassName) {
  for (const char* name :
       {"fair", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler"}) {
    Configuration conf;
    conf.set("yarn.resourcemanager.scheduler.class", name);
    conf.set("yarn.scheduler.fair.allocation.file", "/nonexistent/fair-scheduler.xml");
    SimulatedClock clock;
    Rng rng(1);
    auto s = createScheduler(conf, clock, rng);
    ASSERT_FALSE(s.isOk()) << "a named allocation file must exist";
    Configuration plain;
    plain.set("yarn.resourcemanager.scheduler.class", name);
    auto ok = createScheduler(plain, clock, rng);
    ASSERT_TRUE(ok.isOk()) << ok.status().toString();
    EXPECT_STREQ((*ok)->typeName(), "fairScheduler");
  }
}

// FS-10 testSimpleHierarchicalFairShareCalculation: root splits 1:1 between parent and
// default, parent splits 1:1 again.
TEST(FairScheduler, HierarchicalFairShares) {
  Fs fs(allocationXml(
      R"(<queue name="parent"><queue name="queue2"/><queue name="queue3"/></queue>)"));
  fs.node("h1", "/r1", 240, 8);
  for (const char* q : {"root.parent.queue2", "root.parent.queue3", "root.default"}) {
    fs.ask(fs.app(q), 1, "*", 1024, 1, 10);  // 10240 MB of demand each
  }
  fs.tick();
  EXPECT_EQ(fs.fairMb("root.default"), 120);
  EXPECT_EQ(fs.fairMb("root.parent.queue2"), 60);
  EXPECT_EQ(fs.fairMb("root.parent.queue3"), 60);
  EXPECT_EQ(fs.steadyMb("root.default"), 120);
  EXPECT_EQ(fs.steadyMb("root.parent.queue2"), 60);
}

// FS-3 testFairShareWithLowMaxResources: max share caps both the fair share and allocation.
TEST(FairScheduler, MaxResourcesCapShareAndAllocation) {
  Fs fs(allocationXml(R"(
    <queue name="queueA"><weight>0.75</weight><maxResources>1024 mb 1 vcores</maxResources></queue>
    <queue name="queueB"><weight>0.25</weight><maxResources>3072 mb 3 vcores</maxResources></queue>)"));
  fs.node("h1", "/r1", 8192, 8);
  AppId a = fs.app("root.queueA");
  AppId b = fs.app("root.queueB");
  fs.ask(a, 1, "*", 1024, 1, 2);
  fs.ask(b, 1, "*", 1024, 1, 4);
  for (int i = 0; i < 6; ++i) fs.heartbeat("h1");
  fs.tick();
  EXPECT_EQ(fs.fairMb("root.queueA"), 1024);
  EXPECT_EQ(fs.fairMb("root.queueB"), 3072);
  EXPECT_EQ(fs.allocations(a), 1);
  EXPECT_EQ(fs.allocations(b), 3);
}

// FS-5 testFairShareWithZeroWeight.
TEST(FairScheduler, ZeroWeightQueuesGetNoFairShare) {
  Fs fs(allocationXml(R"(
    <queue name="queueA"><weight>0.0</weight></queue>
    <queue name="queueB"><weight>0.0</weight></queue>)"));
  fs.node("h1", "/r1", 8192, 8);
  fs.ask(fs.app("root.queueA"), 1, "*", 1024, 1, 2);
  fs.ask(fs.app("root.queueB"), 1, "*", 1024, 1, 6);
  fs.tick();
  EXPECT_EQ(fs.fairMb("root.queueA"), 0);
  EXPECT_EQ(fs.fairMb("root.queueB"), 0);
}

// FS-12 testFairShareWithMinAlloc: min shares are met first.
TEST(FairScheduler, MinResourcesRaiseTheShare) {
  Fs fs(allocationXml(R"(
    <queue name="queueA"><minResources>1024mb,0vcores</minResources></queue>
    <queue name="queueB"><minResources>2048mb,0vcores</minResources></queue>)"));
  fs.node("h1", "/r1", 3072, 8);
  fs.ask(fs.app("root.queueA"), 1, "*", 1024, 1, 2);
  fs.ask(fs.app("root.queueB"), 1, "*", 1024, 1, 2);
  fs.tick();
  EXPECT_EQ(fs.fairMb("root.queueA"), 1024);
  EXPECT_EQ(fs.fairMb("root.queueB"), 2048);
}

// FS-13 testFairShareAndWeightsInNestedUserQueueRule.
TEST(FairScheduler, NestedUserQueuesSplitTheirParentsShare) {
  Fs fs(allocationXml(R"(
    <queue name="parentq" type="parent"><minResources>1024mb,0vcores</minResources></queue>
    <queuePlacementPolicy>
      <rule name="nestedUserQueue"><rule name="specified" create="false"/></rule>
      <rule name="default"/>
    </queuePlacementPolicy>)"));
  fs.node("h1", "/r1", 16384, 16);
  AppId u1 = fs.app("root.parentq", "user1");
  AppId u2 = fs.app("root.parentq", "user2");
  AppId u3 = fs.app("root.default", "user3");
  for (AppId a : {u1, u2, u3}) fs.ask(a, 1, "*", 1024, 1, 10);
  fs.tick();
  EXPECT_EQ(fs.sched().findApp(u1)->queue(), "root.parentq.user1");
  EXPECT_EQ(fs.sched().findApp(u3)->queue(), "root.default");
  EXPECT_EQ(fs.fairMb("root.parentq.user1"), 4096);
  EXPECT_EQ(fs.fairMb("root.parentq.user2"), 4096);
  EXPECT_EQ(fs.steadyMb("root.parentq.user1"), 4096);
  EXPECT_FLOAT_EQ(fs.queue("root.parentq.user2").weight(), 1.0f);
}

// FS-14 testSteadyFairShareWithReloadAndNodeAddRemove: steady shares follow node and
// configuration changes only.
TEST(FairScheduler, SteadySharesFollowNodesAndReloads) {
  const char* before = R"(
    <queue name="root"><schedulingPolicy>drf</schedulingPolicy>
      <queue name="child1"><weight>1</weight></queue>
      <queue name="child2"><weight>1</weight></queue>
    </queue>)";
  Fs fs(allocationXml(before));
  EXPECT_EQ(fs.steadyMb("root.child1"), 0);
  fs.node("h1", "/r1", 6144, 6);
  EXPECT_EQ(fs.steadyMb("root.child1"), 2048);
  EXPECT_EQ(fs.steadyMb("root.child2"), 2048);
  ASSERT_TRUE(fs.sched()
                  .refreshAllocation(fs.conf(), allocationXml(R"(
                      <queue name="root"><schedulingPolicy>drf</schedulingPolicy>
                        <queue name="child1"><weight>1</weight></queue>
                        <queue name="child2"><weight>2</weight></queue>
                        <queue name="child3"><weight>2</weight></queue>
                      </queue>)"))
                  .isOk());
  EXPECT_EQ(fs.steadyMb("root.child1"), 1024);
  EXPECT_EQ(fs.steadyMb("root.child2"), 2048);
  EXPECT_EQ(fs.steadyMb("root.child3"), 2048);
  ASSERT_TRUE(fs.sched().handle(NodeRemoved{"h1"}).isOk());
  EXPECT_EQ(fs.steadyMb("root.child2"), 0);
}

// FS-4 testChildMaxResources: ad hoc children take their max share from the parent's
// maxChildResources, re-applied on reload; lowering it does not take anything back.
TEST(FairScheduler, MaxChildResourcesCapAdHocQueues) {
  auto xml = [](const char* max) {
    return allocationXml(std::string("<queue name=\"queueA\" type=\"parent\"><maxChildResources>") +
                         max + "</maxChildResources></queue>");
  };
  Fs fs(xml("2048mb,2vcores"));
  fs.node("h1", "/r1", 8192, 8);
  AppId b = fs.app("queueA.queueB");
  AppId c = fs.app("queueA.queueC");
  fs.ask(b, 1, "*", 1024, 1, 8);
  fs.ask(c, 1, "*", 1024, 1, 8);
  for (int i = 0; i < 8; ++i) fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(b), 2);
  EXPECT_EQ(fs.allocations(c), 2);
  ASSERT_TRUE(fs.sched().refreshAllocation(fs.conf(), xml("3072mb,3vcores")).isOk());
  for (int i = 0; i < 4; ++i) fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(b), 3);
  EXPECT_EQ(fs.allocations(c), 3);
  ASSERT_TRUE(fs.sched().refreshAllocation(fs.conf(), xml("1024mb,1vcores")).isOk());
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(b), 3);
  EXPECT_EQ(fs.allocations(c), 3);
  EXPECT_EQ(fs.sched().findApp(b)->liveContainers().size(), 3u);
}

const char* kParentsAB = R"(
  <queue name="parentA"><weight>8</weight>
    <queue name="childA1"/><queue name="childA2"/><queue name="childA3"/><queue name="childA4"/>
  </queue>
  <queue name="parentB"><weight>1</weight><queue name="childB1"/><queue name="childB2"/></queue>)";

// FSS-1 testFairShareNoAppsRunning: steady shares count every queue, instantaneous none.
TEST(FairScheduler, SteadySharesWithoutApps) {
  Fs fs(allocationXml(kParentsAB));
  fs.node("h1", "/r1", 16384, 16);
  fs.tick();
  for (const char* q : {"root.parentA.childA1", "root.parentA.childA4"}) {
    EXPECT_NEAR(fs.steadyMb(q) / 16384.0, 0.2, 0.001) << q;
    EXPECT_EQ(fs.fairMb(q), 0) << q;
  }
  EXPECT_NEAR(fs.steadyMb("root.parentB.childB2") / 16384.0, 0.05, 0.001);
}

// FSS-2 / FSS-3: only active queues share instantaneously.
TEST(FairScheduler, InstantaneousSharesCountActiveQueuesOnly) {
  Fs fs(allocationXml(kParentsAB));
  fs.node("h1", "/r1", 16384, 16);
  fs.ask(fs.app("root.parentA.childA1"), 1, "*", 2048, 1, 1);
  fs.tick();
  EXPECT_NEAR(fs.fairMb("root.parentA.childA1") / 16384.0, 1.0, 0.001);
  EXPECT_EQ(fs.fairMb("root.parentA.childA2"), 0);
  fs.ask(fs.app("root.parentA.childA2"), 1, "*", 2048, 1, 1);
  fs.ask(fs.app("root.parentA.childA3"), 1, "*", 2048, 1, 1);
  fs.tick();
  for (const char* q : {"root.parentA.childA1", "root.parentA.childA2", "root.parentA.childA3"}) {
    EXPECT_NEAR(fs.fairMb(q) / 16384.0, 0.333, 0.009) << q;
  }
}

// MRA-1 testRemoveDoesNotEnableAnyApp: queue2's own limit still blocks its waiting app.
TEST(FairScheduler, MaxRunningAppsRemoveDoesNotEnableBlockedApp) {
  Fs fs(allocationXml(R"(
    <queue name="root"><maxRunningApps>2</maxRunningApps>
      <queue name="queue1"><maxRunningApps>1</maxRunningApps></queue>
      <queue name="queue2"><maxRunningApps>1</maxRunningApps></queue>
    </queue>)"));
  AppId app1 = fs.app("root.queue1");
  fs.app("root.queue2");
  AppId app3 = fs.app("root.queue2");
  EXPECT_EQ(fs.queue("root.queue2").runnableApps.size(), 1u);
  EXPECT_EQ(fs.queue("root.queue2").nonRunnableApps.size(), 1u);
  fs.remove(app1);
  EXPECT_EQ(fs.queue("root.queue1").runnableApps.size(), 0u);
  EXPECT_EQ(fs.queue("root.queue2").runnableApps.size(), 1u);
  EXPECT_FALSE(fs.runnable(app3));
}

const char* kCousins = R"(
  <queue name="queue1"><maxRunningApps>2</maxRunningApps>
    <queue name="subqueue1"><queue name="leaf1"/></queue>
    <queue name="subqueue2"><queue name="leaf2"/></queue>
  </queue>)";

// MRA-2 testRemoveEnablesAppOnCousinQueue.
TEST(FairScheduler, MaxRunningAppsRemoveEnablesAppOnCousinQueue) {
  Fs fs(allocationXml(kCousins));
  AppId app1 = fs.app("root.queue1.subqueue1.leaf1");
  fs.app("root.queue1.subqueue2.leaf2");
  AppId app3 = fs.app("root.queue1.subqueue2.leaf2");
  EXPECT_FALSE(fs.runnable(app3));
  fs.remove(app1);
  EXPECT_EQ(fs.queue("root.queue1.subqueue1.leaf1").runnableApps.size(), 0u);
  EXPECT_EQ(fs.queue("root.queue1.subqueue2.leaf2").runnableApps.size(), 2u);
  EXPECT_TRUE(fs.queue("root.queue1.subqueue2.leaf2").nonRunnableApps.empty());
}

// MRA-4 testRemoveEnablingOrderedByStartTime: the earlier waiting app wins.
TEST(FairScheduler, MaxRunningAppsPromotesByStartTime) {
  Fs fs(allocationXml(kCousins));
  AppId app1 = fs.app("root.queue1.subqueue1.leaf1");
  fs.app("root.queue1.subqueue2.leaf2");
  AppId app3 = fs.app("root.queue1.subqueue2.leaf2");
  fs.clock().advanceMs(20);
  AppId app4 = fs.app("root.queue1.subqueue1.leaf1");
  fs.remove(app1);
  EXPECT_TRUE(fs.runnable(app3));
  EXPECT_FALSE(fs.runnable(app4));
  EXPECT_EQ(fs.queue("root.queue1.subqueue1.leaf1").nonRunnableApps.size(), 1u);
}

TEST(FairScheduler, UserMaxRunningAppsHoldsAppsBackUntilOneFinishes) {
  Fs fs(allocationXml(
      R"(<queue name="a"/><user name="bob"><maxRunningApps>1</maxRunningApps></user>)"));
  fs.node("h1", "/r1", 8192, 8);
  AppId first = fs.app("root.a", "bob");
  AppId second = fs.app("root.a", "bob");
  AppId other = fs.app("root.a", "carol");
  EXPECT_TRUE(fs.runnable(first));
  EXPECT_FALSE(fs.runnable(second));
  EXPECT_TRUE(fs.runnable(other));
  fs.ask(second, 1, "*", 1024, 1, 1);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(second), 0) << "a waiting app gets no containers";
  fs.remove(first);
  EXPECT_TRUE(fs.runnable(second));
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(second), 1);
}

TEST(FairScheduler, DefaultPlacementUsesUserQueueAndCreatesIt) {
  Fs fs(allocationXml(R"(<queue name="a"/>)"));
  AppId byUser = fs.app("default", "alice");
  EXPECT_EQ(fs.sched().findApp(byUser)->queue(), "root.alice");
  EXPECT_TRUE(fs.queue("root.alice").isDynamic());
  AppId specified = fs.app("a", "alice");
  EXPECT_EQ(fs.sched().findApp(specified)->queue(), "root.a");
  AppId nested = fs.app("root.x.y", "alice");
  EXPECT_EQ(fs.sched().findApp(nested)->queue(), "root.x.y");
  EXPECT_FALSE(fs.queue("root.x").isLeaf()) << "missing parents are created as parents";
  EXPECT_EQ(fs.sched().appsInQueue("alice")->size(), 1u);
  EXPECT_EQ(fs.sched().appsInQueue("root")->size(), 3u);
  EXPECT_FALSE(fs.sched().appsInQueue("nope").has_value());
}

TEST(FairScheduler, EmptyDynamicQueuesAreRemovedOnUpdate) {
  Fs fs(allocationXml(R"(<queue name="a"/>)"));
  AppId app = fs.app("root.x.y", "alice");
  fs.tick();
  ASSERT_NE(fs.sched().queues().find("root.x.y"), nullptr);
  fs.remove(app);
  fs.tick();
  EXPECT_EQ(fs.sched().queues().find("root.x.y"), nullptr);
  EXPECT_EQ(fs.sched().queues().find("root.x"), nullptr);
  EXPECT_NE(fs.sched().queues().find("root.a"), nullptr) << "configured queues stay";
}

TEST(FairScheduler, PlacementRejections) {
  Fs fs(allocationXml(R"(
    <queue name="a"/>
    <queue name="p" type="parent"/>
    <queuePlacementPolicy>
      <rule name="specified" create="false"/>
      <rule name="reject"/>
    </queuePlacementPolicy>)"));
  EXPECT_TRUE(fs.submit("root.a", "u").isOk());
  Result<AppId> unknown = fs.submit("root.nope", "u");
  ASSERT_FALSE(unknown.isOk());
  EXPECT_NE(unknown.status().message().find("rejected by the queue placement policy"),
            std::string::npos);
  Result<AppId> parent = fs.submit("root.p", "u");
  ASSERT_FALSE(parent.isOk());
  EXPECT_NE(parent.status().message().find("parent queue"), std::string::npos)
      << parent.status().toString();
  EXPECT_FALSE(fs.submit("", "u").isOk());
  EXPECT_FALSE(fs.submit(".a", "u").isOk());
}

TEST(FairScheduler, CannotNestUnderALeaf) {
  Fs fs(allocationXml(R"(<queue name="a"/>)"));
  Result<AppId> r = fs.submit("root.a.b", "u");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("under a leaf"), std::string::npos);
}

TEST(FairScheduler, SubmitAclIsCheckedUpTheChain) {
  Fs fs(allocationXml(R"(
    <queue name="root">
      <aclSubmitApps> </aclSubmitApps><aclAdministerApps> </aclAdministerApps>
      <queue name="secure"><aclSubmitApps>bob</aclSubmitApps></queue>
    </queue>)"));
  EXPECT_TRUE(fs.submit("root.secure", "bob").isOk());
  Result<AppId> alice = fs.submit("root.secure", "alice");
  ASSERT_FALSE(alice.isOk());
  EXPECT_NE(alice.status().message().find("User alice cannot submit applications to queue "
                                          "root.secure"),
            std::string::npos);
}

TEST(FairScheduler, ReloadKeepsAppsAndAppliesNewLimits) {
  Fs fs(allocationXml(R"(<queue name="a"><maxRunningApps>1</maxRunningApps></queue>)"));
  fs.node("h1", "/r1", 8192, 8);
  AppId first = fs.app("root.a");
  AppId second = fs.app("root.a");
  AppId dyn = fs.app("default", "alice");
  fs.ask(first, 1, "*", 1024, 1, 1);
  fs.heartbeat("h1");
  EXPECT_FALSE(fs.runnable(second));
  ASSERT_TRUE(fs.sched()
                  .refreshAllocation(fs.conf(), allocationXml(R"(
                      <queue name="a"><maxRunningApps>2</maxRunningApps></queue>
                      <queue name="b"><weight>3</weight></queue>)"))
                  .isOk());
  fs.invariants();
  EXPECT_TRUE(fs.runnable(second)) << "a raised limit lets the waiting app run";
  EXPECT_EQ(fs.queue("root.a").usage, Resource::of(1024, 1));
  EXPECT_EQ(fs.sched().findApp(dyn)->queue(), "root.alice");
  EXPECT_FLOAT_EQ(fs.queue("root.b").weight(), 3.0f);
}

TEST(FairScheduler, ReloadThatWouldTurnABusyLeafIntoAParentChangesNothing) {
  Fs fs(allocationXml(R"(<queue name="a"/>)"));
  fs.app("root.a");
  Status s = fs.sched().refreshAllocation(
      fs.conf(), allocationXml(R"(<queue name="a"><queue name="x"/></queue>)"));
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("root.a"), std::string::npos) << s.toString();
  EXPECT_TRUE(fs.queue("root.a").isLeaf());
  EXPECT_EQ(fs.sched().queues().find("root.a.x"), nullptr);
  Status bad = fs.sched().refreshAllocation(fs.conf(), "<allocations><queue></allocations>");
  EXPECT_FALSE(bad.isOk());
  fs.invariants();
}

}  // namespace
}  // namespace spindle
