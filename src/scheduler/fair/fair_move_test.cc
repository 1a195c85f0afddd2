// Fair Scheduler: moving apps between queues (TestFairScheduler.testMove*) and the per-queue
// maxContainerAllocation check at ask time.
#include <gtest/gtest.h>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/fs_test_fixture.h"
#include "scheduler/scheduler_factory.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

bool contains(const std::vector<AppId>& v, AppId id) {
  return std::find(v.begin(), v.end(), id) != v.end();
}

// testMoveRunnableApp: usage, runnable counts and (after an update) demand follow the app.
TEST(FairMove, RunnableAppTakesItsUsageAndDemand) {
  Fs fs(allocationXml(R"(<queue name="queue1"/><queue name="queue2"/>)"));
  fs.node("h1", "/r1", 1024, 8);
  AppId app = fs.app("queue1", "user1");
  fs.ask(app, 1, "*", 1024, 1, 3);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.queue("root.queue1").usage, Resource::of(1024, 1));
  fs.tick();
  EXPECT_EQ(fs.queue("root.queue1").demand, Resource::of(3072, 3));

  ASSERT_TRUE(fs.sched().moveApp(app, "queue2").isOk());
  fs.invariants();
  EXPECT_EQ(fs.sched().findApp(app)->queue(), "root.queue2");
  EXPECT_TRUE(fs.runnable(app));
  EXPECT_FALSE(contains(fs.queue("root.queue1").runnableApps, app));
  EXPECT_TRUE(contains(fs.queue("root.queue2").runnableApps, app));
  EXPECT_EQ(fs.queue("root.queue1").usage, Resource::of(0, 0));
  EXPECT_EQ(fs.queue("root.queue2").usage, Resource::of(1024, 1));
  EXPECT_EQ(fs.queue("root.queue1").numRunnable, 0);
  EXPECT_EQ(fs.queue("root.queue2").numRunnable, 1);
  EXPECT_EQ(fs.queue("root").numRunnable, 1);
  EXPECT_EQ(*fs.sched().appsInQueue("queue2"), std::vector<AppId>{app});

  fs.tick();
  EXPECT_EQ(fs.queue("root.queue1").demand, Resource::of(0, 0));
  EXPECT_EQ(fs.queue("root.queue2").demand, Resource::of(3072, 3));
}

// The AM container's usage counts toward the new leaf's maxAMShare.
TEST(FairMove, AmUsageMovesWithTheApp) {
  Fs fs(allocationXml(R"(<queue name="queue1"/><queue name="queue2"/>)"));
  fs.node("h1", "/r1", 8192, 8);
  AppId app = fs.app("queue1", "user1", 1024);
  fs.heartbeat("h1");
  ASSERT_EQ(fs.queue("root.queue1").amUsage, Resource::of(1024, 1));
  ASSERT_TRUE(fs.sched().moveApp(app, "root.queue2").isOk());
  fs.invariants();
  EXPECT_EQ(fs.queue("root.queue1").amUsage, Resource::of(0, 0));
  EXPECT_EQ(fs.queue("root.queue2").amUsage, Resource::of(1024, 1));
}

// testMoveNonRunnableApp: a waiting app moved to another full queue stays waiting.
TEST(FairMove, WaitingAppStaysWaitingWhenTheTargetIsFull) {
  Fs fs(allocationXml(R"(
    <queue name="queue1"><maxRunningApps>0</maxRunningApps></queue>
    <queue name="queue2"><maxRunningApps>0</maxRunningApps></queue>)"));
  AppId app = fs.app("queue1", "user1");
  ASSERT_FALSE(fs.runnable(app));
  ASSERT_TRUE(fs.sched().moveApp(app, "queue2").isOk());
  fs.invariants();
  EXPECT_FALSE(fs.runnable(app));
  EXPECT_EQ(fs.queue("root.queue1").numRunnable, 0);
  EXPECT_EQ(fs.queue("root.queue2").numRunnable, 0);
  EXPECT_EQ(fs.queue("root").numRunnable, 0);
  EXPECT_TRUE(contains(fs.queue("root.queue2").nonRunnableApps, app));
}

// testMoveMakesAppRunnable.
TEST(FairMove, WaitingAppBecomesRunnableInARoomierQueue) {
  Fs fs(allocationXml(R"(
    <queue name="queue1"><maxRunningApps>0</maxRunningApps></queue>
    <queue name="queue2"/>)"));
  fs.node("h1", "/r1", 4096, 8);
  AppId app = fs.app("queue1", "user1");
  fs.ask(app, 1, "*", 1024, 1, 1);
  fs.heartbeat("h1");
  ASSERT_EQ(fs.allocations(app), 0);
  ASSERT_TRUE(fs.sched().moveApp(app, "queue2").isOk());
  fs.invariants();
  EXPECT_TRUE(fs.runnable(app));
  EXPECT_EQ(fs.queue("root.queue2").numRunnable, 1);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(app), 1);
}

// Moving a runnable app out of a queue at its maxRunningApps lets that queue's first waiting
// app run (executeMove ends with updateRunnabilityOnAppRemoval on the old queue).
TEST(FairMove, FreedSlotInTheOldQueueGoesToItsWaitingApp) {
  Fs fs(allocationXml(R"(
    <queue name="queue1"><maxRunningApps>1</maxRunningApps></queue>
    <queue name="queue2"/>)"));
  AppId first = fs.app("queue1", "user1");
  fs.clock().advanceMs(10);
  AppId second = fs.app("queue1", "user1");
  ASSERT_TRUE(fs.runnable(first));
  ASSERT_FALSE(fs.runnable(second));
  ASSERT_TRUE(fs.sched().moveApp(first, "queue2").isOk());
  fs.invariants();
  EXPECT_TRUE(fs.runnable(first));
  EXPECT_TRUE(fs.runnable(second));
  EXPECT_EQ(fs.queue("root.queue1").numRunnable, 1);
  EXPECT_EQ(fs.queue("root.queue2").numRunnable, 1);
}

// testMoveWouldViolateMaxAppsConstraints.
TEST(FairMove, RefusedWhenTheTargetIsAtMaxRunningApps) {
  Fs fs(allocationXml(R"(
    <queue name="queue1"/>
    <queue name="queue2"><maxRunningApps>0</maxRunningApps></queue>)"));
  AppId app = fs.app("queue1", "user1");
  Status st = fs.sched().moveApp(app, "queue2");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("to queue root.queue2 would violate queue maxRunningApps "
                              "constraints on queue root.queue2"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(fs.sched().findApp(app)->queue(), "root.queue1");
  EXPECT_TRUE(contains(fs.queue("root.queue1").runnableApps, app));
  fs.invariants();
}

// A parent of the target at its limit refuses too; the lowest common ancestor is not checked
// (the app is already counted there).
TEST(FairMove, AncestorsBelowTheCommonAncestorAreChecked) {
  Fs fs(allocationXml(R"(
    <queue name="p"><maxRunningApps>1</maxRunningApps>
      <queue name="a"/><queue name="b"/>
    </queue>
    <queue name="q"><maxRunningApps>1</maxRunningApps><queue name="c"/></queue>)"));
  AppId inA = fs.app("p.a", "user1");
  AppId inC = fs.app("q.c", "user2");
  // p is at its limit, but a -> b stays inside p.
  ASSERT_TRUE(fs.sched().moveApp(inA, "root.p.b").isOk());
  fs.invariants();
  EXPECT_TRUE(fs.runnable(inA));
  EXPECT_EQ(fs.queue("root.p").numRunnable, 1);
  // q.c -> p.a would add a second running app to p.
  Status st = fs.sched().moveApp(inC, "p.a");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("maxRunningApps constraints on queue root.p "), std::string::npos)
      << st.message();
}

// testMoveWouldViolateMaxResourcesConstraints.
TEST(FairMove, RefusedWhenTheUsageWouldExceedTheTargetsMaxResources) {
  Fs fs(allocationXml(R"(
    <queue name="queue1"/>
    <queue name="queue2"><maxResources>1024 mb, 1 vcores</maxResources></queue>)"));
  fs.node("h1", "/r1", 2048, 2);
  AppId app = fs.app("queue1", "user1");
  fs.ask(app, 1, "*", 1024, 1, 3);
  fs.heartbeat("h1");
  fs.heartbeat("h1");
  ASSERT_EQ(fs.queue("root.queue1").usage, Resource::of(2048, 2));
  Status st = fs.sched().moveApp(app, "queue2");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("would violate queue maxShare constraints on queue root.queue2"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(fs.queue("root.queue1").usage, Resource::of(2048, 2));
  EXPECT_EQ(fs.queue("root.queue2").usage, Resource::of(0, 0));
}

// testMoveToNonexistentQueue; a parent is not a target either.
TEST(FairMove, TargetMustBeAnExistingLeaf) {
  Fs fs(allocationXml(R"(<queue name="queue1"/><queue name="parent"><queue name="c"/></queue>)"));
  AppId app = fs.app("queue1", "user1");
  for (const char* target : {"queue2", "parent", "root"}) {
    Status st = fs.sched().moveApp(app, target);
    ASSERT_FALSE(st.isOk()) << target;
    EXPECT_EQ(st.message(),
              fmt::format("Target queue {} not found or is not a leaf queue.", target));
  }
  EXPECT_EQ(fs.sched().findApp(app)->queue(), "root.queue1");
  EXPECT_EQ(fs.sched().queues().find("root.queue2"), nullptr) << "moves never create queues";
}

TEST(FairMove, SameQueueIsANoOp) {
  Fs fs(allocationXml(R"(<queue name="queue1"><maxRunningApps>1</maxRunningApps></queue>)"));
  AppId app = fs.app("queue1", "user1");
  EXPECT_TRUE(fs.sched().moveApp(app, "root.queue1").isOk());
  EXPECT_EQ(fs.queue("root.queue1").numRunnable, 1);
  fs.invariants();
}

// ClientRMService: the app's user must be allowed to submit to the target.
TEST(FairMove, TargetSubmitAclIsChecked) {
  Fs fs(allocationXml(R"(
    <queue name="root">
      <aclSubmitApps> </aclSubmitApps><aclAdministerApps> </aclAdministerApps>
      <queue name="open"><aclSubmitApps>*</aclSubmitApps></queue>
      <queue name="closed"><aclSubmitApps>alice</aclSubmitApps></queue>
    </queue>)"));
  AppId app = fs.app("open", "bob");
  Status st = fs.sched().moveApp(app, "closed");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("User bob cannot submit applications to target queue or the "
                              "target queue doesn't exist: root.closed"),
            std::string::npos)
      << st.message();
}

// testMoveAfterRemoval; unknown ids.
TEST(FairMove, FinishedOrUnknownAppsCannotMove) {
  Fs fs(allocationXml(R"(<queue name="queue1"/><queue name="queue2"/>)"));
  AppId app = fs.app("queue1", "user1");
  fs.remove(app);
  Status st = fs.sched().moveApp(app, "queue2");
  ASSERT_FALSE(st.isOk());
  EXPECT_EQ(st.message(), "App in FINISHED state cannot be moved.");
  Status unknown = fs.sched().moveApp(AppId(99), "queue2");
  ASSERT_FALSE(unknown.isOk());
  EXPECT_NE(unknown.message().find("App to be moved application_"), std::string::npos);
}

TEST(FairMove, FifoSchedulerRefusesMoves) {
  Configuration conf;
  conf.set("yarn.resourcemanager.scheduler.class", "fifo");
  SimulatedClock clock;
  Rng rng(1);
  auto s = createScheduler(conf, clock, rng);
  ASSERT_TRUE(s.isOk()) << s.status().toString();
  AppSubmission sub;
  sub.name = "a";
  sub.queue = "default";
  sub.user = "u";
  auto id = (*s)->submit(sub);
  ASSERT_TRUE(id.isOk());
  Status st = (*s)->moveApp(*id, "other");
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("does not support moving apps between queues"), std::string::npos);
}

// maxContainerAllocation (FSQueue.getMaximumContainerAllocation, inherited from the parent)
// through FairScheduler.getMaximumResourceCapability(queue): asks above it are refused with
// InvalidResourceRequestException's text, naming the first type over the limit.
TEST(FairMaxContainerAllocation, AsksAboveTheQueueMaximumAreRefused) {
  Fs fs(allocationXml(R"(
    <queue name="small"><maxContainerAllocation>2048 mb, 2 vcores</maxContainerAllocation>
      <queue name="child"/>
    </queue>
    <queue name="big"/>)"));
  fs.node("h1", "/r1", 8192, 8);
  AppId app = fs.app("small.child", "user1");
  ResourceRequest tooBig{{1, 0}, "*", Resource::of(3072, 1), 1, true, ""};
  Status st = fs.sched().handle(AppAllocate{app, {tooBig}, {}, {}, {}});
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("Invalid resource request! Cannot allocate containers as requested "
                              "resource is greater than maximum allowed allocation. Requested "
                              "resource type=[memory-mb], Requested resource=<memory:3072, "
                              "vCores:1>, maximum allowed allocation=<memory:2048, vCores:2>"),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("maxContainerAllocation of queue root.small.child"),
            std::string::npos);
  ResourceRequest tooManyCores{{1, 0}, "*", Resource::of(1024, 3), 1, true, ""};
  Status cores = fs.sched().handle(AppAllocate{app, {tooManyCores}, {}, {}, {}});
  ASSERT_FALSE(cores.isOk());
  EXPECT_NE(cores.message().find("Requested resource type=[vcores]"), std::string::npos);
  // Nothing of a refused ask is kept; an ask at the maximum is allocated.
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(app), 0);
  fs.ask(app, 1, "*", 2048, 2, 1);
  fs.heartbeat("h1");
  EXPECT_EQ(fs.allocations(app), 1);
  // Another queue keeps the scheduler maximum (8192 MB, 4 vcores).
  AppId other = fs.app("big", "user1");
  fs.ask(other, 1, "*", 6144, 4, 1);
}

// The AM request is checked against the placed queue's maximum: the submission is rejected.
TEST(FairMaxContainerAllocation, AmAboveTheQueueMaximumRejectsTheApp) {
  Fs fs(allocationXml(
      R"(<queue name="small"><maxContainerAllocation>1024 mb, 1 vcores</maxContainerAllocation></queue>)"));
  Result<AppId> r = fs.submit("small", "user1", 2048);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("greater than maximum allowed allocation"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(fs.count(DecisionKind::kAppRejected, AppId(1)), 1);
  EXPECT_TRUE(fs.submit("small", "user1", 1024).isOk());
}

// Normalisation rounds up to the increment, then caps at the queue's maximum
// (FairScheduler.normalizeResourceRequests with the queue's getMaximumResourceCapability).
TEST(FairMaxContainerAllocation, NormalisationCapsAtTheQueueMaximum) {
  Fs fs(allocationXml(
      R"(<queue name="q"><maxContainerAllocation>1536 mb, 2 vcores</maxContainerAllocation></queue>)"));
  fs.node("h1", "/r1", 8192, 8);
  AppId app = fs.app("q", "user1");
  fs.ask(app, 1, "*", 1100, 1, 1);  // 2048 after the 1024 MB increment, capped at 1536
  fs.heartbeat("h1");
  ASSERT_EQ(fs.allocations(app), 1);
  EXPECT_EQ(fs.sched().findApp(app)->used(), Resource::of(1536, 1));
}

// After a move the new queue's maximum applies to new asks.
TEST(FairMaxContainerAllocation, FollowsTheAppAcrossAMove) {
  Fs fs(allocationXml(R"(
    <queue name="big"/>
    <queue name="small"><maxContainerAllocation>1024 mb, 1 vcores</maxContainerAllocation></queue>)"));
  AppId app = fs.app("big", "user1");
  fs.ask(app, 1, "*", 2048, 1, 1);
  ASSERT_TRUE(fs.sched().moveApp(app, "small").isOk());
  ResourceRequest rr{{1, 0}, "*", Resource::of(2048, 1), 1, true, ""};
  EXPECT_FALSE(fs.sched().handle(AppAllocate{app, {rr}, {}, {}, {}}).isOk());
}

}  // namespace
}  // namespace spindle
