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

CsConf labelled() {
  return std::move(CsConf()
                       .label("x")
                       .label("y", /*exclusive=*/false)
                       .queues("root", "a,b")
                       .cap("root.a", "50")
                       .cap("root.b", "50"));
}

TEST(QueueLabels, RootAccessesEverythingAndChildrenInheritWhenUnset) {
  CapacityConfig cfg = parseOk(labelled()
                                   .queues("root.a", "a1")
                                   .cap("root.a.a1", "100")
                                   .set("root.a.accessible-node-labels", "x"));
  EXPECT_TRUE(cfg.queue("root").accessibleToAllLabels);
  EXPECT_TRUE(cfg.queue("root.b").accessibleToAllLabels) << "inherits root's *";
  EXPECT_FALSE(cfg.queue("root.a").accessibleToAllLabels);
  EXPECT_THAT(cfg.queue("root.a.a1").accessibleLabels, ElementsAre("x"));
  EXPECT_TRUE(cfg.queue("root.a.a1").canAccess("x"));
  EXPECT_FALSE(cfg.queue("root.a.a1").canAccess("y"));
  EXPECT_TRUE(cfg.queue("root.a.a1").canAccess(""));
}

TEST(QueueLabels, ValueOnRootIsIgnoredWithAWarning) {
  CapacityConfig cfg = parseOk(labelled().set("root.accessible-node-labels", "x"));
  EXPECT_TRUE(cfg.queue("root").accessibleToAllLabels);
  ASSERT_EQ(cfg.warnings.size(), 1u);
  EXPECT_THAT(cfg.warnings[0], HasSubstr("root.accessible-node-labels': Accessible node labels for "
                                         "root queue will be ignored"));
}

TEST(QueueLabels, StarAmongLabelsMeansAll) {
  CapacityConfig cfg = parseOk(labelled().set("root.a.accessible-node-labels", "x,*"));
  EXPECT_TRUE(cfg.queue("root.a").accessibleToAllLabels);
  EXPECT_TRUE(cfg.queue("root.a").accessibleLabels.empty());
}

TEST(QueueLabels, UnknownLabelIsAnError) {
  std::string error = parseError(labelled()
                                     .set("root.a.accessible-node-labels", "x,z")
                                     .set("root.b.accessible-node-labels.w.capacity", "10"));
  EXPECT_THAT(error, HasSubstr("root.a.accessible-node-labels': NodeLabelManager doesn't include "
                               "label = z, please check."));
  EXPECT_THAT(error, HasSubstr("root.b.accessible-node-labels.w.capacity': NodeLabelManager "
                               "doesn't include label = w, please check."));
}

TEST(QueueLabels, ChildLabelsMustBeASubsetOfTheParents) {
  std::string error = parseError(labelled()
                                     .set("root.a.accessible-node-labels", "x")
                                     .queues("root.a", "a1,a2")
                                     .cap("root.a.a1", "50")
                                     .cap("root.a.a2", "50")
                                     .set("root.a.a1.accessible-node-labels", "x,y")
                                     .set("root.a.a2.accessible-node-labels", "*"));
  EXPECT_THAT(error, HasSubstr("root.a.a1.accessible-node-labels': Some labels of child queue is "
                               "not a subset of parent queue, these labels=[y]"));
  EXPECT_THAT(error, HasSubstr("root.a.a2.accessible-node-labels': Parent's accessible queue is "
                               "not ANY(*), but child's accessible queue is *"));
}

TEST(QueueLabels, DefaultLabelExpressionMustBeAccessible) {
  std::string error = parseError(labelled()
                                     .set("root.a.accessible-node-labels", "x")
                                     .set("root.a.default-node-label-expression", "y"));
  EXPECT_THAT(error, HasSubstr("root.a.default-node-label-expression': Invalid default label "
                               "expression of queue=root.a doesn't have permission to access all "
                               "labels in default label expression. labelExpression of resource "
                               "request=y. Queue labels=x"));
}

TEST(QueueLabels, DefaultLabelExpressionIsInheritedWhenTheChildCoversTheParent) {
  CapacityConfig cfg = parseOk(labelled()
                                   .set("root.a.accessible-node-labels", "x")
                                   .set("root.a.default-node-label-expression", "x")
                                   .queues("root.a", "a1,a2")
                                   .cap("root.a.a1", "50")
                                   .cap("root.a.a2", "50")
                                   .set("root.a.a2.accessible-node-labels", " "));
  EXPECT_EQ(cfg.queue("root.a").defaultNodeLabelExpression, "x");
  EXPECT_EQ(cfg.queue("root.a.a1").defaultNodeLabelExpression, "x");
  EXPECT_EQ(cfg.queue("root.a.a2").defaultNodeLabelExpression, "")
      << "a2 cannot access x, so it does not inherit it";
}

TEST(QueueLabels, LabelKeysWithUnknownSuffixAreWarnedAbout) {
  CapacityConfig cfg = parseOk(labelled().set("root.a.accessible-node-labels.x.capcity", "5"));
  ASSERT_EQ(cfg.warnings.size(), 1u);
  EXPECT_THAT(cfg.warnings[0],
              HasSubstr("root.a.accessible-node-labels.x.capcity': not a per-label "
                        "setting"));
}

TEST(QueueLabels, CapacityForAnInaccessibleLabelIsWarnedAbout) {
  CapacityConfig cfg = parseOk(labelled()
                                   .set("root.a.accessible-node-labels", "y")
                                   .set("root.a.accessible-node-labels.x.capacity", "100"));
  ASSERT_EQ(cfg.warnings.size(), 1u);
  EXPECT_THAT(cfg.warnings[0], HasSubstr("root.a.accessible-node-labels.x.capacity': queue root.a "
                                         "cannot access label x"));
}

TEST(QueueLabels, ExclusiveEnforcedPartitionsMustExist) {
  CapacityConfig cfg =
      parseOk(labelled()
                  .set("root.a.ordering-policy", "fifo-with-partitions")
                  .set("root.a.ordering-policy.exclusive-enforced-partitions", "x"));
  EXPECT_EQ(cfg.queue("root.a").orderingPolicy, "fifo-with-partitions");
  EXPECT_THAT(cfg.queue("root.a").exclusiveEnforcedPartitions, ElementsAre("x"));
  std::string error =
      parseError(labelled().set("root.a.ordering-policy.exclusive-enforced-partitions", "q"));
  EXPECT_THAT(error, HasSubstr("NodeLabelManager doesn't include label = q"));
}

}  // namespace
}  // namespace spindle
