#include "config/access_control_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace spindle {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(AccessControlList, UsersThenGroupsAfterTheFirstSpace) {
  AccessControlList acl = parseAccessControlList("alice,bob admins, ops").value();
  EXPECT_FALSE(acl.everyone);
  EXPECT_THAT(acl.users, ElementsAre("alice", "bob"));
  EXPECT_THAT(acl.groups, ElementsAre("admins", "ops"));
  EXPECT_TRUE(acl.allows("bob", {}));
  EXPECT_TRUE(acl.allows("carol", {"users", "ops"}));
  EXPECT_FALSE(acl.allows("carol", {"users"}));
  EXPECT_EQ(acl.toString(), "alice,bob admins,ops");
}

TEST(AccessControlList, StarAllowsEveryone) {
  for (const char* text : {"*", " *", "* ", "alice *"}) {
    AccessControlList acl = parseAccessControlList(text).value();
    EXPECT_TRUE(acl.everyone) << text;
    EXPECT_TRUE(acl.allows("anyone", {})) << text;
    EXPECT_EQ(acl.toString(), "*");
  }
}

TEST(AccessControlList, SpaceOrEmptyAllowsNobody) {
  for (const char* text : {" ", "", "  "}) {
    AccessControlList acl = parseAccessControlList(text).value();
    EXPECT_FALSE(acl.allows("alice", {"admins"})) << "'" << text << "'";
    EXPECT_EQ(acl.toString(), " ");
  }
}

TEST(AccessControlList, GroupsOnlyWithLeadingSpace) {
  AccessControlList acl = parseAccessControlList(" admins").value();
  EXPECT_TRUE(acl.users.empty());
  EXPECT_THAT(acl.groups, ElementsAre("admins"));
  EXPECT_TRUE(acl.allows("x", {"admins"}));
}

TEST(AccessControlList, NamesWithSpacesOrStarsAreErrors) {
  Result<AccessControlList> spaced = parseAccessControlList("u1, u2 g1");
  ASSERT_FALSE(spaced.isOk());
  EXPECT_THAT(spaced.status().message(), HasSubstr("group name 'u2 g1' may not contain"));
  Result<AccessControlList> star = parseAccessControlList("alice,* admins");
  ASSERT_FALSE(star.isOk());
  EXPECT_THAT(star.status().message(), HasSubstr("user name '*'"));
}

}  // namespace
}  // namespace spindle
