#include "scheduler/capacity/config/priority_acl.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(PriorityAcl, ParsesGroupsSortedByMaxPriorityAndCappedAtTheClusterMaximum) {
  auto acls = parsePriorityAcls(
      "[user=alice,bob group=ops max_priority=3 default_priority=1] [user=* max_priority=20]", 10);
  ASSERT_TRUE(acls.isOk()) << acls.status().message();
  ASSERT_EQ(acls->size(), 2u);
  EXPECT_TRUE((*acls)[0].who.everyone);
  EXPECT_EQ((*acls)[0].maxPriority, 10) << "20 is above yarn.cluster.max-application-priority";
  EXPECT_FALSE((*acls)[0].defaultPriority.has_value());
  EXPECT_EQ((*acls)[1].maxPriority, 3);
  EXPECT_EQ((*acls)[1].defaultPriority, 1);
  EXPECT_EQ((*acls)[1].who.users.count("bob"), 1u);
  EXPECT_EQ((*acls)[1].who.groups.count("ops"), 1u);
}

TEST(PriorityAcl, AllowsWhenSomeGroupNamesTheUserWithAHighEnoughMaximum) {
  auto acls = parsePriorityAcls(
                  "[user=alice max_priority=2 default_priority=1]"
                  "[group=ops max_priority=6 default_priority=4]",
                  10)
                  .value();
  EXPECT_TRUE(priorityAclAllows(acls, "alice", {}, 2));
  EXPECT_FALSE(priorityAclAllows(acls, "alice", {}, 3));
  EXPECT_TRUE(priorityAclAllows(acls, "alice", {"ops"}, 6));
  EXPECT_FALSE(priorityAclAllows(acls, "carol", {}, 0)) << "a user no group names is refused";
  // The last match in max_priority order (the lowest maximum) gives the default.
  EXPECT_EQ(priorityAclDefault(acls, "alice", {"ops"}), 1);
  EXPECT_EQ(priorityAclDefault(acls, "dave", {"ops"}), 4);
  EXPECT_FALSE(priorityAclDefault(acls, "carol", {}).has_value());
}

TEST(PriorityAcl, BadTextIsRejectedNamingTheGroupAndPair) {
  for (const char* bad :
       {"[user=alice]", "[user=alice max_priority=x]", "[usr=a max_priority=1]",
        "[user=a max_priority=1", "user=a [max_priority=1]", "[user=a max_priority]"}) {
    auto acls = parsePriorityAcls(bad, 10);
    EXPECT_FALSE(acls.isOk()) << bad;
  }
  auto noMax = parsePriorityAcls("[user=alice default_priority=1]", 10);
  EXPECT_NE(noMax.status().message().find("no max_priority"), std::string::npos);
  auto unknown = parsePriorityAcls("[user=a maxprio=3]", 10);
  EXPECT_NE(unknown.status().message().find("unknown key 'maxprio'"), std::string::npos);
  EXPECT_TRUE(parsePriorityAcls("  [ ]  ", 10)->empty()) << "an empty group is skipped";
}

}  // namespace
}  // namespace spindle
