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
using testing::testLeafQueueSetup;

CsConf oneLeaf() { return std::move(CsConf().queues("root", "a").cap("root.a", "100")); }

CsConf twoLeaves() {
  return std::move(CsConf().queues("root", "a,b").cap("root.a", "10").cap("root.b", "90"));
}

// maximum-applications = (int)(10000 x absCapacity) when unset (AbstractLeafQueue).
TEST(QueueSettings, MaximumApplicationsDeriveFromAbsoluteCapacity) {
  CapacityConfig cfg = parseOk(testLeafQueueSetup());
  EXPECT_EQ(cfg.queue("root.newRoot.a").maximumApplications, 850);
  EXPECT_EQ(cfg.queue("root.newRoot.b").maximumApplications, 8000);
  EXPECT_EQ(cfg.queue("root.newRoot.c.c1").maximumApplications, 150);
  EXPECT_EQ(cfg.queue("root.newRoot.e").maximumApplications, 100);
  EXPECT_EQ(cfg.queue("root.newRoot.a").configuredMaximumApplications, -1);
  // MULP 100, ULF 1: per user = maxApps.
  EXPECT_EQ(cfg.queue("root.newRoot.a").maxApplicationsPerUser, 850);
}

// TestApplicationLimits' queue a: 10 %, MULP 50, ULF 5 (vector CS-AM-5).
TEST(QueueSettings, MaxApplicationsPerUserFollowsUserLimitAndFactor) {
  CapacityConfig cfg = parseOk(twoLeaves()
                                   .set("root.a.minimum-user-limit-percent", "50")
                                   .set("root.a.user-limit-factor", "5")
                                   .set("root.b.minimum-user-limit-percent", "25"));
  EXPECT_EQ(cfg.queue("root.a").maximumApplications, 1000);
  EXPECT_EQ(cfg.queue("root.a").maxApplicationsPerUser, 1000) << "min(1000, 1000 x 0.5 x 5)";
  EXPECT_EQ(cfg.queue("root.b").maximumApplications, 9000);
  EXPECT_EQ(cfg.queue("root.b").maxApplicationsPerUser, 2250) << "9000 x 0.25 x 1";
}

TEST(QueueSettings, DisabledUserLimitFactorGivesEveryUserTheQueueMaximum) {
  CapacityConfig cfg = parseOk(twoLeaves()
                                   .set("root.a.minimum-user-limit-percent", "25")
                                   .set("root.a.user-limit-factor", "-1"));
  EXPECT_EQ(cfg.queue("root.a").userLimitFactor, -1);
  EXPECT_EQ(cfg.queue("root.a").maxApplicationsPerUser, 1000);
}

TEST(QueueSettings, MaximumApplicationsExplicitThenGlobalPerQueueThenDerived) {
  CapacityConfig cfg = parseOk(
      twoLeaves().set("maximum-applications", "500").set("root.a.maximum-applications", "7"));
  EXPECT_EQ(cfg.queue("root.a").maximumApplications, 7);
  EXPECT_EQ(cfg.queue("root.a").configuredMaximumApplications, 7);
  EXPECT_EQ(cfg.queue("root.b").maximumApplications, 450);

  CapacityConfig global = parseOk(
      twoLeaves().set("maximum-applications", "500").set("global-queue-max-application", "900"));
  EXPECT_EQ(global.globalQueueMaxApplication, 900);
  EXPECT_EQ(global.queue("root.a").maximumApplications, 500) << "min(global, system max)";
  CapacityConfig lower = parseOk(twoLeaves().set("global-queue-max-application", "42"));
  EXPECT_EQ(lower.queue("root.b").maximumApplications, 42);
}

TEST(QueueSettings, MaximumApplicationsTakesTheLargestLabel) {
  CapacityConfig cfg = parseOk(twoLeaves()
                                   .label("x")
                                   .set("root.a.accessible-node-labels.x.capacity", "60")
                                   .set("root.b.accessible-node-labels.x.capacity", "40"));
  EXPECT_EQ(cfg.queue("root.a").maximumApplications, 6000);
  EXPECT_EQ(cfg.queue("root.b").maximumApplications, 9000);
}

TEST(QueueSettings, UserLimitDefaultsComeFromGlobalKeys) {
  CapacityConfig cfg = parseOk(twoLeaves()
                                   .set("user-limit-factor", "2")
                                   .set("minimum-user-limit-percent", "50.1")
                                   .set("root.b.user-limit-factor", "3"));
  EXPECT_FLOAT_EQ(cfg.queue("root.a").userLimitFactor, 2.0f);
  EXPECT_FLOAT_EQ(cfg.queue("root.a").minimumUserLimitPercent, 50.1f);
  EXPECT_FLOAT_EQ(cfg.queue("root.b").userLimitFactor, 3.0f);
  EXPECT_FLOAT_EQ(cfg.userLimitFactor, 2.0f);
}

TEST(QueueSettings, BadUserLimitValuesAreErrors) {
  std::string error = parseError(twoLeaves()
                                     .set("root.a.user-limit-factor", "-2")
                                     .set("root.b.minimum-user-limit-percent", "0"));
  EXPECT_THAT(error,
              HasSubstr("root.a.user-limit-factor': must be -1 (disabled) or >= 0, got -2.0"));
  EXPECT_THAT(error, HasSubstr("root.b.minimum-user-limit-percent': must be > 0, got 0.0"));
}

TEST(QueueSettings, UserWeightsAllowDotsInUserNames) {
  CapacityConfig cfg = parseOk(oneLeaf()
                                   .set("root.a.minimum-user-limit-percent", "25")
                                   .set("root.a.user-settings.john.doe.weight", "2")
                                   .set("root.a.user-settings.alice.weight", "0.5"));
  EXPECT_THAT(cfg.queue("root.a").userWeights,
              ElementsAre(Pair("alice", 0.5), Pair("john.doe", 2.0)));
}

TEST(QueueSettings, UserWeightAboveConcurrentUsersIsAnError) {
  std::string error = parseError(oneLeaf()
                                     .set("root.a.minimum-user-limit-percent", "25")
                                     .set("root.a.user-settings.bob.weight", "5"));
  EXPECT_THAT(error, HasSubstr("root.a.user-settings.bob.weight': Weight (5.0) for user \"bob\" "
                               "must be between 0 and 100 / 25.0 (= 4.0, the number of concurrent "
                               "active users in root.a)"));
}

TEST(QueueSettings, MaxParallelAppsIsTheLowestAlongTheBranch) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .queues("root.a", "a1,a2")
                                   .cap("root.a.a1", "50")
                                   .cap("root.a.a2", "50")
                                   .set("root.a.max-parallel-apps", "5")
                                   .set("root.a.a1.max-parallel-apps", "10")
                                   .set("root.a.a2.max-parallel-apps", "2"));
  EXPECT_EQ(cfg.queue("root").maxParallelApps, INT32_MAX);
  EXPECT_EQ(cfg.queue("root.a.a1").maxParallelApps, 5);
  EXPECT_EQ(cfg.queue("root.a.a2").maxParallelApps, 2);
  EXPECT_EQ(cfg.queue("root.b").maxParallelApps, INT32_MAX);
  CapacityConfig global = parseOk(twoLeaves().set("max-parallel-apps", "8"));
  EXPECT_EQ(global.queue("root.b").maxParallelApps, 8);
}

TEST(QueueSettings, StateIsInheritedAndCaseInsensitive) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .queues("root.a", "a1")
                                   .cap("root.a.a1", "100")
                                   .set("root.a.state", "stopped"));
  EXPECT_EQ(cfg.queue("root.a").state, QueueStateConfig::kStopped);
  EXPECT_EQ(cfg.queue("root.a.a1").state, QueueStateConfig::kStopped);
  EXPECT_EQ(cfg.queue("root.b").state, QueueStateConfig::kRunning);
}

TEST(QueueSettings, RunningChildOfStoppedParentIsAnError) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a")
                                     .cap("root.a", "100")
                                     .queues("root.a", "a1")
                                     .cap("root.a.a1", "100")
                                     .set("root.a.state", "STOPPED")
                                     .set("root.a.a1.state", "RUNNING"));
  EXPECT_THAT(error, HasSubstr("The parent queue:root.a cannot be STOPPED as the child "
                               "queue:root.a.a1 is in RUNNING state."));
}

TEST(QueueSettings, BadStateIsAnError) {
  std::string error = parseError(oneLeaf().set("root.a.state", "DRAINING"));
  EXPECT_THAT(error, HasSubstr("root.a.state': invalid queue state 'DRAINING': expected RUNNING "
                               "or STOPPED"));
}

TEST(QueueSettings, AclsDefaultToEveryoneAtRootAndNobodyElsewhere) {
  CapacityConfig cfg = parseOk(oneLeaf());
  EXPECT_EQ(cfg.queue("root").submitAcl.toString(), "*");
  EXPECT_EQ(cfg.queue("root").administerAcl.toString(), "*");
  EXPECT_EQ(cfg.queue("root.a").submitAcl.toString(), " ");
  EXPECT_FALSE(cfg.queue("root.a").submitAcl.allows("alice", {}));
  EXPECT_TRUE(cfg.hasAccess("root.a", QueueAcl::kSubmitApplications, "alice", {}))
      << "root's * is inherited, as in YARN";
}

// TestLeafQueue.testInheritedQueueAcls: access through any ancestor.
TEST(QueueSettings, AclAccessIsInheritedFromAncestors) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .queues("root.a", "a1")
                                   .cap("root.a.a1", "100")
                                   .set("root.acl_submit_applications", " ")
                                   .set("root.acl_administer_queue", " ")
                                   .set("root.a.acl_submit_applications", "alice")
                                   .set("root.a.a1.acl_administer_queue", " admins"));
  EXPECT_TRUE(cfg.hasAccess("root.a.a1", QueueAcl::kSubmitApplications, "alice", {}));
  EXPECT_FALSE(cfg.hasAccess("root.b", QueueAcl::kSubmitApplications, "alice", {}));
  EXPECT_FALSE(cfg.hasAccess("root.a.a1", QueueAcl::kSubmitApplications, "bob", {}));
  EXPECT_TRUE(cfg.hasAccess("root.a.a1", QueueAcl::kAdministerQueue, "bob", {"admins"}));
  EXPECT_FALSE(cfg.hasAccess("root.a", QueueAcl::kAdministerQueue, "bob", {"admins"}));
  EXPECT_FALSE(cfg.hasAccess("root.nosuch", QueueAcl::kAdministerQueue, "bob", {}));
}

TEST(QueueSettings, BadAclNamesTheProperty) {
  std::string error = parseError(oneLeaf().set("root.a.acl_submit_applications", "u1, u2 g1"));
  EXPECT_THAT(error, HasSubstr("root.a.acl_submit_applications': invalid ACL 'u1, u2 g1': group "
                               "name 'u2 g1' may not contain whitespace"));
}

TEST(QueueSettings, OrderingPoliciesForLeavesAndParents) {
  CapacityConfig cfg =
      parseOk(CsConf()
                  .queues("root", "a,b,p")
                  .cap("root.a", "30")
                  .cap("root.b", "30")
                  .cap("root.p", "40")
                  .set("root.ordering-policy", "priority-utilization")
                  .queues("root.p", "p1,q")
                  .cap("root.p.p1", "50")
                  .cap("root.p.q", "50")
                  .queues("root.p.q", "q1")
                  .cap("root.p.q.q1", "100")
                  .set("root.a.ordering-policy", "fair")
                  .set("root.a.ordering-policy.fair.enable-size-based-weight", "true")
                  .set("root.b.ordering-policy",
                       "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy."
                       "FifoOrderingPolicyForPendingApps"));
  EXPECT_EQ(cfg.queue("root").orderingPolicy, "priority-utilization");
  EXPECT_EQ(cfg.queue("root.p.q").orderingPolicy, "priority-utilization") << "inherited";
  EXPECT_EQ(cfg.queue("root.p.p1").orderingPolicy, "fifo");
  EXPECT_EQ(cfg.queue("root.a").orderingPolicy, "fair");
  EXPECT_TRUE(cfg.queue("root.a").fairSizeBasedWeight);
  EXPECT_EQ(cfg.queue("root.b").orderingPolicy, "fifo-for-pending-apps");
  CapacityConfig plain = parseOk(oneLeaf());
  EXPECT_EQ(plain.queue("root").orderingPolicy, "utilization");
}

TEST(QueueSettings, UnknownOrderingPoliciesAreErrors) {
  std::string error = parseError(
      oneLeaf().set("root.ordering-policy", "fifo").set("root.a.ordering-policy", "utilization"));
  EXPECT_THAT(error, HasSubstr("root.ordering-policy': Unable to construct queue ordering "
                               "policy=fifo queue=root"));
  EXPECT_THAT(error, HasSubstr("root.a.ordering-policy': Unable to construct ordering policy for: "
                               "utilization"));
}

TEST(QueueSettings, DefaultApplicationPriorityIsCappedByTheCluster) {
  CapacityConfig cfg = parseOk(twoLeaves()
                                   .raw("yarn.cluster.max-application-priority", "5")
                                   .set("root.a.default-application-priority", "9")
                                   .set("root.b.default-application-priority", "3")
                                   .set("root.b.priority", "2"));
  EXPECT_EQ(cfg.clusterMaxApplicationPriority, 5);
  EXPECT_EQ(cfg.queue("root.a").defaultApplicationPriority, 5);
  EXPECT_EQ(cfg.queue("root.b").defaultApplicationPriority, 3);
  EXPECT_EQ(cfg.queue("root.b").priority, 2);
}

// TestCapacityScheduler.testQueueMaximumAllocations (the maximum-allocation-mb/-vcores queue keys).
TEST(QueueSettings, MaximumAllocationInheritsAndOverrides) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .raw("yarn.scheduler.maximum-allocation-mb", "16384")
                                   .raw("yarn.scheduler.maximum-allocation-vcores", "32")
                                   .queues("root", "a,b")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .set("root.a.maximum-allocation-mb", "4096")
                                   .queues("root.a", "a1")
                                   .cap("root.a.a1", "100")
                                   .set("root.b.maximum-allocation", "memory-mb=8G,vcores=2")
                                   .set("root.b.maximum-allocation-mb", "1024"));
  EXPECT_EQ(cfg.queue("root").maximumAllocation.get(kMemoryIndex), 16384);
  EXPECT_EQ(cfg.queue("root.a").maximumAllocation.get(kMemoryIndex), 4096);
  EXPECT_EQ(cfg.queue("root.a").maximumAllocation.get(kVcoresIndex), 32);
  EXPECT_EQ(cfg.queue("root.a.a1").maximumAllocation.get(kMemoryIndex), 4096) << "inherited";
  EXPECT_EQ(cfg.queue("root.b").maximumAllocation.get(kMemoryIndex), 8192)
      << "maximum-allocation wins over maximum-allocation-mb";
  EXPECT_EQ(cfg.queue("root.b").maximumAllocation.get(kVcoresIndex), 2);
}

TEST(QueueSettings, MaximumAllocationAboveClusterIsAnError) {
  std::string error = parseError(twoLeaves()
                                     .set("root.a.maximum-allocation-mb", "16384")
                                     .set("root.b.maximum-allocation", "vcores=8"));
  EXPECT_THAT(error, HasSubstr("root.a.maximum-allocation-mb': Queue maximum allocation cannot be "
                               "larger than the cluster setting for queue root.a max allocation "
                               "per queue: <memory:16384, vCores:4> cluster setting: "
                               "<memory:8192, vCores:4>"));
  EXPECT_THAT(error, HasSubstr("root.b.maximum-allocation': Queue maximum allocation cannot be "
                               "larger than the cluster setting for queue root.b"));
}

TEST(QueueSettings, NonPositiveMaximumAllocationIsAnError) {
  std::string error = parseError(twoLeaves().set("root.a.maximum-allocation-vcores", "0"));
  EXPECT_THAT(error, HasSubstr("root.a.maximum-allocation-vcores': must be > 0, or -1 for the "
                               "parent's maximum; got 0"));
}

TEST(QueueSettings, PreemptionSwitchesAreInherited) {
  CapacityConfig cfg =
      parseOk(CsConf()
                  .queues("root", "a,b")
                  .cap("root.a", "50")
                  .cap("root.b", "50")
                  .queues("root.a", "a1,a2")
                  .cap("root.a.a1", "50")
                  .cap("root.a.a2", "50")
                  .set("root.a.disable_preemption", "true")
                  .set("root.a.a2.disable_preemption", "false")
                  .set("root.a.intra-queue-preemption.disable_preemption", "true"));
  EXPECT_TRUE(cfg.queue("root.a.a1").disablePreemption);
  EXPECT_FALSE(cfg.queue("root.a.a2").disablePreemption);
  EXPECT_FALSE(cfg.queue("root.b").disablePreemption);
  EXPECT_TRUE(cfg.queue("root.a.a2").intraQueueDisablePreemption);
  EXPECT_FALSE(cfg.queue("root.b").intraQueueDisablePreemption);
}

TEST(QueueSettings, TypedValueErrorsNameThePropertyAndValue) {
  std::string error = parseError(twoLeaves()
                                     .set("root.a.disable_preemption", "yes")
                                     .set("root.b.maximum-applications", "many"));
  EXPECT_THAT(error, HasSubstr("root.a.disable_preemption': expected true or false, got 'yes'"));
  EXPECT_THAT(error, HasSubstr("root.b.maximum-applications'"));
  EXPECT_THAT(error, HasSubstr("many"));
}

TEST(QueueSettings, ReservableMarksALeafAndIsRefusedOnAParent) {
  CapacityConfig cfg = parseOk(twoLeaves().set("root.a.reservable", "true"));
  EXPECT_TRUE(cfg.queue("root.a").reservable);
  EXPECT_FALSE(cfg.queue("root.b").reservable);
  std::string error = parseError(CsConf()
                                     .queues("root", "p")
                                     .cap("root.p", "100")
                                     .queues("root.p", "c")
                                     .cap("root.p.c", "100")
                                     .set("root.p.reservable", "true"));
  EXPECT_NE(error.find("yarn.scheduler.capacity.root.p.reservable"), std::string::npos) << error;
  EXPECT_NE(error.find("Only Leaf Queues can be reservable for root.p"), std::string::npos)
      << error;
  EXPECT_NE(parseError(twoLeaves().set("root.a.reservable", "maybe")), "");
}

}  // namespace
}  // namespace spindle
