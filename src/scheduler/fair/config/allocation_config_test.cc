// The allocation file parser (AllocationFileParser / AllocationFileQueueParser behaviour):
// every element, defaults and inheritance, policy placement (FP-3, FP-4), placement policies in
// XML (QP-4, FS-13), and errors that name the file, line and element.
#include "scheduler/fair/config/allocation_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace spindle::fair {
namespace {

Result<AllocationConfig> parse(const std::string& body, const FairSiteConfig& site = {}) {
  return parseAllocationText("<?xml version=\"1.0\"?>\n<allocations>\n" + body + "</allocations>\n",
                             "fair-scheduler.xml", ResourceTypes(), site);
}

AllocationConfig parseOk(const std::string& body, const FairSiteConfig& site = {}) {
  auto r = parse(body, site);
  EXPECT_TRUE(r.isOk()) << r.status().message();
  return r.isOk() ? r.value() : AllocationConfig();
}

// Error messages, one per line.
std::string errors(const std::string& body) {
  auto r = parse(body);
  EXPECT_FALSE(r.isOk());
  return r.isOk() ? std::string() : r.status().message();
}

TEST(AllocationConfigTest, EveryQueueElement) {
  auto types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}});
  ASSERT_TRUE(types.isOk());
  auto r = parseAllocationText(R"(<allocations>
  <queue name="a">
    <minResources>1024 mb, 1 vcores</minResources>
    <maxResources>memory-mb=8192, vcores=8, yarn.io/gpu=2</maxResources>
    <maxContainerAllocation>memory-mb=4096, vcores=2</maxContainerAllocation>
    <maxRunningApps>7</maxRunningApps>
    <maxAMShare>0.3</maxAMShare>
    <weight>2.5</weight>
    <schedulingPolicy>drf</schedulingPolicy>
    <allowPreemptionFrom>false</allowPreemptionFrom>
    <minSharePreemptionTimeout>3</minSharePreemptionTimeout>
    <fairSharePreemptionTimeout>4</fairSharePreemptionTimeout>
    <fairSharePreemptionThreshold>1.7</fairSharePreemptionThreshold>
    <aclSubmitApps>alice,bob admins</aclSubmitApps>
    <aclAdministerApps> ops</aclAdministerApps>
    <aclAdministerReservations>alice</aclAdministerReservations>
    <aclListReservations>*</aclListReservations>
    <aclSubmitReservations>bob</aclSubmitReservations>
    <reservation></reservation>
  </queue>
  <pool name="p" type="parent">
    <maxChildResources>50%</maxChildResources>
    <schedulingMode>fair</schedulingMode>
  </pool>
</allocations>)",
                               "fs.xml", *types, FairSiteConfig());
  ASSERT_TRUE(r.isOk()) << r.status().message();
  const FairQueueConfig& a = r->queue("root.a");
  EXPECT_TRUE(a.declared);
  EXPECT_EQ(a.line, 2);
  EXPECT_TRUE(a.isLeaf());
  const Resource cluster = Resource::of(100000, 100);
  EXPECT_EQ(a.minShare(cluster, 3), Resource::of(1024, 1));
  ResourceLimit max = a.maxShare(cluster, 3);
  EXPECT_EQ(max.get(0), 8192);
  EXPECT_EQ(max.get(1), 8);
  EXPECT_EQ(max.get(2), 2);
  ASSERT_TRUE(a.maxContainerAllocation.has_value());
  EXPECT_EQ(a.maxContainerAllocation->memoryMb(), 4096);
  EXPECT_EQ(a.maxRunningApps, 7);
  EXPECT_FLOAT_EQ(a.maxAMShare, 0.3f);
  EXPECT_FLOAT_EQ(a.weight, 2.5f);
  EXPECT_EQ(a.policy, PolicyKind::kDrf);
  EXPECT_FALSE(a.allowPreemptionFrom);
  EXPECT_EQ(a.minSharePreemptionTimeoutMs, 3000);
  EXPECT_EQ(a.fairSharePreemptionTimeoutMs, 4000);
  EXPECT_FLOAT_EQ(a.fairSharePreemptionThreshold, 1.0f);  // clamped
  EXPECT_TRUE(a.submitAcl.allows("alice", {}));
  EXPECT_TRUE(a.submitAcl.allows("carol", {"admins"}));
  EXPECT_FALSE(a.submitAcl.allows("carol", {}));
  EXPECT_TRUE(a.administerAcl.allows("x", {"ops"}));
  EXPECT_FALSE(a.administerAcl.allows("ops", {}));  // leading space: groups only
  EXPECT_EQ(a.aclAdministerReservations, "alice");
  EXPECT_EQ(a.aclListReservations, "*");
  EXPECT_EQ(a.aclSubmitReservations, "bob");
  EXPECT_TRUE(a.reservation);
  const FairQueueConfig& p = r->queue("root.p");
  EXPECT_TRUE(p.isParent);
  ASSERT_TRUE(p.maxChildResources.has_value());
  EXPECT_EQ(p.maxChildResources->resolve(cluster, 3).memoryMb(), 50000);
  EXPECT_EQ(p.policy, PolicyKind::kFair);
  EXPECT_EQ(r->configuredQueues.leaves, (std::set<std::string>{"root.a"}));
  EXPECT_EQ(r->configuredQueues.parents, (std::set<std::string>{"root.p"}));
  EXPECT_EQ(r->preorder, (std::vector<std::string>{"root", "root.a", "root.p", "root.default"}));
}

TEST(AllocationConfigTest, QueueNestingDeeperThan64LevelsIsRefusedWithItsLine) {
  // Generated: 2,000 nested <queue> elements, one per line (line 3 holds the first).
  std::string body;
  for (int i = 0; i < 2000; ++i) body += "<queue name=\"q\">\n";
  for (int i = 0; i < 2000; ++i) body += "</queue>\n";
  const std::string e = errors(body);
  // root is level 1, the first <queue> level 2: the 64th <queue> (line 66) is level 65.
  EXPECT_NE(e.find("fair-scheduler.xml:66:"), std::string::npos) << e;
  EXPECT_NE(e.find("nested deeper than 64 levels"), std::string::npos) << e;
  EXPECT_LT(e.size(), 2000u) << "one error, not one per level";
  // 63 nested <queue>s (64 levels with root) are fine.
  body.clear();
  for (int i = 0; i < 63; ++i) body += "<queue name=\"q\">\n";
  for (int i = 0; i < 63; ++i) body += "</queue>\n";
  EXPECT_TRUE(parse(body).isOk());
}

TEST(AllocationConfigTest, AclsAreCheckedUpTheAncestorChain) {
  AllocationConfig open = parseOk("<queue name=\"a\"/>\n");
  EXPECT_TRUE(open.hasAccess("root.a", QueueAcl::kSubmitApplications, "anyone", {}));
  AllocationConfig closed = parseOk(R"(
  <queue name="root">
    <aclSubmitApps> </aclSubmitApps>
    <aclAdministerApps>boss</aclAdministerApps>
    <queue name="a"><aclSubmitApps>alice</aclSubmitApps>
      <queue name="a1"><aclSubmitApps> devs</aclSubmitApps></queue>
    </queue>
  </queue>
)");
  EXPECT_TRUE(closed.hasAccess("root.a.a1", QueueAcl::kSubmitApplications, "alice", {}));
  EXPECT_TRUE(closed.hasAccess("root.a.a1", QueueAcl::kSubmitApplications, "carl", {"devs"}));
  EXPECT_FALSE(closed.hasAccess("root.a", QueueAcl::kSubmitApplications, "carl", {"devs"}));
  EXPECT_TRUE(closed.hasAccess("root.a", QueueAcl::kSubmitApplications, "boss", {}));
  EXPECT_FALSE(closed.hasAccess("root.a", QueueAcl::kAdministerQueue, "alice", {}));
  EXPECT_FALSE(closed.hasAccess("root.nope", QueueAcl::kSubmitApplications, "boss", {}));
}

TEST(AllocationConfigTest, DefaultsWithoutAFile) {
  AllocationConfig cfg = emptyAllocation(FairSiteConfig());
  ASSERT_NE(cfg.find("root"), nullptr);
  const FairQueueConfig& def = cfg.queue("root.default");
  EXPECT_FALSE(def.declared);
  EXPECT_TRUE(def.isLeaf());
  EXPECT_FLOAT_EQ(def.weight, 1.0f);
  EXPECT_EQ(def.maxRunningApps, INT32_MAX);
  EXPECT_FLOAT_EQ(def.maxAMShare, 0.5f);
  EXPECT_EQ(def.policy, PolicyKind::kFair);
  EXPECT_EQ(def.minSharePreemptionTimeoutMs, kNoTimeout);
  EXPECT_EQ(def.fairSharePreemptionTimeoutMs, kNoTimeout);
  EXPECT_FLOAT_EQ(def.fairSharePreemptionThreshold, 0.5f);
  EXPECT_TRUE(def.allowPreemptionFrom);
  EXPECT_FALSE(def.maxShare(Resource::of(1, 1), 2).isBounded(0));
  EXPECT_TRUE(cfg.queue("root").submitAcl.everyone);
  EXPECT_FALSE(def.submitAcl.allows("anyone", {"any"}));
  EXPECT_EQ(cfg.maxRunningAppsOfUser("u"), INT32_MAX);
  EXPECT_FALSE(cfg.placementPolicyFromFile);
  EXPECT_EQ(cfg.placementPolicy.rules.size(), 2u);  // specified, user
}

TEST(AllocationConfigTest, TopLevelDefaultsApplyToQueues) {
  AllocationConfig cfg = parseOk(R"(
  <queueMaxAppsDefault>15</queueMaxAppsDefault>
  <queueMaxResourcesDefault>4096 mb, 4 vcores</queueMaxResourcesDefault>
  <queueMaxAMShareDefault>2.0</queueMaxAMShareDefault>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <userMaxAppsDefault>5</userMaxAppsDefault>
  <user name="alice"><maxRunningApps>9</maxRunningApps></user>
  <queue name="a"><maxRunningApps>3</maxRunningApps></queue>
  <queue name="b"/>
  <reservation-agent>my.Agent</reservation-agent>
)");
  EXPECT_EQ(cfg.queue("root.a").maxRunningApps, 3);
  EXPECT_EQ(cfg.queue("root.b").maxRunningApps, 15);
  EXPECT_FLOAT_EQ(cfg.queue("root.b").maxAMShare, 1.0f);  // capped at 1.0
  EXPECT_EQ(cfg.queue("root.b").policy, PolicyKind::kDrf);
  EXPECT_EQ(cfg.queue("root.b").maxShare(Resource::of(100000, 100), 2).get(0), 4096);
  EXPECT_FALSE(cfg.queue("root").maxShare(Resource::of(100000, 100), 2).isBounded(0));
  EXPECT_EQ(cfg.maxRunningAppsOfUser("alice"), 9);
  EXPECT_EQ(cfg.maxRunningAppsOfUser("bob"), 5);
  EXPECT_EQ(cfg.reservationAgent, "my.Agent");
}

// testPreemptionDecisionWithVariousTimeout: the resulting timeouts in ms.
TEST(AllocationConfigTest, PreemptionTimeoutsInherit) {
  AllocationConfig cfg = parseOk(R"(
  <defaultMinSharePreemptionTimeout>15</defaultMinSharePreemptionTimeout>
  <defaultFairSharePreemptionTimeout>30</defaultFairSharePreemptionTimeout>
  <queue name="queueA"/>
  <queue name="queueB">
    <minSharePreemptionTimeout>10</minSharePreemptionTimeout>
    <fairSharePreemptionTimeout>25</fairSharePreemptionTimeout>
    <queue name="queueB1"><minSharePreemptionTimeout>5</minSharePreemptionTimeout></queue>
    <queue name="queueB2"><fairSharePreemptionTimeout>20</fairSharePreemptionTimeout></queue>
  </queue>
  <queue name="queueC"/>
)");
  const std::vector<std::tuple<std::string, int64_t, int64_t>> expected{
      {"root", 30000, 15000},
      {"root.default", 30000, 15000},
      {"root.queueA", 30000, 15000},
      {"root.queueB", 25000, 10000},
      {"root.queueB.queueB1", 25000, 5000},
      {"root.queueB.queueB2", 20000, 10000},
      {"root.queueC", 30000, 15000}};
  for (const auto& [queue, fair, min] : expected) {
    EXPECT_EQ(cfg.queue(queue).fairSharePreemptionTimeoutMs, fair) << queue;
    EXPECT_EQ(cfg.queue(queue).minSharePreemptionTimeoutMs, min) << queue;
  }
}

TEST(AllocationConfigTest, ThresholdAndAllowPreemptionFromInherit) {
  AllocationConfig cfg = parseOk(R"(
  <defaultFairSharePreemptionThreshold>0.6</defaultFairSharePreemptionThreshold>
  <queue name="a">
    <fairSharePreemptionThreshold>-3</fairSharePreemptionThreshold>
    <allowPreemptionFrom>false</allowPreemptionFrom>
    <queue name="a1"><allowPreemptionFrom>true</allowPreemptionFrom></queue>
  </queue>
  <queue name="b"/>
)");
  EXPECT_FLOAT_EQ(cfg.queue("root").fairSharePreemptionThreshold, 0.6f);
  EXPECT_FLOAT_EQ(cfg.queue("root.b").fairSharePreemptionThreshold, 0.6f);
  EXPECT_FLOAT_EQ(cfg.queue("root.a").fairSharePreemptionThreshold, 0.0f);
  EXPECT_FLOAT_EQ(cfg.queue("root.a.a1").fairSharePreemptionThreshold, 0.0f);
  EXPECT_FALSE(cfg.queue("root.a.a1").allowPreemptionFrom);
  EXPECT_TRUE(cfg.queue("root.b").allowPreemptionFrom);
}

TEST(AllocationConfigTest, LegacyFairSharePreemptionTimeoutOnlyWhenDefaultAbsent) {
  EXPECT_EQ(parseOk("<fairSharePreemptionTimeout>7</fairSharePreemptionTimeout>\n")
                .queue("root")
                .fairSharePreemptionTimeoutMs,
            7000);
  EXPECT_EQ(parseOk("<fairSharePreemptionTimeout>7</fairSharePreemptionTimeout>\n"
                    "<defaultFairSharePreemptionTimeout>9</defaultFairSharePreemptionTimeout>\n")
                .queue("root")
                .fairSharePreemptionTimeoutMs,
            9000);
}

TEST(AllocationConfigTest, ExplicitRootQueue) {
  AllocationConfig cfg = parseOk(R"(
  <queue name="root">
    <schedulingPolicy>drf</schedulingPolicy>
    <queue name="child1"><weight>1</weight></queue>
    <queue name="child2"><weight>2</weight></queue>
  </queue>
)");
  EXPECT_TRUE(cfg.queue("root").declared);
  EXPECT_EQ(cfg.queue("root").policy, PolicyKind::kDrf);
  EXPECT_EQ(cfg.queue("root").children,
            (std::vector<std::string>{"root.child1", "root.child2", "root.default"}));
  EXPECT_FLOAT_EQ(cfg.queue("root.child2").weight, 2.0f);
  EXPECT_TRUE(cfg.configuredQueues.parents.count("root") > 0);
}

TEST(AllocationConfigTest, FP3_DrfChildOfFairParentIsNotCreated) {
  AllocationConfig cfg = parseOk(R"(
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <queue name="root">
    <schedulingPolicy>fair</schedulingPolicy>
    <queue name="child1"><schedulingPolicy>drf</schedulingPolicy></queue>
    <queue name="child2"><schedulingPolicy>fair</schedulingPolicy></queue>
  </queue>
)");
  EXPECT_FALSE(cfg.queue("root.child1").policyAllowed);
  EXPECT_TRUE(cfg.queue("root.child2").policyAllowed);
  ASSERT_FALSE(cfg.warnings.empty());
  EXPECT_NE(cfg.warnings.front().find("root.child1 uses policy DRF"), std::string::npos);
}

TEST(AllocationConfigTest, FP4_FifoOnlyOnLeavesAndViolationsRemoveSubtrees) {
  AllocationConfig case1 = parseOk(R"(
  <queue name="intermediate"><schedulingPolicy>fifo</schedulingPolicy>
    <queue name="leaf"><schedulingPolicy>fair</schedulingPolicy></queue></queue>
)");
  EXPECT_FALSE(case1.queue("root.intermediate").policyAllowed);
  EXPECT_FALSE(case1.queue("root.intermediate.leaf").policyAllowed);
  AllocationConfig case2 = parseOk(R"(
  <queue name="intermediate"><schedulingPolicy>fair</schedulingPolicy>
    <queue name="leaf"><schedulingPolicy>fifo</schedulingPolicy></queue></queue>
)");
  EXPECT_TRUE(case2.queue("root.intermediate").policyAllowed);
  EXPECT_TRUE(case2.queue("root.intermediate.leaf").policyAllowed);
  AllocationConfig case3 = parseOk(R"(
  <queue name="root"><schedulingPolicy>fair</schedulingPolicy>
    <queue name="level2"><schedulingPolicy>fair</schedulingPolicy>
      <queue name="level3"><schedulingPolicy>drf</schedulingPolicy>
        <queue name="leaf"><schedulingPolicy>fair</schedulingPolicy></queue>
      </queue>
    </queue>
  </queue>
)");
  EXPECT_TRUE(case3.queue("root.level2").policyAllowed);
  EXPECT_FALSE(case3.queue("root.level2.level3").policyAllowed);
  EXPECT_FALSE(case3.queue("root.level2.level3.leaf").policyAllowed);
}

TEST(AllocationConfigTest, PlacementPolicyFromXml) {
  AllocationConfig cfg = parseOk(R"(
  <queue name="parentq" type="parent"><minResources>1024mb,0vcores</minResources></queue>
  <queuePlacementPolicy>
    <rule name="nestedUserQueue"><rule name="specified" create="false"/></rule>
    <rule name="default" queue="fallback"/>
  </queuePlacementPolicy>
)");
  ASSERT_TRUE(cfg.placementPolicyFromFile);
  ASSERT_EQ(cfg.placementPolicy.rules.size(), 2u);
  EXPECT_EQ(cfg.placementPolicy.rules[1].defaultQueue, "root.fallback");
  SimpleGroupsMapping groups;
  // FS-13: submissions to root.parentq by user1 and user2 land in per-user queues under it.
  auto p1 =
      assignAppToQueue(cfg.placementPolicy, "root.parentq", "user1", groups, cfg.configuredQueues);
  ASSERT_TRUE(p1.isOk());
  EXPECT_EQ(p1->queue, "root.parentq.user1");
  auto p3 =
      assignAppToQueue(cfg.placementPolicy, "root.default", "user3", groups, cfg.configuredQueues);
  ASSERT_TRUE(p3.isOk());
  EXPECT_EQ(p3->queue, "root.fallback");
}

TEST(AllocationConfigTest, QP4_PlacementErrorsNameTheLine) {
  EXPECT_EQ(errors(R"(<queuePlacementPolicy>
  <rule name="specified"/>
  <rule name="user" create="false"/>
</queuePlacementPolicy>
)"),
            "fair-scheduler.xml:3: <queuePlacementPolicy>: Could get past last queue placement "
            "rule without assigning");
  EXPECT_EQ(errors(R"(<queuePlacementPolicy>
  <rule name="specified"/>
  <rule name="default"/>
  <rule name="user"/>
</queuePlacementPolicy>
)"),
            "fair-scheduler.xml:3: <queuePlacementPolicy>: Rules after rule 1 in queue placement "
            "policy can never be reached");
  EXPECT_NE(errors("<queuePlacementPolicy><rule name=\"bogus\"/></queuePlacementPolicy>\n")
                .find("fair-scheduler.xml:3: <rule> (queuePlacementPolicy): No rule class found "
                      "for bogus"),
            std::string::npos);
  EXPECT_NE(errors("<queuePlacementPolicy><rule/></queuePlacementPolicy>\n")
                .find("No name provided for a rule element"),
            std::string::npos);
  EXPECT_NE(errors("<queuePlacementPolicy><rule name=\"nestedUserQueue\"/><rule "
                   "name=\"default\"/></queuePlacementPolicy>\n")
                .find("No nested rule specified in <nestedUserQueue> rule"),
            std::string::npos);
  EXPECT_NE(errors("<queuePlacementPolicy><rule name=\"user\" create=\"maybe\"/>"
                   "</queuePlacementPolicy>\n")
                .find("attribute create: 'maybe' is not a boolean"),
            std::string::npos);
}

TEST(AllocationConfigTest, AllErrorsAreReportedWithLineAndElement) {
  const std::string message = errors(R"(<queue name="a">
  <maxResources>1024</maxResources>
  <weight>heavy</weight>
</queue>
<queue name="b.c"/>
<queue name="p">
  <maxAMShare>0.2</maxAMShare>
  <reservation/>
  <queue name="q"><maxRunningApps>1.5</maxRunningApps></queue>
</queue>
<defaultQueueSchedulingPolicy>fifo</defaultQueueSchedulingPolicy>
<queueMaxAMShareDefault></queueMaxAMShareDefault>
<queue name="r"><schedulingPolicy>lottery</schedulingPolicy></queue>
)");
  const std::vector<std::string> expected{
      "fair-scheduler.xml:4: <maxResources> (queue root.a): Missing resource: mb",
      "fair-scheduler.xml:5: <weight> (queue root.a): 'heavy' is not a number",
      "fair-scheduler.xml:7: <queue>: Bad fair scheduler config file: queue name (b.c) "  // NOLINT
      "shouldn't contain period.",
      "fair-scheduler.xml:11: <maxRunningApps> (queue root.p.q): '1.5' is not an integer",
      "fair-scheduler.xml:8: <queue> (queue root.p): The configuration settings for root.p are "
      "invalid. A queue element that contains child queue elements or that has the "
      "type='parent' attribute cannot also include a reservation element.",
      "fair-scheduler.xml:8: <queue> (queue root.p): The configuration settings for root.p are "
      "invalid. A queue element that contains child queue elements or that has the "
      "type='parent' attribute cannot also include a maxAMShare element.",
      "fair-scheduler.xml:13: <defaultQueueSchedulingPolicy>: Bad fair scheduler config file: "
      "defaultQueueSchedulingPolicy or defaultQueueSchedulingMode can't be FIFO.",
      "fair-scheduler.xml:14: <queueMaxAMShareDefault>: the element has no value",
      "fair-scheduler.xml:15: <schedulingPolicy> (queue root.r): lottery SchedulingPolicy class "
      "not found!",
  };
  for (const std::string& e : expected) {
    EXPECT_NE(message.find(e), std::string::npos) << "missing: " << e << "\nin:\n" << message;
  }
}

TEST(AllocationConfigTest, RootMustBeAloneAndNamesMustBeValid) {
  EXPECT_NE(errors("<queue name=\"root\"/>\n<queue name=\"a\"/>\n")
                .find("If configuring root queue, no other queues can be placed alongside it."),
            std::string::npos);
  EXPECT_NE(errors("<queue name=\"  \"/>\n").find("queue name shouldn't be empty"),
            std::string::npos);
  EXPECT_NE(errors("<queue name=\"a\"/>\n<queue name=\"a\"/>\n")
                .find("queue root.a is declared twice (first at line 3)"),
            std::string::npos);
  EXPECT_NE(errors("<queue name=\"root\"><maxContainerAllocation>1024 mb, 1 vcores"
                   "</maxContainerAllocation></queue>\n")
                .find("maxContainerAllocation is not valid for the root queue"),
            std::string::npos);
  // Names are trimmed.
  EXPECT_NE(parseOk("<queue name=\" spaced \"/>\n").find("root.spaced"), nullptr);
}

TEST(AllocationConfigTest, UserAndEmptyValueErrors) {
  const std::string message = errors(R"(<user><maxRunningApps>3</maxRunningApps></user>
<user name="bob"><maxRunningApps>lots</maxRunningApps></user>
<queue name="a"><weight/></queue>
)");
  EXPECT_NE(message.find("fair-scheduler.xml:3: <user>: a <user> element needs a name attribute"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("fair-scheduler.xml:4: <maxRunningApps> (user bob): 'lots' is not an "
                         "integer"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("fair-scheduler.xml:5: <weight> (queue root.a): the element has no value"),
            std::string::npos)
      << message;
}

TEST(AllocationConfigTest, DocumentLevelErrors) {
  auto wrongRoot = parseAllocationText("<configuration/>", "x.xml", ResourceTypes(), {});
  ASSERT_FALSE(wrongRoot.isOk());
  EXPECT_EQ(wrongRoot.status().message(),
            "x.xml:1: Bad fair scheduler config file: top-level element not <allocations>");
  auto malformed = parseAllocationText("<allocations>\n<queue name=\"a\">\n</allocations>", "x.xml",
                                       ResourceTypes(), {});
  ASSERT_FALSE(malformed.isOk());
  EXPECT_NE(malformed.status().message().find("x.xml:3: malformed XML"), std::string::npos);
}

TEST(AllocationConfigTest, WarningsForIgnoredElementsAndMaxBelowMin) {
  AllocationConfig cfg = parseOk(R"(<queueMaxAppsDefualt>3</queueMaxAppsDefualt>
<queue name="a">
  <minResources>2048 mb, 2 vcores</minResources>
  <maxResources>1024 mb, 4 vcores</maxResources>
  <colour>blue</colour>
</queue>
)");
  ASSERT_EQ(cfg.warnings.size(), 3u);
  EXPECT_EQ(cfg.warnings[0],
            "fair-scheduler.xml:3: <queueMaxAppsDefualt>: Bad element in "
            "allocations file, ignored");
  EXPECT_EQ(cfg.warnings[1],
            "fair-scheduler.xml:7: <colour> (queue root.a): Bad element in "
            "allocations file, ignored");
  EXPECT_NE(cfg.warnings[2].find("Queue root.a has max resources less than min resources"),
            std::string::npos);
  // The effective max share is raised to the min share.
  EXPECT_EQ(cfg.queue("root.a").maxShare(Resource::of(10000, 10), 2).get(0), 2048);
}

TEST(AllocationConfigTest, PlacementDefaultFollowsSiteKeys) {
  FairSiteConfig site;
  site.allowUndeclaredPools = false;
  AllocationConfig cfg = parseOk("<queue name=\"a\"/>\n", site);
  SimpleGroupsMapping groups;
  auto undeclared = assignAppToQueue(cfg.placementPolicy, "b", "u", groups, cfg.configuredQueues);
  ASSERT_TRUE(undeclared.isOk());
  EXPECT_EQ(undeclared->queue, "root.default");
  auto declared = assignAppToQueue(cfg.placementPolicy, "a", "u", groups, cfg.configuredQueues);
  ASSERT_TRUE(declared.isOk());
  EXPECT_EQ(declared->queue, "root.a");
}

TEST(AllocationConfigTest, FairSchedulerConfigFromFiles) {
  Configuration conf;
  auto none = parseFairSchedulerConfig(conf, ResourceTypes(), "");
  // fair-scheduler.xml is not in the working directory of the test: defaults are used.
  ASSERT_TRUE(none.isOk()) << none.status().message();
  EXPECT_NE(none->allocation.find("root.default"), nullptr);
  conf.set("yarn.scheduler.fair.allocation.file", "/nonexistent/fs.xml");
  auto missing = parseFairSchedulerConfig(conf, ResourceTypes());
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().message(), "cannot read allocation file /nonexistent/fs.xml");

  const std::string path = ::testing::TempDir() + "fs_config_test.xml";
  {
    std::ofstream out(path);
    out << "<allocations>\n  <queue name=\"x\"><weight>3</weight></queue>\n</allocations>\n";
  }
  conf.set("yarn.scheduler.fair.allocation.file", path);
  conf.set("yarn.scheduler.fair.preemption", "true");
  auto loaded = parseFairSchedulerConfig(conf, ResourceTypes());
  ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
  EXPECT_TRUE(loaded->site.preemption);
  EXPECT_FLOAT_EQ(loaded->allocation.queue("root.x").weight, 3.0f);
  std::remove(path.c_str());

  auto text = parseFairSchedulerConfigText(conf, ResourceTypes(),
                                           "<allocations><queue name=\"y\"/></allocations>", "t");
  ASSERT_TRUE(text.isOk());
  EXPECT_NE(text->allocation.find("root.y"), nullptr);
}

}  // namespace
}  // namespace spindle::fair
