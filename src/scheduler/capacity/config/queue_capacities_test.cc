#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/config/test_builder.h"

namespace spindle {
namespace {

using testing::CsConf;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::parseError;
using testing::parseOk;
using testing::testLeafQueueSetup;

const PartitionConfig& def(const CapacityConfig& cfg, const std::string& path) {
  return cfg.queue(path).partition("");
}

// Reference vectors CS-AM-1 (TestLeafQueue.testInitializeQueue): capacity, absCapacity,
// maxCapacity, absMaxCapacity of the common setup.
TEST(QueueCapacities, TestLeafQueueSetupGivesYarnsAbsoluteNumbers) {
  CapacityConfig cfg = parseOk(testLeafQueueSetup());
  const PartitionConfig& a = def(cfg, "root.newRoot.a");
  EXPECT_FLOAT_EQ(a.capacity.fraction, 0.085f);
  EXPECT_FLOAT_EQ(a.relativeCapacity, 0.085f);
  EXPECT_FLOAT_EQ(a.absoluteCapacity, 0.085f);
  EXPECT_FLOAT_EQ(a.maximumCapacity.fraction, 0.2f);
  EXPECT_FLOAT_EQ(a.absoluteMaximumCapacity, 0.2f);
  const PartitionConfig& b = def(cfg, "root.newRoot.b");
  EXPECT_FLOAT_EQ(b.absoluteCapacity, 0.8f);
  EXPECT_FLOAT_EQ(b.absoluteMaximumCapacity, 0.99f);
  const PartitionConfig& c = def(cfg, "root.newRoot.c");
  EXPECT_FLOAT_EQ(c.capacity.fraction, 0.015f);
  EXPECT_FLOAT_EQ(c.maximumCapacity.fraction, 0.1f);
  const PartitionConfig& c1 = def(cfg, "root.newRoot.c.c1");
  EXPECT_FLOAT_EQ(c1.absoluteCapacity, 0.015f);
  EXPECT_FLOAT_EQ(c1.absoluteMaximumCapacity, 0.1f);
  EXPECT_FLOAT_EQ(def(cfg, "root.newRoot.d").absoluteMaximumCapacity, 0.11f);
  EXPECT_FLOAT_EQ(def(cfg, "root.newRoot.e").absoluteCapacity, 0.01f);
  EXPECT_FLOAT_EQ(def(cfg, "root.newRoot.e").absoluteMaximumCapacity, 0.01f);
  EXPECT_FLOAT_EQ(def(cfg, "root").absoluteCapacity, 1.0f);
}

TEST(QueueCapacities, NestedPercentagesMultiply) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "40")
                                   .maxCap("root.a", "50")
                                   .cap("root.b", "60")
                                   .queues("root.a", "a1,a2")
                                   .cap("root.a.a1", "25")
                                   .maxCap("root.a.a1", "50")
                                   .cap("root.a.a2", "75"));
  EXPECT_FLOAT_EQ(def(cfg, "root.a.a1").absoluteCapacity, 0.1f);
  EXPECT_FLOAT_EQ(def(cfg, "root.a.a1").absoluteMaximumCapacity, 0.25f);
  EXPECT_FLOAT_EQ(def(cfg, "root.a.a2").absoluteCapacity, 0.3f);
  EXPECT_FLOAT_EQ(def(cfg, "root.a.a2").absoluteMaximumCapacity, 0.5f);
}

// Reference vector CS-CFG-1 (TestCapacityScheduler.testMaximumCapacitySetup): unset and -1
// read as 100.
TEST(QueueCapacities, MaximumCapacityDefaultsTo100WhenUnsetOrMinusOne) {
  for (auto [value, expected] : {std::pair{"", 1.0f}, {"50.0", 0.5f}, {"-1", 1.0f}}) {
    CsConf c;
    c.queues("root", "a,b").cap("root.a", "50").cap("root.b", "50");
    if (*value) c.maxCap("root.a", value);
    CapacityConfig cfg = parseOk(c);
    EXPECT_FLOAT_EQ(def(cfg, "root.a").maximumCapacity.fraction, expected) << value;
  }
}

TEST(QueueCapacities, WeightsNormaliseAmongSiblings) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b,c")
                                   .cap("root.a", "3w")
                                   .cap("root.b", "2.0w")
                                   .cap("root.c", "5w"));
  EXPECT_EQ(def(cfg, "root.a").capacity.mode, CapacityMode::kWeight);
  EXPECT_FLOAT_EQ(def(cfg, "root.a").capacity.weight, 3.0f);
  EXPECT_FLOAT_EQ(def(cfg, "root.a").capacity.fraction, 0.0f);
  EXPECT_FLOAT_EQ(def(cfg, "root.a").absoluteCapacity, 0.3f);
  EXPECT_FLOAT_EQ(def(cfg, "root.b").absoluteCapacity, 0.2f);
  EXPECT_FLOAT_EQ(def(cfg, "root.c").absoluteCapacity, 0.5f);
  EXPECT_FLOAT_EQ(def(cfg, "root.c").relativeCapacity, 0.5f);
}

TEST(QueueCapacities, WeightAndPercentMixAcrossLevels) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "1w")
                                   .cap("root.b", "3w")
                                   .queues("root.b", "b1,b2")
                                   .cap("root.b.b1", "20")
                                   .cap("root.b.b2", "80")
                                   .maxCap("root.b.b2", "90"));
  EXPECT_FLOAT_EQ(def(cfg, "root.b").absoluteCapacity, 0.75f);
  EXPECT_FLOAT_EQ(def(cfg, "root.b.b1").absoluteCapacity, 0.15f);
  EXPECT_FLOAT_EQ(def(cfg, "root.b.b2").absoluteCapacity, 0.6f);
  EXPECT_FLOAT_EQ(def(cfg, "root.b.b2").absoluteMaximumCapacity, 0.9f);
}

TEST(QueueCapacities, WeightParentMayHaveChildrenWithZeroSum) {
  parseOk(CsConf()
              .queues("root", "a,b")
              .cap("root.a", "1w")
              .cap("root.b", "1w")
              .queues("root.a", "a1"));
}

TEST(QueueCapacities, SiblingsMixingModesIsAnError) {
  std::string error =
      parseError(CsConf().queues("root", "a,b").cap("root.a", "50").cap("root.b", "2w"));
  EXPECT_THAT(error, HasSubstr("Parent queue 'root' have children queue used mixed of weight "
                               "mode, percentage and absolute mode, it is not allowed"));
  EXPECT_THAT(error, HasSubstr("{Queue=root.b, label= uses weight mode}"));
}

TEST(QueueCapacities, ZeroPercentSiblingDoesNotCountAsAMode) {
  CapacityConfig cfg = parseOk(
      CsConf().queues("root", "a,b,c").cap("root.a", "1w").cap("root.b", "1w").cap("root.c", "0"));
  EXPECT_FLOAT_EQ(def(cfg, "root.a").absoluteCapacity, 0.5f);
  EXPECT_FLOAT_EQ(def(cfg, "root.c").absoluteCapacity, 0.0f);
}

TEST(QueueCapacities, AbsoluteCapacityParsesResourceAndKeepsFractionZero) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .queues("root", "a,b")
                                   .cap("root.a", "[memory=10240,vcores=12]")
                                   .maxCap("root.a", "[memory-mb=20Gi, vcores=24]")
                                   .cap("root.b", "[memory=4096,vcores=4]"));
  const PartitionConfig& a = def(cfg, "root.a");
  EXPECT_EQ(a.capacity.mode, CapacityMode::kAbsolute);
  EXPECT_EQ(a.capacity.absolute, Resource::of(10240, 12));
  EXPECT_EQ(a.capacity.fraction, 0.0);
  EXPECT_EQ(a.maximumCapacity.mode, CapacityMode::kAbsolute);
  EXPECT_EQ(a.maximumCapacity.absolute, Resource::of(20480, 24));
  EXPECT_EQ(a.maximumCapacity.fraction, 1.0);
  EXPECT_EQ(a.absoluteCapacity, 0.0) << "resolved against the cluster at run time";
  EXPECT_FLOAT_EQ(a.absoluteMaximumCapacity, 1.0f);
}

TEST(QueueCapacities, AbsoluteChildrenMustFitTheAbsoluteParent) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a")
                                     .cap("root.a", "[memory=8192,vcores=8]")
                                     .queues("root.a", "a1,a2")
                                     .cap("root.a.a1", "[memory=6144,vcores=2]")
                                     .cap("root.a.a2", "[memory=4096,vcores=2]"));
  EXPECT_THAT(error, HasSubstr("property 'yarn.scheduler.capacity.root.a.capacity'"));
  EXPECT_THAT(error, HasSubstr("Parent Queues capacity: <memory:8192, vCores:8> is less than to "
                               "its children:<memory:10240, vCores:4> for queue:a"));
}

TEST(QueueCapacities, AbsoluteChildBelowPercentParentIsAnError) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a")
                                     .cap("root.a", "100")
                                     .queues("root.a", "a1")
                                     .cap("root.a.a1", "[memory=1024]"));
  EXPECT_THAT(error, HasSubstr("Parent queue 'root.a' and child queue 'root.a.a1' should use "
                               "either percentage based capacity configuration or absolute "
                               "resource together for label:"));
}

TEST(QueueCapacities, AbsoluteMinimumAboveMaximumIsAnError) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a")
                                     .cap("root.a", "[memory=8192,vcores=8]")
                                     .maxCap("root.a", "[memory=4096,vcores=8]"));
  EXPECT_THAT(error, HasSubstr("Min resource configuration <memory:8192, vCores:8> is greater "
                               "than its max value:<memory:4096, vCores:8> in queue:root.a"));
}

TEST(QueueCapacities, AbsoluteCapacityWithPercentMaximumIsAnError) {
  std::string error = parseError(
      CsConf().queues("root", "a").cap("root.a", "[memory=8192]").maxCap("root.a", "50"));
  EXPECT_THAT(error, HasSubstr("Queue 'root.a' should use either percentage based capacity "
                               "configuration or absolute resource"));
}

TEST(QueueCapacities, MalformedCapacityValuesAreErrors) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a,b,c,d")
                                     .cap("root.a", "abc")
                                     .cap("root.b", "[memory=1;vcores=1]")
                                     .cap("root.c", "[vcores=4]")
                                     .cap("root.d", "[disk=4,memory=1]"));
  EXPECT_THAT(error, HasSubstr("root.a.capacity': 'abc' is not a capacity"));
  EXPECT_THAT(error, HasSubstr("root.b.capacity': '[memory=1;vcores=1]' is not an absolute "
                               "resource"));
  EXPECT_THAT(error, HasSubstr("root.d.capacity': absolute resource '[disk=4,memory=1]': unknown "
                               "resource type 'disk'"));
}

TEST(QueueCapacities, PercentOutsideRangeIsIllegalCapacity) {
  std::string error =
      parseError(CsConf().queues("root", "a,b").cap("root.a", "120").cap("root.b", "-5"));
  EXPECT_THAT(error, HasSubstr("Illegal capacity of 120.0 for queue root.a"));
  EXPECT_THAT(error, HasSubstr("Illegal capacity of -5.0 for queue root.b"));
}

TEST(QueueCapacities, WeightOutsideRangeIsAnError) {
  std::string error = parseError(CsConf().queues("root", "a").cap("root.a", "10001w"));
  EXPECT_THAT(error, HasSubstr("Illegal weight of 10001.0 for queue root.a, valid weight should "
                               "be in range of [0, 10000]"));
}

TEST(QueueCapacities, MaximumCapacityAbove100OrWeightIsAnError) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a,b")
                                     .cap("root.a", "50")
                                     .maxCap("root.a", "150")
                                     .cap("root.b", "50")
                                     .maxCap("root.b", "2w"));
  EXPECT_THAT(error, HasSubstr("root.a.maximum-capacity': Illegal maximum capacity of 150.0 for "
                               "queue root.a"));
  EXPECT_THAT(error, HasSubstr("root.b.maximum-capacity': maximum-capacity has no weight form"));
}

TEST(QueueCapacities, RootCapacityIsFixed) {
  parseOk(
      CsConf().queues("root", "a").cap("root.a", "100").cap("root", "100").maxCap("root", "-1"));
  std::string error =
      parseError(CsConf().queues("root", "a").cap("root.a", "100").cap("root", "50"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.capacity': Cannot set capacity, root "
                               "queue has a fixed capacity of 100.0f"));
  error = parseError(CsConf().queues("root", "a").cap("root.a", "100").maxCap("root", "1w"));
  EXPECT_THAT(error, HasSubstr("root.maximum-capacity': Cannot set maximum-capacity, root queue "
                               "has a fixed capacity of 100.0f (got '1w')"));
}

TEST(QueueCapacities, RootTakesAnAbsoluteCapacityAsItsConfiguredMinimum) {
  CapacityConfig cfg =
      parseOk(CsConf()
                  .label("x")
                  .queues("root", "a")
                  .cap("root.a", "100")
                  .set("root.accessible-node-labels.x.capacity", "[memory=4096,vcores=4]")
                  .set("root.a.accessible-node-labels", "x")
                  .set("root.a.accessible-node-labels.x.capacity", "100"));
  const PartitionConfig& x = cfg.queue("root").partition("x");
  EXPECT_EQ(x.capacity.mode, CapacityMode::kAbsolute);
  EXPECT_EQ(x.capacity.absolute, Resource::of(4096, 4));
  EXPECT_FLOAT_EQ(x.absoluteCapacity, 1.0f);
  EXPECT_FLOAT_EQ(cfg.queue("root.a").partition("x").absoluteCapacity, 1.0f);
  // Its children's absolute capacities must fit in it, as under any absolute parent.
  std::string error =
      parseError(CsConf()
                     .label("x")
                     .queues("root", "a")
                     .cap("root.a", "100")
                     .set("root.accessible-node-labels.x.capacity", "[memory=4096,vcores=4]")
                     .set("root.a.accessible-node-labels", "x")
                     .set("root.a.accessible-node-labels.x.capacity", "[memory=8192,vcores=4]"));
  EXPECT_THAT(error, HasSubstr("Parent Queues capacity: <memory:4096, vCores:4> is less than to "
                               "its children:<memory:8192, vCores:4> for queue:root"));
  // The percentage stays fixed at 100.
  error = parseError(CsConf()
                         .label("x")
                         .queues("root", "a")
                         .cap("root.a", "100")
                         .set("root.accessible-node-labels.x.capacity", "50"));
  EXPECT_THAT(error, HasSubstr("Cannot set capacity, root queue has a fixed capacity of 100.0f"));
}

TEST(QueueCapacities, ZeroAbsoluteCapacityIsAZeroGuarantee) {
  Result<CapacityConfig> r = CsConf()
                                 .queues("root", "a,b,c")
                                 .cap("root.a", "[memory=8192,vcores=8]")
                                 .cap("root.b", "[memory=0,vcores=0]")
                                 .cap("root.c", "[vcores=4]")
                                 .maxCap("root.c", "[memory=0]")
                                 .parse();
  ASSERT_TRUE(r.isOk()) << r.status().message();
  for (const char* q : {"root.b", "root.c"}) {
    EXPECT_EQ(def(*r, q).capacity.mode, CapacityMode::kAbsolute) << q;
    EXPECT_TRUE(def(*r, q).capacity.absolute.isZero()) << q;
  }
  EXPECT_FLOAT_EQ(def(*r, "root.c").maximumCapacity.fraction, 1.0f);
  std::string warnings;
  for (const std::string& w : r->warnings) warnings += w + "\n";
  EXPECT_THAT(warnings, HasSubstr("root.c.capacity': '[vcores=4]' gives no memory, so YARN reads "
                                  "it as [memory=0,vcores=0]"));
  EXPECT_THAT(warnings, HasSubstr("root.c.maximum-capacity': '[memory=0]' is read as no maximum"));
}

TEST(QueueCapacities, CapacityAboveMaximumIsIllegalSetting) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a,b")
                                     .cap("root.a", "50")
                                     .maxCap("root.a", "40")
                                     .cap("root.b", "50"));
  EXPECT_THAT(error, HasSubstr("root.a.capacity': Illegal queue capacity setting "
                               "(abs-capacity=0.5) > (abs-maximum-capacity=0.4) for "
                               "queue=[root.a],label=[]"));
}

TEST(QueueCapacities, ChildrenMustSumTo100) {
  std::string error =
      parseError(CsConf().queues("root", "a,b").cap("root.a", "50").cap("root.b", "60"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.queues': Illegal capacity sum of "
                               "1.1 for children of queue root for label=. It should be either 0 "
                               "or 1.0 (children: root.a=50%, root.b=60%)"));
}

TEST(QueueCapacities, SumToleranceIsFiveHundredthsOfAPercent) {
  parseOk(CsConf()
              .queues("root", "a,b,c")
              .cap("root.a", "33.33")
              .cap("root.b", "33.33")
              .cap("root.c", "33.34"));
  parseOk(CsConf().queues("root", "a,b").cap("root.a", "50.04").cap("root.b", "50"));
  parseError(CsConf().queues("root", "a,b").cap("root.a", "50.1").cap("root.b", "50"));
}

TEST(QueueCapacities, ZeroSumNeedsAllowZeroCapacitySum) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a,b")
                                     .cap("root.a", "100")
                                     .cap("root.b", "0")
                                     .queues("root.a", "a1,a2"));
  // ParentQueue names the queue by its short name (getQueueName), word for word.
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.a.queues': Illegal capacity sum of "
                               "0.0 for children of queue a for label=. It is set to 0, but "
                               "parent percent != 0, and doesn't allow children capacity to set "
                               "to 0"));
  EXPECT_THAT(error, Not(HasSubstr("allow-zero-capacity-sum)")));
  parseOk(CsConf()
              .queues("root", "a,b")
              .cap("root.a", "100")
              .cap("root.b", "0")
              .queues("root.a", "a1,a2")
              .set("root.a.allow-zero-capacity-sum", "true"));
}

TEST(QueueCapacities, ZeroCapacityParentNeedsAllowZeroForFullChildren) {
  CsConf c;
  c.queues("root", "a,b")
      .cap("root.a", "100")
      .cap("root.b", "0")
      .queues("root.b", "b1")
      .cap("root.b.b1", "100");
  std::string error = parseError(c);
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.b.queues': Illegal capacity sum of "
                               "1.0 for children of queue b for label=. queue=b has zero "
                               "capacity, but childqueues have positive capacities"));
  c.set("root.b.allow-zero-capacity-sum", "true");
  CapacityConfig cfg = parseOk(c);
  EXPECT_FLOAT_EQ(def(cfg, "root.b.b1").absoluteCapacity, 0.0f);
  EXPECT_TRUE(cfg.queue("root.b").allowZeroCapacitySum);
}

TEST(QueueCapacities, AllowZeroDoesNotAllowOtherSums) {
  std::string error = parseError(CsConf()
                                     .queues("root", "a")
                                     .cap("root.a", "100")
                                     .queues("root.a", "a1")
                                     .cap("root.a.a1", "50")
                                     .set("root.a.allow-zero-capacity-sum", "true"));
  EXPECT_THAT(error, HasSubstr("Illegal capacity sum of 0.5 for children of queue a for label=. "
                               "It should be either 0 or 1.0"));
}

TEST(QueueCapacities, LabelCapacitiesArePerPartition) {
  CapacityConfig cfg =
      parseOk(CsConf()
                  .label("x")
                  .queues("root", "a,b")
                  .cap("root.a", "50")
                  .cap("root.b", "50")
                  .set("root.a.accessible-node-labels", "x")
                  .set("root.a.accessible-node-labels.x.capacity", "100")
                  .set("root.a.accessible-node-labels.x.maximum-capacity", "100")
                  .set("root.a.accessible-node-labels.x.maximum-am-resource-percent", "0.5")
                  .set("root.b.accessible-node-labels", " "));
  const QueueConfig& a = cfg.queue("root.a");
  EXPECT_TRUE(a.canAccess("x"));
  EXPECT_FLOAT_EQ(a.partition("x").absoluteCapacity, 1.0f);
  EXPECT_FLOAT_EQ(a.partition("x").maximumAmResourcePercent, 0.5f);
  EXPECT_FLOAT_EQ(a.partition("").maximumAmResourcePercent, 0.1f);
  EXPECT_FALSE(cfg.queue("root.b").canAccess("x"));
  EXPECT_EQ(cfg.queue("root.b").partitions.count("x"), 0u);
  EXPECT_FLOAT_EQ(cfg.queue("root").partition("x").absoluteCapacity, 1.0f);
}

TEST(QueueCapacities, LabelCapacitiesMustSumTo100AtRoot) {
  std::string error = parseError(CsConf()
                                     .label("x")
                                     .queues("root", "a,b")
                                     .cap("root.a", "50")
                                     .cap("root.b", "50")
                                     .set("root.a.accessible-node-labels.x.capacity", "30")
                                     .set("root.b.accessible-node-labels.x.capacity", "30"));
  EXPECT_THAT(error, HasSubstr("Illegal capacity sum of 0.6 for children of queue root for "
                               "label=x. It should be either 0 or 1.0"));
}

TEST(QueueCapacities, LabelSumErrorNamesTheLabelAndTheShortName) {
  std::string error = parseError(CsConf()
                                     .label("x")
                                     .queues("root", "a")
                                     .cap("root.a", "100")
                                     .set("root.a.accessible-node-labels", "x")
                                     .set("root.a.accessible-node-labels.x.capacity", "100")
                                     .queues("root.a", "a1,a2")
                                     .cap("root.a.a1", "50")
                                     .cap("root.a.a2", "50")
                                     .set("root.a.a1.accessible-node-labels.x.capacity", "30")
                                     .set("root.a.a2.accessible-node-labels.x.capacity", "30"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.a.queues': Illegal capacity sum of "
                               "0.6 for children of queue a for label=x. It should be either 0 "
                               "or 1.0"));
}

TEST(QueueCapacities, UnusedClusterLabelNeedsNoCapacities) {
  parseOk(CsConf().label("x").label("y").queues("root", "a").cap("root.a", "100"));
}

TEST(QueueCapacities, LabelPercentOutsideRangeNamesTheLabel) {
  std::string error = parseError(CsConf()
                                     .label("x")
                                     .queues("root", "a")
                                     .cap("root.a", "100")
                                     .set("root.a.accessible-node-labels.x.capacity", "101"));
  EXPECT_THAT(error, HasSubstr("Illegal capacity of 101.0 for node-label=x in queue=root.a, "
                               "valid capacity should in range of [0, 100]."));
}

TEST(QueueCapacities, AmResourcePercentIsAFraction) {
  CapacityConfig cfg = parseOk(CsConf()
                                   .set("maximum-am-resource-percent", "0.2")
                                   .queues("root", "a,b")
                                   .cap("root.a", "50")
                                   .cap("root.b", "50")
                                   .set("root.b.maximum-am-resource-percent", "0.5"));
  EXPECT_FLOAT_EQ(def(cfg, "root.a").maximumAmResourcePercent, 0.2f);
  EXPECT_FLOAT_EQ(def(cfg, "root.b").maximumAmResourcePercent, 0.5f);
  std::string error = parseError(CsConf()
                                     .queues("root", "a")
                                     .cap("root.a", "100")
                                     .set("root.a.maximum-am-resource-percent", "10"));
  EXPECT_THAT(error, HasSubstr("root.a.maximum-am-resource-percent': is a fraction in [0, 1]"));
}

TEST(QueueCapacities, MisspelledQueueKeyWarnsWithTheNearestSetting) {
  auto r = CsConf()
               .queues("root", "a,b")
               .cap("root.a", "50")
               .cap("root.b", "50")
               .raw("yarn.scheduler.capacity.root.a.maximum-capacty", "80")
               .parse();
  ASSERT_TRUE(r.isOk()) << r.status().message();
  std::string warnings;
  for (const std::string& w : r->warnings) warnings += w + "\n";
  EXPECT_THAT(warnings, HasSubstr("'maximum-capacty' is neither a child queue listed in "
                                  "yarn.scheduler.capacity.root.a.queues nor a known setting of "
                                  "queue root.a; ignored (did you mean 'maximum-capacity'?)"));
}

}  // namespace
}  // namespace spindle
