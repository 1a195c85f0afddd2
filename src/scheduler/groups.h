// User-to-groups resolution for queue mappings and ACLs: Hadoop's hadoop.security.group.mapping
// with the static overrides of `hadoop.user.group.static.mapping.overrides`.
//
//   Configuration conf;
//   conf.set("hadoop.user.group.static.mapping.overrides", "alice=eng,ops;bob=;");
//   auto groups = GroupsProvider::fromConfig(conf).value();
//   groups.groupsOf("alice");   // {"eng", "ops"}: primary "eng", secondary "ops"
//   groups.groupsOf("bob");     // {}: no groups at all
//   groups.groupsOf("carol");   // {"carol"}: default primary group = the user name
//
// Hadoop's default mapping (ShellBasedUnixGroupsMapping) asks the OS; a simulator must not, so
// Spindle's default provider gives each user a primary group named like the user (the usual
// Unix user-private-group layout). Static overrides win, as in Hadoop's Groups class. Immutable.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle {

inline constexpr const char* kStaticGroupMappingKey = "hadoop.user.group.static.mapping.overrides";

class GroupsProvider {
 public:
  // Parses "user=g1,g2;user2=;" (Hadoop's default value is "dr.who=;"). Errors name the entry.
  static Result<GroupsProvider> fromConfig(const Configuration& conf);
  GroupsProvider() = default;

  // Primary group first; empty when the user has none.
  std::vector<std::string> groupsOf(const std::string& user) const;

 private:
  std::map<std::string, std::vector<std::string>> overrides_;
};

}  // namespace spindle
