// Capacity Scheduler behaviour through its public events: user limits, AM limits, delay
// scheduling, reservations, partitions, placement, ACLs, refresh and async determinism.
#include "scheduler/capacity/capacity_scheduler.h"

#include <gtest/gtest.h>

#include "scheduler/capacity/capacity_test_fixture.h"
#include "scheduler/scheduler_factory.h"

namespace spindle {
namespace {

using testing::CsConf;

CsConf twoQueues(const std::string& aCap = "50", const std::string& bCap = "50") {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", aCap).cap("root.b", bCap);
  return c;
}

CsConf oneContainerPerHeartbeat(CsConf c) {
  c.set("per-node-heartbeat.maximum-container-assignments", "1");
  return c;
}

TEST(CapacityFactory, CapacityNameAndClassNameCreateTheCapacityScheduler) {
  for (const char* name :
       {"capacity",
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler"}) {
    Configuration conf;
    conf.set("yarn.resourcemanager.scheduler.class", name);
    SimulatedClock clock;
    Rng rng(1);
    auto s = createScheduler(conf, clock, rng);
    ASSERT_TRUE(s.isOk()) << s.status().message();
    EXPECT_STREQ((*s)->typeName(), "capacityScheduler");
  }
}

TEST(CapacityUserLimit, SecondUserIsServedOnceTheFirstIsOverItsLimit) {
  // CS-UL-2 (testUserLimits): a 8.5 %, max 100 %, MULP 50, ULF 2; 2 x 8 GB.
  CsConf c = oneContainerPerHeartbeat(twoQueues("8.5", "91.5"));
  c.set("root.a.minimum-user-limit-percent", "50").set("root.a.user-limit-factor", "2");
  Cs cs(c);
  cs.node("node_0", "/rack_0", 8 * GB).node("node_1", "/rack_0", 8 * GB);
  AppId app0 = cs.submit("a", "user_0");
  AppId app1 = cs.submit("a", "user_1");
  cs.ask(app0, 1, "*", 3 * GB, 2).ask(app1, 1, "*", 1 * GB, 2);
  EXPECT_EQ(cs.heartbeat("node_0"), 1);
  EXPECT_EQ(cs.usedMb(app0), 3 * GB) << "user limit 1 GB, user_0 used 0: one more container";
  EXPECT_EQ(cs.heartbeat("node_0"), 1);
  EXPECT_EQ(cs.usedMb(app1), 1 * GB) << "user_0 (3 GB) is above its 2 GB limit and is skipped";
  ASSERT_NE(cs.lastSkip(app0), nullptr);
  EXPECT_EQ(cs.lastSkip(app0)->skip, SkipReason::kUserLimit);
  EXPECT_EQ(cs.heartbeat("node_1"), 1);
  EXPECT_EQ(cs.usedMb(app0), 6 * GB) << "limit 3 GB and 3 GB is not above it";
  EXPECT_EQ(cs.queue("a").activeUsers, 1) << "app_0 has no outstanding asks left";
}

TEST(CapacityUserLimit, UserWeightsScaleTheLimit) {
  // UsersManager: W sums the weights of active users; each user's limit is UL x its weight.
  CsConf c = twoQueues();
  c.set("root.a.minimum-user-limit-percent", "25").set("root.a.user-limit-factor", "2");
  c.set("root.a.user-settings.alice.weight", "2");
  Cs cs(c);
  cs.node("h1", "/r1", 16 * GB);
  AppId alice = cs.submit("a", "alice");
  AppId bob = cs.submit("a", "bob");
  cs.ask(alice, 1, "*", GB, 8).ask(bob, 1, "*", GB, 8);
  const CsQueue& a = cs.queue("a");
  EXPECT_DOUBLE_EQ(a.activeUsersWeight, 3.0);
  // Q = 8 GB: max(ceil(1 GB / 3), 25 % of 8 GB = 2 GB) = 2 GB; alice x2.
  EXPECT_EQ(cs.sched().userLimit(a, "bob", "").memoryMb(), 2 * GB);
  EXPECT_EQ(cs.sched().userLimit(a, "alice", "").memoryMb(), 4 * GB);
}

TEST(CapacityAdmission, AnAmLabelTheQueueCannotAccessIsRefused) {
  CsConf c = twoQueues();
  c.set("root.b.accessible-node-labels", " ");
  Cs cs(c);
  cs.labels({{"x", true}});
  AppSubmission sub;
  sub.queue = "b";
  sub.user = "u";
  sub.amResource = Resource::of(GB, 1);
  sub.amNodeLabelExpression = "x";
  auto r = cs.sched().submit(sub);
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("doesn't have permission to access"), std::string::npos);
}

TEST(CapacityAmLimit, AppsWaitForTheQueueAndUserAmLimits) {
  // CS-AM-5 (testActiveApplicationLimits): a = 10 % of 160 GB, MULP 50, ULF 5:
  // queue AM limit 16 GB, user AM limit 8 GB.
  CsConf c = twoQueues("10", "90");
  c.set("root.a.minimum-user-limit-percent", "50").set("root.a.user-limit-factor", "5");
  Cs cs(c);
  cs.node("h1", "/r1", 160 * GB, 160);
  AppId app0 = cs.submit("a", "user_0", 4 * GB);
  AppId app1 = cs.submit("a", "user_0", 4 * GB);
  AppId app2 = cs.submit("a", "user_0", 4 * GB);
  EXPECT_EQ(cs.phase(app0), CsAppPhase::kActive);
  EXPECT_EQ(cs.phase(app1), CsAppPhase::kActive);
  EXPECT_EQ(cs.phase(app2), CsAppPhase::kPending) << "user AM limit 8 GB";
  EXPECT_EQ(cs.queue("a").amLimits.find("")->second.memoryMb(), 16 * GB);
  cs.finish(app0);
  EXPECT_EQ(cs.phase(app2), CsAppPhase::kActive) << "activated when app_0 finished";
  AppId app3 = cs.submit("a", "user_0", 4 * GB);
  EXPECT_EQ(cs.phase(app3), CsAppPhase::kPending);
  AppId app4 = cs.submit("a", "user_1", 8 * GB);
  EXPECT_EQ(cs.phase(app4), CsAppPhase::kActive) << "queue AM now 8 + 8 = 16 GB";
  AppId app5 = cs.submit("a", "user_2", 8 * GB);
  EXPECT_EQ(cs.phase(app5), CsAppPhase::kPending) << "queue AM limit 16 GB";
  EXPECT_EQ(cs.queue("a").activeApps.size(), 3u);
  EXPECT_EQ(cs.queue("a").pendingApps.size(), 2u);
}

TEST(CapacityAmLimit, AQueueAlwaysAdmitsOneApp) {
  Cs cs(twoQueues("1", "99"));
  cs.node("h1", "/r1", 10 * GB);
  AppId big = cs.submit("a", "u", 4 * GB);
  EXPECT_EQ(cs.phase(big), CsAppPhase::kActive) << "escape hatch: no active app yet";
  AppId next = cs.submit("a", "u", 1 * GB);
  EXPECT_EQ(cs.phase(next), CsAppPhase::kPending);
}

// A pending app's AM-limit skip is kept current on every activation pass (its time moves), and
// it is built again only when its figures change.
TEST(CapacityAmLimit, APendingAppsAmLimitSkipMovesInTimeOnEveryPass) {
  Cs cs(twoQueues("1", "99"));
  cs.node("h1", "/r1", 10 * GB);
  const AppId big = cs.submit("a", "u", 4 * GB);
  const AppId waiting = cs.submit("a", "u", 1 * GB);
  ASSERT_EQ(cs.phase(waiting), CsAppPhase::kPending);
  ASSERT_NE(cs.lastSkip(waiting), nullptr);
  const std::string first = cs.lastSkip(waiting)->reason;
  EXPECT_THAT(first, ::testing::HasSubstr("<memory:4096, vCores:1> used by AMs"));
  cs.clock().setMs(5000);
  cs.submit("a", "v", 1 * GB);  // another pass over the pending apps, same figures
  EXPECT_EQ(cs.lastSkip(waiting)->time, 5000);
  EXPECT_EQ(cs.lastSkip(waiting)->reason, first);
  cs.clock().setMs(9000);
  cs.finish(big);  // AM usage drops: the waiting app becomes active
  EXPECT_EQ(cs.phase(waiting), CsAppPhase::kActive);
  EXPECT_TRUE(cs.sched().checkInvariants().isOk());
}

TEST(CapacityLocality, OffSwitchWaitsForTheThresholdThenNodeLocalResetsTheCounter) {
  CsConf c = twoQueues();
  Cs cs(c);
  cs.node("h1", "/r1", 8 * GB).node("h2", "/r1", 8 * GB).node("h3", "/r2", 8 * GB);
  AppId app = cs.submit("a", "u");
  // 2 hosts + 1 rack + ANY: uniq 4, factor min(3/3, 1) = 1, 2 containers: threshold 2.
  cs.ask(app, 1, "h1", GB, 1)
      .ask(app, 1, "h2", GB, 1)
      .ask(app, 1, "/r1", GB, 2)
      .ask(app, 1, "*", GB, 2);
  EXPECT_EQ(cs.heartbeat("h3"), 0);
  EXPECT_EQ(cs.opportunities(app, 1), 1);
  ASSERT_NE(cs.lastSkip(app), nullptr);
  EXPECT_EQ(cs.lastSkip(app)->skip, SkipReason::kLocalityDelay);
  EXPECT_EQ(cs.heartbeat("h3"), 0);
  EXPECT_EQ(cs.heartbeat("h3"), 1) << "3 missed > threshold 2";
  EXPECT_EQ(cs.allocationsOf(app).back().locality, Locality::kOffSwitch);
  EXPECT_EQ(cs.opportunities(app, 1), 3) << "off-switch does not reset the counter";
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocationsOf(app).back().locality, Locality::kNodeLocal);
  EXPECT_EQ(cs.opportunities(app, 1), 0) << "node-local resets it";
}

TEST(CapacityLocality, RelaxLocalityFalseOnTheRackKeepsTheAppOffOtherHosts) {
  Cs cs(twoQueues());
  cs.node("h1", "/r1", 8 * GB).node("h2", "/r1", 8 * GB).node("h3", "/r2", 8 * GB);
  AppId app = cs.submit("a", "u");
  cs.ask(app, 1, "h1", GB, 1)
      .ask(app, 1, "/r1", GB, 1, /*relax=*/false)
      .ask(app, 1, "*", GB, 1, /*relax=*/false);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cs.heartbeat("h2"), 0);
  EXPECT_EQ(cs.opportunities(app, 1), 0) << "PRIORITY_SKIPPED undoes the increment";
  EXPECT_EQ(cs.lastSkip(app)->skip, SkipReason::kRelaxLocality);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocationsOf(app).back().locality, Locality::kNodeLocal);
}

TEST(CapacityReservation, ReserveReReserveThenFulfilWhenSpaceFrees) {
  Cs cs(oneContainerPerHeartbeat(twoQueues()));
  cs.node("h1", "/r1", 4 * GB).node("h2", "/r1", 8 * GB);  // a's guarantee: 6 GB
  AppId first = cs.submit("a", "u1");
  AppId second = cs.submit("a", "u1");
  cs.ask(first, 1, "*", 3 * GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  cs.ask(second, 1, "*", 2 * GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 0);
  EXPECT_EQ(cs.count(DecisionKind::kReserve, second), 1);
  EXPECT_EQ(cs.queue("a").usage("").used.memoryMb(), 5 * GB) << "used includes reservations";
  EXPECT_EQ(cs.queue("a").usage("").reserved.memoryMb(), 2 * GB);
  EXPECT_EQ(cs.heartbeat("h1"), 0);
  EXPECT_EQ(cs.sched().csApp(second)->reReservations.at({1, 0}), 1);
  const ContainerId c = *cs.sched().findApp(first)->liveContainers().begin();
  cs.complete(c);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.usedMb(second), 2 * GB);
  EXPECT_EQ(cs.queue("a").usage("").reserved.memoryMb(), 0);
  EXPECT_FALSE(cs.sched().cluster().node(*cs.sched().cluster().findNode("h1")).reservation());
}

TEST(CapacityReservation, ALostNodeTakesItsReservationWithIt) {
  Cs cs(oneContainerPerHeartbeat(twoQueues()));
  cs.node("h1", "/r1", 4 * GB).node("h2", "/r1", 8 * GB);
  AppId x = cs.submit("a", "ux");
  AppId y = cs.submit("a", "uy");
  cs.ask(x, 1, "*", 3 * GB, 1);
  cs.heartbeat("h1");
  cs.ask(y, 1, "*", 2 * GB, 1);
  cs.heartbeat("h1");
  ASSERT_EQ(cs.queue("a").usage("").reserved.memoryMb(), 2 * GB);
  ASSERT_TRUE(cs.sched().handle(NodeRemoved{"h1"}).isOk());
  EXPECT_TRUE(cs.sched().checkInvariants().isOk()) << cs.sched().checkInvariants().message();
  EXPECT_EQ(cs.queue("a").usage("").reserved.memoryMb(), 0);
  EXPECT_EQ(cs.queue("a").usage("").used.memoryMb(), 0);
  EXPECT_EQ(cs.heartbeat("h2"), 1) << "y's ask is placed on the remaining node";
}

TEST(CapacityReservation, ContinueLookingSwapsAReservationForRoomElsewhere) {
  // reservations-continue-look-all-nodes (default true): y holds one reservation for its only
  // ask, so shouldAllocOrReserveNewContainer is false; on another node with room the allocator
  // unreserves h1 and allocates on h2 in one step.
  Cs cs(oneContainerPerHeartbeat(twoQueues()));
  cs.node("h1", "/r1", 4 * GB).node("h2", "/r1", 4 * GB);
  AppId x = cs.submit("a", "ux");
  AppId y = cs.submit("a", "uy");
  cs.ask(x, 1, "*", 3 * GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  cs.ask(y, 1, "*", 2 * GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 0);
  EXPECT_EQ(cs.count(DecisionKind::kReserve, y), 1);
  EXPECT_EQ(cs.heartbeat("h2"), 1);
  EXPECT_EQ(cs.usedMb(y), 2 * GB);
  EXPECT_EQ(cs.count(DecisionKind::kUnreserve, y), 1);
  EXPECT_FALSE(cs.sched().cluster().node(*cs.sched().cluster().findNode("h1")).reservation());
  EXPECT_EQ(cs.queue("a").usage("").reserved.memoryMb(), 0);
}

TEST(CapacityReservation, WithoutContinueLookingTheReservationHoldsTheAsk) {
  CsConf c = oneContainerPerHeartbeat(twoQueues());
  c.set("reservations-continue-look-all-nodes", "false");
  Cs cs(c);
  cs.node("h1", "/r1", 4 * GB).node("h2", "/r1", 4 * GB);
  AppId x = cs.submit("a", "ux");
  AppId y = cs.submit("a", "uy");
  cs.ask(x, 1, "*", 3 * GB, 1);
  cs.heartbeat("h1");
  cs.ask(y, 1, "*", 2 * GB, 1);
  cs.heartbeat("h1");
  EXPECT_EQ(cs.heartbeat("h2"), 0) << "starvation rule: 0 + 1 outstanding - 1 reserved = 0";
  EXPECT_EQ(cs.usedMb(y), 0);
}

TEST(CapacityQueueMax, AContainerNeverPushesAQueueOverItsMaximum) {
  CsConf c = twoQueues();
  c.maxCap("root.a", "50");
  Cs cs(c);
  cs.node("h1", "/r1", 10 * GB);
  AppId app = cs.submit("a", "u");
  c.set("root.a.user-limit-factor", "10");
  cs.ask(app, 1, "*", 2 * GB, 5);
  for (int i = 0; i < 5; ++i) cs.heartbeat("h1");
  EXPECT_LE(cs.queue("a").usage("").used.memoryMb(), 5 * GB);
}

TEST(CapacityOrdering, IdleQueuesAreOfferedByLargerCapacity) {
  // testNotAssignMultiple: a 10.5 %, b 89.5 %; one container per heartbeat.
  Cs cs(oneContainerPerHeartbeat(twoQueues("10.5", "89.5")));
  cs.node("h1", "/r1", 16 * GB);
  AppId a = cs.submit("a", "u");
  AppId b = cs.submit("b", "u");
  cs.ask(a, 1, "*", GB, 1).ask(b, 1, "*", GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocations(b), 1);
  EXPECT_EQ(cs.allocations(a), 0);
}

TEST(CapacityOrdering, FifoPolicyServesHigherAppPriorityFirst) {
  CsConf c = oneContainerPerHeartbeat(twoQueues());
  c.raw("yarn.cluster.max-application-priority", "10");
  Cs cs(c);
  cs.node("h1", "/r1", 16 * GB);
  AppId low = cs.submit("a", "u", 0, 1);
  AppId high = cs.submit("a", "u", 0, 5);
  cs.ask(low, 1, "*", GB, 1).ask(high, 1, "*", GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocations(high), 1);
  EXPECT_EQ(cs.allocations(low), 0);
}

// The allocation path ranks children by a plain (used, capacity) order while the parent ignores
// priorities (CsQueue::simpleChildOrder, derived on every cluster change); a refresh to
// priority-utilization must bring priorities back into the order.
TEST(CapacityOrdering, RefreshToPriorityUtilizationRanksByPriorityAgain) {
  Cs cs(oneContainerPerHeartbeat(twoQueues()));
  cs.node("h1", "/r1", 16 * GB);
  AppId a = cs.submit("a", "u");
  AppId b = cs.submit("b", "u");
  cs.ask(a, 1, "*", GB, 10).ask(b, 1, "*", GB, 10);
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocations(a), 1) << "equal use and capacity: configured order";
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocations(b), 1) << "b is the less used";
  Configuration next;
  next.set("yarn.scheduler.capacity.root.ordering-policy", "priority-utilization");
  next.set("yarn.scheduler.capacity.root.b.priority", "5");
  ASSERT_TRUE(cs.sched().refreshConfiguration(next).isOk());
  EXPECT_EQ(cs.heartbeat("h1"), 1);
  EXPECT_EQ(cs.allocations(b), 2) << "equal use, both under their guarantee: b's priority wins";
  EXPECT_EQ(cs.allocations(a), 1);
}

TEST(CapacityPartitions, DefaultPartitionAskWaitsClusterSizeOpportunitiesOnANonExclusiveNode) {
  CsConf c;
  c.queues("root", "a").cap("root.a", "100");
  Cs cs(c);
  cs.labels({{"x", false}});
  cs.node("h1", "/r1", 8 * GB, 8, {"x"}).node("h2", "/r1", 8 * GB);
  AppId app = cs.submit("a", "u");
  cs.ask(app, 1, "*", GB, 1);
  EXPECT_EQ(cs.heartbeat("h1"), 0) << "1 missed non-partitioned opportunity of N = 2";
  EXPECT_EQ(cs.lastSkip(app)->skip, SkipReason::kPartition);
  EXPECT_EQ(cs.heartbeat("h1"), 1) << "2 missed >= N: IGNORE_PARTITION_EXCLUSIVITY";
  EXPECT_EQ(cs.queue("a").usage("x").used.memoryMb(), GB) << "usage counts on the node's partition";
}

TEST(CapacityPartitions, ExclusiveLabelIsNeverUsedForDefaultAsks) {
  CsConf c;
  c.queues("root", "a").cap("root.a", "100");
  Cs cs(c);
  cs.labels({{"x", true}});
  cs.node("h1", "/r1", 8 * GB, 8, {"x"});
  AppId app = cs.submit("a", "u");
  cs.ask(app, 1, "*", GB, 1);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cs.heartbeat("h1"), 0);
}

TEST(CapacityPartitions, FifoWithPartitionsIsolatesAppsOfEnforcedPartitions) {
  CsConf c;
  c.queues("root", "a").cap("root.a", "100");
  c.set("root.accessible-node-labels.x.capacity", "100");
  c.set("root.a.accessible-node-labels", "x")
      .set("root.a.accessible-node-labels.x.capacity", "100");
  c.set("root.a.ordering-policy", "fifo-with-partitions");
  c.set("root.a.ordering-policy.exclusive-enforced-partitions", "x");
  Cs cs(c);
  cs.labels({{"x", true}});
  cs.node("h1", "/r1", 8 * GB, 8, {"x"}).node("h2", "/r1", 8 * GB);
  AppSubmission sub;
  sub.queue = "a";
  sub.user = "u";
  sub.amNodeLabelExpression = "x";
  AppId inX = cs.sched().submit(sub).value();
  AppId plain = cs.submit("a", "u");
  cs.ask(inX, 1, "*", GB, 2).ask(plain, 1, "*", GB, 2);
  // One off-switch container per heartbeat (maximum-offswitch-assignments 1).
  EXPECT_EQ(cs.heartbeat("h2") + cs.heartbeat("h2") + cs.heartbeat("h2"), 2)
      << "the first app in FIFO order is never seen on h2";
  EXPECT_EQ(cs.sched().findApp(plain)->used().memoryMb(), 2 * GB);
  EXPECT_EQ(cs.sched().findApp(inX)->used().memoryMb(), 0);
  EXPECT_EQ(cs.heartbeat("h1") + cs.heartbeat("h1") + cs.heartbeat("h1"), 2)
      << "its unlabelled asks stay in its enforced partition";
  EXPECT_EQ(cs.sched().findApp(inX)->used().memoryMb(), 2 * GB);
  EXPECT_EQ(cs.queue("a").usage("x").used.memoryMb(), 2 * GB);
}

TEST(CapacityAdmission, RejectionsUseYarnMessages) {
  CsConf c;
  c.queues("root", "p,s").cap("root.p", "50").cap("root.s", "50");
  c.queues("root.p", "p1").cap("root.p.p1", "100");
  c.set("root.s.state", "STOPPED").set("root.p.p1.maximum-applications", "1");
  Cs cs(c);
  auto unknown = cs.trySubmit("nope", "u");
  ASSERT_FALSE(unknown.isOk());
  EXPECT_NE(unknown.status().message().find("to unknown queue: nope"), std::string::npos);
  auto parent = cs.trySubmit("p", "u");
  ASSERT_FALSE(parent.isOk());
  EXPECT_NE(parent.status().message().find("non-leaf queue"), std::string::npos);
  auto stopped = cs.trySubmit("s", "u");
  ASSERT_FALSE(stopped.isOk());
  EXPECT_NE(stopped.status().message().find("is STOPPED"), std::string::npos);
  cs.submit("p1", "u");
  auto full = cs.trySubmit("p1", "u");
  ASSERT_FALSE(full.isOk());
  EXPECT_NE(full.status().message().find("already has 1 applications"), std::string::npos);
}

TEST(CapacityAdmission, MaxParallelAppsLeavesExtraAppsNonRunnable) {
  CsConf c = twoQueues();
  c.set("root.a.max-parallel-apps", "1");
  Cs cs(c);
  cs.node("h1", "/r1", 8 * GB);
  AppId first = cs.submit("a", "u", GB);
  AppId second = cs.submit("a", "u", GB);
  EXPECT_EQ(cs.phase(second), CsAppPhase::kNonRunnable);
  ASSERT_NE(cs.lastSkip(second), nullptr) << "why is my app pending";
  EXPECT_EQ(cs.lastSkip(second)->skip, SkipReason::kMaxParallelApps);
  EXPECT_NE(cs.lastSkip(second)->reason.find("queue root.a runs 1 apps"), std::string::npos)
      << cs.lastSkip(second)->reason;
  cs.finish(first);
  EXPECT_EQ(cs.phase(second), CsAppPhase::kActive);
}

TEST(CapacityAdmission, UserMaxParallelAppsIsNamedAsTheReason) {
  CsConf c = twoQueues();
  c.set("user.max-parallel-apps", "1");
  Cs cs(c);
  cs.node("h1", "/r1", 8 * GB);
  cs.submit("a", "u", GB);
  AppId second = cs.submit("b", "u", GB);
  ASSERT_NE(cs.lastSkip(second), nullptr);
  EXPECT_EQ(cs.lastSkip(second)->skip, SkipReason::kMaxParallelApps);
  EXPECT_NE(cs.lastSkip(second)->reason.find("user u runs 1 apps"), std::string::npos)
      << cs.lastSkip(second)->reason;
}

TEST(CapacityPlacement, UserAndGroupMappingsAndOverride) {
  CsConf c = twoQueues();
  c.set("queue-mappings", "u:alice:b,g:eng:a");
  c.raw("hadoop.user.group.static.mapping.overrides", "bob=eng;carol=;");
  Cs cs(c);
  EXPECT_EQ(cs.sched().findApp(cs.submit("default", "alice"))->queue(), "root.b");
  EXPECT_EQ(cs.sched().findApp(cs.submit("default", "bob"))->queue(), "root.a");
  EXPECT_EQ(cs.sched().findApp(cs.submit("b", "bob"))->queue(), "root.b")
      << "no override: an explicit queue wins";
  EXPECT_FALSE(cs.trySubmit("default", "carol").isOk()) << "no mapping, no default queue";
}

TEST(CapacityPlacement, PrimaryGroupPlaceholderAndOverrideFlag) {
  CsConf c = twoQueues();
  c.set("queue-mappings", "u:%user:%primary_group").set("queue-mappings-override.enable", "true");
  c.raw("hadoop.user.group.static.mapping.overrides", "dave=a,b;");
  Cs cs(c);
  EXPECT_EQ(cs.sched().findApp(cs.submit("b", "dave"))->queue(), "root.a");
  EXPECT_EQ(cs.sched().findApp(cs.submit("b", "b"))->queue(), "root.b")
      << "default primary group = the user name";
}

TEST(CapacityAcl, SubmitAclIsInheritedAndOnlyCheckedWithAclsEnabled) {
  CsConf c = twoQueues();
  c.set("root.acl_submit_applications", " ").set("root.acl_administer_queue", " ");
  c.set("root.a.acl_submit_applications", "alice");
  c.raw("yarn.acl.enable", "true");
  Cs cs(c);
  EXPECT_TRUE(cs.trySubmit("a", "alice").isOk());
  auto denied = cs.trySubmit("a", "bob");
  ASSERT_FALSE(denied.isOk());
  EXPECT_NE(denied.status().message().find("does not have permission"), std::string::npos);
  CsConf open = twoQueues();
  open.set("root.acl_submit_applications", " ").set("root.acl_administer_queue", " ");
  Cs noAcl(open);
  EXPECT_TRUE(noAcl.trySubmit("a", "bob").isOk()) << "yarn.acl.enable defaults to false";
}

TEST(CapacityAcl, PriorityAclGivesDefaultsAndRefusesPrioritiesAboveTheUsersMaximum) {
  CsConf c = twoQueues();
  c.raw("yarn.cluster.max-application-priority", "10");
  c.set("root.a.default-application-priority", "2");
  c.set("root.a.acl_application_max_priority",
        "[user=alice max_priority=5 default_priority=3] [user=bob max_priority=1]");
  c.raw("yarn.acl.enable", "true");
  Cs cs(c);
  EXPECT_EQ(cs.sched().findApp(cs.submit("a", "alice"))->priority(), 3)
      << "the ACL's default_priority wins over the queue's default";
  EXPECT_EQ(cs.sched().findApp(cs.submit("a", "alice", 0, 5))->priority(), 5);
  auto tooHigh = cs.trySubmit("a", "alice", 0, 6);
  ASSERT_FALSE(tooHigh.isOk());
  EXPECT_NE(tooHigh.status().message().find("does not have permission to submit/update"),
            std::string::npos)
      << tooHigh.status().message();
  EXPECT_NE(tooHigh.status().message().find("{Priority: 6}"), std::string::npos);
  EXPECT_FALSE(cs.trySubmit("a", "bob").isOk())
      << "bob has no default: the queue default 2 is above his maximum 1";
  EXPECT_FALSE(cs.trySubmit("a", "carol", 0, 1).isOk()) << "no group names carol";
  EXPECT_TRUE(cs.trySubmit("b", "carol", 0, 9).isOk()) << "queue b has no priority ACL";
  CsConf off = c;
  off.raw("yarn.acl.enable", "false");
  Cs noAcl(off);
  EXPECT_EQ(noAcl.sched().findApp(noAcl.submit("a", "carol", 0, 9))->priority(), 9)
      << "priority ACLs apply only with yarn.acl.enable";
}

TEST(CapacityRefresh, RemovingAQueueWithAppsIsRefusedAndNothingChanges) {
  Cs cs(twoQueues());
  cs.node("h1", "/r1", 8 * GB);
  cs.submit("a", "u", GB);
  Configuration next;
  next.set("yarn.scheduler.capacity.root.queues", "b");
  next.set("yarn.scheduler.capacity.root.b.capacity", "100");
  Status s = cs.sched().refreshConfiguration(next);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("root.a"), std::string::npos) << s.message();
  EXPECT_NE(cs.sched().findQueue("root.a"), nullptr);
  EXPECT_EQ(cs.queue("a").numApplications, 1);
}

TEST(CapacityRefresh, RaisingTheAmPercentActivatesPendingApps) {
  CsConf c = twoQueues();
  c.set("root.a.maximum-am-resource-percent", "0.1");
  Cs cs(c);
  cs.node("h1", "/r1", 20 * GB);
  AppId first = cs.submit("a", "u", GB);
  AppId second = cs.submit("a", "u", GB);
  EXPECT_EQ(cs.phase(first), CsAppPhase::kActive);
  EXPECT_EQ(cs.phase(second), CsAppPhase::kPending) << "AM limit 0.1 x 20 GB = 2 GB, user 1 GB";
  Configuration next;
  next.set("yarn.scheduler.capacity.root.a.maximum-am-resource-percent", "0.5");
  ASSERT_TRUE(cs.sched().refreshConfiguration(next).isOk());
  EXPECT_EQ(cs.phase(second), CsAppPhase::kActive);
  EXPECT_TRUE(cs.sched().checkInvariants().isOk());
}

TEST(CapacityHeadroom, HeadroomIsTheSmallerOfUserAndQueueRoom) {
  CsConf c = twoQueues();
  c.maxCap("root.a", "50");
  Cs cs(c);
  cs.node("h1", "/r1", 16 * GB);
  AppId app = cs.submit("a", "u");
  cs.ask(app, 1, "*", GB, 2);
  cs.heartbeat("h1");  // one OFF_SWITCH container per heartbeat
  cs.heartbeat("h1");
  // user limit 8 GB (ULF 1 x 8 GB guarantee), queue max 8 GB, used 2 GB.
  EXPECT_EQ(cs.sched().headroom(app)->memoryMb(), 6 * GB);
  EXPECT_FALSE(cs.sched().headroom(AppId(99)).has_value());
}

TEST(CapacityHeadroom, AppsOfALabelledQueueGetTheirPartitionsHeadroom) {
  CsConf c;
  c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
  c.set("root.accessible-node-labels.x.capacity", "100");
  c.set("root.a.accessible-node-labels", "x").set("root.a.accessible-node-labels.x.capacity", "50");
  c.set("root.a.accessible-node-labels.x.maximum-capacity", "75");
  c.set("root.a.default-node-label-expression", "x").set("root.a.user-limit-factor", "2");
  c.set("root.b.accessible-node-labels", "x").set("root.b.accessible-node-labels.x.capacity", "50");
  Cs cs(c);
  cs.labels({{"x", true}});
  cs.node("h1", "/r1", 8 * GB, 8, {"x"}).node("h2", "/r1", 8 * GB, 8, {"x"});
  cs.node("h3", "/r1", 4 * GB);
  AppId app = cs.submit("a", "u");
  // x has 16 GB, a's guarantee there 8 GB, its maximum 12 GB: the user limit is the queue's
  // current capacity, 8 GB, while the queue uses less than its guarantee. (The default
  // partition, 4 GB, would give 2 GB.)
  EXPECT_EQ(cs.sched().headroom(app)->memoryMb(), 8 * GB);
  cs.ask(app, 1, "*", GB, 3);
  cs.heartbeat("h1");
  cs.heartbeat("h2");
  EXPECT_EQ(cs.queue("a").usage("x").used.memoryMb(), 2 * GB);
  EXPECT_EQ(cs.sched().headroom(app)->memoryMb(), 6 * GB);
}

// The same events give the same decisions in asynchronous mode, and one heartbeat's global pass
// places containers on other nodes too.
std::vector<std::string> asyncRun() {
  CsConf c = twoQueues();
  c.set("schedule-asynchronously.enable", "true");
  c.set("per-node-heartbeat.maximum-offswitch-assignments", "4");
  c.set("root.a.user-limit-factor", "2").set("root.b.user-limit-factor", "2");
  Cs cs(c);
  for (int i = 0; i < 6; ++i) cs.node(fmt::format("h{}", i), fmt::format("/r{}", i % 2), 8 * GB);
  AppId a = cs.submit("a", "ua");
  AppId b = cs.submit("b", "ub");
  cs.ask(a, 1, "*", GB, 10).ask(b, 1, "*", 2 * GB, 6);
  cs.heartbeat("h0");
  std::vector<std::string> out;
  for (const auto& d : cs.log().decisions()) {
    if (d.kind == DecisionKind::kAllocate) {
      out.push_back(fmt::format("{} {} {}", d.app.value(), cs.sched().cluster().nodeName(d.node),
                                d.resource.memoryMb()));
    }
  }
  return out;
}

TEST(CapacityAsync, AGlobalPassIsDeterministicAndUsesEveryNode) {
  const auto first = asyncRun();
  EXPECT_EQ(first, asyncRun());
  EXPECT_EQ(first.size(), 16u) << "all asks placed by one heartbeat's pass";
  std::set<std::string> nodes;
  for (const std::string& s : first) nodes.insert(s.substr(s.find(' ') + 1, 2));
  EXPECT_GT(nodes.size(), 1u);
}

}  // namespace
}  // namespace spindle
