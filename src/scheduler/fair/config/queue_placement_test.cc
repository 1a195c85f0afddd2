// Vectors QP-* (TestQueuePlacementPolicy, TestFairScheduler placement tests): the placement
// evaluator over a policy, the user's groups and the configured queues.
#include "scheduler/fair/config/queue_placement.h"

#include <gtest/gtest.h>

namespace spindle::fair {
namespace {

using Kind = PlacementRuleKind;

PlacementRule rule(Kind kind, bool create = true) { return PlacementRule::of(kind, create); }
PlacementRule defaultRule(const std::string& queue, bool create = true) {
  PlacementRule r = rule(Kind::kDefault, create);
  r.defaultQueue = queue;
  return r;
}
PlacementRule nested(PlacementRule inner) {
  PlacementRule r = rule(Kind::kNestedUserQueue);
  r.nested = std::make_shared<const PlacementRule>(std::move(inner));
  return r;
}

// The queue, "REJECT", or "ERROR: message".
std::string place(const PlacementPolicy& policy, const std::string& requested,
                  const std::string& user, const QueueCatalog& configured = {}) {
  SimpleGroupsMapping groups;
  auto p = assignAppToQueue(policy, requested, user, groups, configured);
  if (!p.isOk()) return "ERROR: " + p.status().message();
  return p->rejected ? "REJECT" : p->queue;
}

TEST(QueuePlacementTest, QP1_SpecifiedThenUser) {
  PlacementPolicy policy{{rule(Kind::kSpecified), rule(Kind::kUser)}};
  ASSERT_TRUE(validatePlacementPolicy(policy).isOk());
  EXPECT_EQ(place(policy, "specifiedq", "someuser"), "root.specifiedq");
  EXPECT_EQ(place(policy, "default", "someuser"), "root.someuser");
  EXPECT_EQ(place(policy, "default", "otheruser"), "root.otheruser");
}

TEST(QueuePlacementTest, QP2_NoCreate) {
  PlacementPolicy policy{{rule(Kind::kSpecified), rule(Kind::kUser, false), rule(Kind::kDefault)}};
  ASSERT_TRUE(validatePlacementPolicy(policy).isOk());
  QueueCatalog configured{.leaves = {"root.someuser"}, .parents = {}};
  EXPECT_EQ(place(policy, "specifiedq", "someuser", configured), "root.specifiedq");
  EXPECT_EQ(place(policy, "default", "someuser", configured), "root.someuser");
  EXPECT_EQ(place(policy, "specifiedq", "otheruser", configured), "root.specifiedq");
  EXPECT_EQ(place(policy, "default", "otheruser", configured), "root.default");
}

TEST(QueuePlacementTest, QP3_SpecifiedThenReject) {
  PlacementPolicy policy{{rule(Kind::kSpecified), rule(Kind::kReject)}};
  ASSERT_TRUE(validatePlacementPolicy(policy).isOk());
  EXPECT_EQ(place(policy, "specifiedq", "someuser"), "root.specifiedq");
  EXPECT_EQ(place(policy, "default", "someuser"), "REJECT");
}

TEST(QueuePlacementTest, QP4_TerminalRuleChecks) {
  Status omitted = validatePlacementPolicy({{rule(Kind::kSpecified), rule(Kind::kUser, false)}});
  EXPECT_EQ(omitted.message(), "Could get past last queue placement rule without assigning");
  Status middle =
      validatePlacementPolicy({{rule(Kind::kSpecified), rule(Kind::kDefault), rule(Kind::kUser)}});
  EXPECT_EQ(middle.message(), "Rules after rule 1 in queue placement policy can never be reached");
  // Hadoop 3.x: a policy may end in nestedUserQueue with create="true" (2.x refused it); an app
  // it does not place is refused at submission.
  PlacementPolicy nestedLast{{rule(Kind::kSpecified, false), nested(rule(Kind::kPrimaryGroup))}};
  EXPECT_TRUE(validatePlacementPolicy(nestedLast).isOk());
  PlacementRule nestedNoCreate = nested(rule(Kind::kPrimaryGroup));
  nestedNoCreate.create = false;
  EXPECT_EQ(validatePlacementPolicy({{rule(Kind::kSpecified), nestedNoCreate}}).message(),
            "Could get past last queue placement rule without assigning");
  PlacementPolicy terminals{
      {rule(Kind::kSecondaryGroupExistingQueue, true), defaultRule("root.otherdefault", false)}};
  ASSERT_TRUE(validatePlacementPolicy(terminals).isOk());
  EXPECT_EQ(place(terminals, "root.otherdefault", "user1"),
            "ERROR: Should have applied a rule before reaching here (user user1, queue "
            "root.otherdefault)");
}

TEST(QueuePlacementTest, QP5_DefaultRuleWithQueueAttribute) {
  PlacementPolicy policy{{rule(Kind::kSpecified, false), defaultRule("root.someDefaultQueue")}};
  QueueCatalog configured{.leaves = {"root.someDefaultQueue"}, .parents = {}};
  EXPECT_EQ(place(policy, "root.default", "user1", configured), "root.someDefaultQueue");
}

TEST(QueuePlacementTest, QP6_NestedUserQueuePrimaryGroup) {
  PlacementPolicy policy{
      {rule(Kind::kSpecified, false), nested(rule(Kind::kPrimaryGroup)), rule(Kind::kDefault)}};
  ASSERT_TRUE(validatePlacementPolicy(policy).isOk());
  EXPECT_EQ(place(policy, "root.default", "user1"), "root.user1group.user1");
  EXPECT_EQ(
      place(policy, "root.specifiedq", "user2", {.leaves = {"root.specifiedq"}, .parents = {}}),
      "root.specifiedq");
  // The nested rule names a configured leaf: nestedUserQueue continues.
  EXPECT_EQ(place(policy, "root.default", "user3",
                  {.leaves = {"root.specifiedq", "root.user3group"}, .parents = {}}),
            "root.default");
}

TEST(QueuePlacementTest, QP8_NestedUserQueueSecondaryGroup) {
  PlacementPolicy policy{{nested(rule(Kind::kSecondaryGroupExistingQueue)), rule(Kind::kDefault)}};
  EXPECT_EQ(place(policy, "root.default", "user1"), "root.default");
  EXPECT_EQ(
      place(policy, "root.default", "user1", {.leaves = {}, .parents = {"root.user1subgroup1"}}),
      "root.user1subgroup1.user1");
}

TEST(QueuePlacementTest, QP9_NestedUserQueueSpecificRule) {
  PlacementPolicy policy{{nested(rule(Kind::kSpecified, false)), rule(Kind::kDefault)}};
  QueueCatalog configured{.leaves = {}, .parents = {"root.parent1", "root.parent2"}};
  EXPECT_EQ(place(policy, "root.parent1", "user1", configured), "root.parent1.user1");
  EXPECT_EQ(place(policy, "root.parent2", "user2", configured), "root.parent2.user2");
}

TEST(QueuePlacementTest, QP11_QueuePlacementWithPolicy) {
  QueueCatalog configured{.leaves = {"root.user1", "root.user3group", "root.user4subgroup1",
                                     "root.user4subgroup2", "root.user5subgroup2"},
                          .parents = {}};
  PlacementPolicy policy1{
      {rule(Kind::kSpecified, true), rule(Kind::kUser, false), rule(Kind::kPrimaryGroup, false),
       rule(Kind::kSecondaryGroupExistingQueue, false), rule(Kind::kDefault, true)}};
  ASSERT_TRUE(validatePlacementPolicy(policy1).isOk());
  EXPECT_EQ(place(policy1, "somequeue", "user1", configured), "root.somequeue");
  EXPECT_EQ(place(policy1, "default", "user1", configured), "root.user1");
  EXPECT_EQ(place(policy1, "default", "user3", configured), "root.user3group");
  EXPECT_EQ(place(policy1, "default", "user4", configured), "root.user4subgroup1");
  EXPECT_EQ(place(policy1, "default", "user5", configured), "root.user5subgroup2");
  EXPECT_EQ(place(policy1, "default", "otheruser", configured), "root.default");
  PlacementPolicy policy2{
      {rule(Kind::kUser, false), rule(Kind::kSpecified, true), rule(Kind::kDefault, true)}};
  ASSERT_TRUE(validatePlacementPolicy(policy2).isOk());
  EXPECT_EQ(place(policy2, "somequeue", "user1", configured), "root.user1");
  EXPECT_EQ(place(policy2, "somequeue", "otheruser", configured), "root.somequeue");
  EXPECT_EQ(place(policy2, "default", "otheruser", configured), "root.default");
}

TEST(QueuePlacementTest, QP12_DefaultPolicyAndNonLeafTargets) {
  PlacementPolicy policy = defaultPlacementPolicy(true, true);
  ASSERT_EQ(policy.rules.size(), 2u);
  ASSERT_TRUE(validatePlacementPolicy(policy).isOk());
  EXPECT_EQ(place(policy, "default", "asterix"), "root.asterix");
  EXPECT_EQ(place(policy, "notdefault", "obelix"), "root.notdefault");
  // Case 2: the policy names root.child1, but it is a parent: the app gets no queue.
  QueueCatalog existing{.leaves = {"root.child1.granchild", "root.child2", "root.default"},
                        .parents = {"root", "root.child1"}};
  EXPECT_EQ(place(policy, "root.child1", "tintin"), "root.child1");
  EXPECT_EQ(classifyPlacementTarget("root.child1", existing), PlacementTarget::kParentQueue);
  EXPECT_EQ(place(policy, "root.child2", "snowy"), "root.child2");
  EXPECT_EQ(classifyPlacementTarget("root.child2", existing), PlacementTarget::kExistingLeaf);
  // Case 3: nestedUserQueue(primaryGroup create=false) with user1group a configured parent.
  PlacementPolicy nestedPolicy{{rule(Kind::kSpecified, false),
                                nested(rule(Kind::kPrimaryGroup, false)), rule(Kind::kDefault)}};
  EXPECT_EQ(
      place(nestedPolicy, "root.default", "user1", {.leaves = {}, .parents = {"root.user1group"}}),
      "root.user1group.user1");
}

TEST(QueuePlacementTest, DefaultPolicyVariants) {
  PlacementPolicy noUser = defaultPlacementPolicy(true, false);
  EXPECT_EQ(place(noUser, "default", "bob"), "root.default");
  PlacementPolicy noCreate = defaultPlacementPolicy(false, true);
  ASSERT_EQ(noCreate.rules.size(), 3u);
  EXPECT_EQ(place(noCreate, "undeclared", "bob"), "root.default");
  EXPECT_EQ(place(noCreate, "declared", "bob", {.leaves = {"root.declared"}, .parents = {}}),
            "root.declared");
}

TEST(QueuePlacementTest, UserNamesAreCleaned) {
  PlacementPolicy policy{{rule(Kind::kUser)}};
  EXPECT_EQ(place(policy, "default", " first.last "), "root.first_dot_last");
}

TEST(QueuePlacementTest, PrimaryGroupWithoutGroupsIsAnError) {
  class NoGroups : public GroupsProvider {
   public:
    std::vector<std::string> groups(const std::string&) const override { return {}; }
  };
  PlacementPolicy policy{{rule(Kind::kPrimaryGroup)}};
  auto p = assignAppToQueue(policy, "default", "nobody", NoGroups(), {});
  ASSERT_FALSE(p.isOk());
  EXPECT_EQ(p.status().message(), "No groups returned for user nobody");
}

TEST(QueuePlacementTest, FS11_TargetsUnderLeavesAndParents) {
  QueueCatalog existing{.leaves = {"root.default", "root.parent.child"},
                        .parents = {"root", "root.parent"}};
  EXPECT_EQ(classifyPlacementTarget("parent", existing), PlacementTarget::kParentQueue);
  EXPECT_EQ(classifyPlacementTarget("parent.child.grandchild", existing),
            PlacementTarget::kUnderLeaf);
  EXPECT_EQ(classifyPlacementTarget("parent.sister", existing), PlacementTarget::kNewLeaf);
  EXPECT_EQ(classifyPlacementTarget("parent.child", existing), PlacementTarget::kExistingLeaf);
  EXPECT_EQ(classifyPlacementTarget("", existing), PlacementTarget::kInvalidName);
  EXPECT_EQ(classifyPlacementTarget(".a", existing), PlacementTarget::kInvalidName);
  EXPECT_EQ(classifyPlacementTarget("a.", existing), PlacementTarget::kInvalidName);
  EXPECT_EQ(classifyPlacementTarget("A.B", existing), PlacementTarget::kNewLeaf);
}

}  // namespace
}  // namespace spindle::fair
