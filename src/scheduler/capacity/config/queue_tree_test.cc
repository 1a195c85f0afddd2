#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/config/test_builder.h"

namespace spindle {
namespace {

using testing::CsConf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::parseError;
using testing::parseOk;

// SLS's sample capacity-scheduler.xml (hadoop-tools/hadoop-sls), as an operator would point
// Spindle at it; reservable / show-reservations-as-queues belong to the reservation system.
constexpr std::string_view kSlsSample = R"(<?xml version="1.0"?>
<configuration>
  <property>
    <name>yarn.scheduler.capacity.root.queues</name>
    <value>sls_queue_1,sls_queue_2,sls_queue_3</value>
  </property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_1.capacity</name><value>25</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_1.maximum-capacity</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_1.reservable</name><value>true</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_1.show-reservations-as-queues</name><value>true</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_2.capacity</name><value>25</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_2.maximum-capacity</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_3.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.sls_queue_3.maximum-capacity</name><value>100</value></property>
</configuration>
)";

Result<CapacityConfig> parseXml(std::string_view xml) {
  Configuration conf = Configuration::parseString(xml, "capacity-scheduler.xml").value();
  ResourceTypes types;
  AllocationBounds bounds = allocationBoundsFromConfig(conf, types, false).value();
  return parseCapacityConfig(conf, types, bounds, {});
}

TEST(QueueTree, SlsSampleConfigHasThreeLeavesAt25_25_50) {
  Result<CapacityConfig> cfg = parseXml(kSlsSample);
  ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
  EXPECT_THAT(cfg->preorder,
              ElementsAre("root", "root.sls_queue_1", "root.sls_queue_2", "root.sls_queue_3"));
  EXPECT_THAT(cfg->queue("root").children,
              ElementsAre("root.sls_queue_1", "root.sls_queue_2", "root.sls_queue_3"));
  const QueueConfig& q1 = cfg->queue("root.sls_queue_1");
  EXPECT_TRUE(q1.isLeaf());
  EXPECT_EQ(q1.name, "sls_queue_1");
  EXPECT_EQ(q1.parent, "root");
  EXPECT_FLOAT_EQ(q1.partition("").absoluteCapacity, 0.25f);
  EXPECT_FLOAT_EQ(cfg->queue("root.sls_queue_2").partition("").absoluteCapacity, 0.25f);
  EXPECT_FLOAT_EQ(cfg->queue("root.sls_queue_3").partition("").absoluteCapacity, 0.5f);
  EXPECT_FLOAT_EQ(q1.partition("").absoluteMaximumCapacity, 1.0f);
  EXPECT_TRUE(cfg->warnings.empty()) << cfg->warnings.front();
}

TEST(QueueTree, ChildNamesAreTrimmedAndPreorderIsDepthFirst) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", " a , b ")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .queues("root.a", "a1,a2")
                                   .cap("root.a.a1", "30")
                                   .cap("root.a.a2", "70"));
  EXPECT_THAT(cfg.preorder, ElementsAre("root", "root.a", "root.a.a1", "root.a.a2", "root.b"));
  EXPECT_FALSE(cfg.queue("root.a").isLeaf());
  EXPECT_TRUE(cfg.queue("root.a.a2").isLeaf());
}

TEST(QueueTree, UniqueLeafNamesResolveByShortName) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .queues("root.a", "x,y")
                                   .cap("root.a.x", "50")
                                   .cap("root.a.y", "50")
                                   .queues("root.b", "x,z")
                                   .cap("root.b.x", "50")
                                   .cap("root.b.z", "50"));
  ASSERT_NE(cfg.find("y"), nullptr);
  EXPECT_EQ(cfg.find("y")->path, "root.a.y");
  EXPECT_EQ(cfg.find("z")->path, "root.b.z");
  EXPECT_EQ(cfg.find("x"), nullptr) << "x names two leaves";
  EXPECT_EQ(cfg.find("root.b.x")->path, "root.b.x");
  EXPECT_EQ(cfg.find("a"), nullptr) << "parents are found by full path only";
  EXPECT_EQ(cfg.find("root.a")->path, "root.a");
  EXPECT_EQ(cfg.leafByName.count("x"), 0u);
}

TEST(QueueTree, RootWithoutChildrenIsAnError) {
  std::string error = parseError(CsConf().set("maximum-applications", "5"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.queues"));
  EXPECT_THAT(error, HasSubstr("Queue configuration missing child queue names for root"));
}

TEST(QueueTree, DuplicateChildNameIsAnError) {
  std::string error =
      parseError(CsConf().queues("root", "a,b,a").cap("root.a", "50").cap("root.b", "50"));
  EXPECT_THAT(error, HasSubstr("property 'yarn.scheduler.capacity.root.queues'"));
  EXPECT_THAT(error, HasSubstr("Duplicate child queue name 'a' in child queues of root"));
}

TEST(QueueTree, ChildNameWithDotIsAnError) {
  std::string error = parseError(CsConf().queues("root", "a.b"));
  EXPECT_THAT(error, HasSubstr("Illegal queue name 'a.b'"));
}

TEST(QueueTree, QueuesKeyOutsideRootIsAnError) {
  std::string error =
      parseError(CsConf().queues("root", "a").cap("root.a", "100").queues("b", "c"));
  EXPECT_THAT(error, HasSubstr("property 'yarn.scheduler.capacity.b.queues'"));
  EXPECT_THAT(error, HasSubstr("queue path 'b' must start with root"));
}

TEST(QueueTree, KeysOfQueuesOutsideTheTreeAreWarnedAbout) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a")
                                   .cap("root.a", "100")
                                   .cap("root.typo", "10")
                                   .set("root.a.capacty", "5"));
  ASSERT_EQ(cfg.warnings.size(), 2u);
  EXPECT_THAT(cfg.warnings[0], HasSubstr("yarn.scheduler.capacity.root.a.capacty"));
  EXPECT_THAT(cfg.warnings[0], HasSubstr("'capacty' is neither a child queue listed in "
                                         "yarn.scheduler.capacity.root.a.queues"));
  EXPECT_THAT(cfg.warnings[1], HasSubstr("'typo' is neither a child queue"));
}

TEST(QueueTree, HierarchyDeeperThan64LevelsIsAnError) {
  // root.q.q...q, 100 levels: each level's path repeats its parent's, so an unbounded depth
  // costs memory quadratic in it.
  CsConf c;
  std::string path = "root";
  for (int level = 1; level < 100; ++level) {
    c.queues(path, "q");
    path += ".q";
    c.cap(path, "100");
  }
  std::string error = parseError(c);
  EXPECT_THAT(error, HasSubstr("nested deeper than 64 levels (root is level 1)"));
  // The error names the key that lists the 65th level.
  std::string parent = "root";
  for (int level = 2; level < 65; ++level) parent += ".q";
  EXPECT_THAT(error, HasSubstr("property 'yarn.scheduler.capacity." + parent + ".queues'"));
  // 64 levels are fine.
  CsConf ok;
  path = "root";
  for (int level = 1; level < 64; ++level) {
    ok.queues(path, "q");
    path += ".q";
    ok.cap(path, "100");
  }
  EXPECT_EQ(parseOk(ok).queues.size(), 64u);
}

TEST(QueueTree, AllErrorsAreReportedTogetherWithFileAndLine) {
  constexpr std::string_view xml = R"(<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>120</value></property>
  <property><name>yarn.scheduler.capacity.root.b.state</name><value>PAUSED</value></property>
  <property><name>yarn.scheduler.capacity.queue-mappings</name><value>x:y</value></property>
</configuration>)";
  Result<CapacityConfig> cfg = parseXml(xml);
  ASSERT_FALSE(cfg.isOk());
  const std::string& m = cfg.status().message();
  EXPECT_THAT(m, HasSubstr("capacity-scheduler.xml:3: property "
                           "'yarn.scheduler.capacity.root.a.capacity': Illegal capacity of 120.0 "
                           "for queue root.a"));
  EXPECT_THAT(m, HasSubstr("capacity-scheduler.xml:4: property "
                           "'yarn.scheduler.capacity.root.b.state': invalid queue state 'PAUSED'"));
  EXPECT_THAT(m, HasSubstr("capacity-scheduler.xml:5: property "
                           "'yarn.scheduler.capacity.queue-mappings': Illegal queue mapping x:y"));
  EXPECT_GE(std::count(m.begin(), m.end(), '\n'), 2);
}

}  // namespace
}  // namespace spindle
