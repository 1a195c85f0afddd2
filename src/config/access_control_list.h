// Hadoop's org.apache.hadoop.security.authorize.AccessControlList, as queue ACLs use it, and
// YARN's QueueACL names. Shared by the Capacity Scheduler's acl_submit_applications /
// acl_administer_queue keys and the Fair Scheduler's aclSubmitApps / aclAdministerApps elements.
//
//   AccessControlList acl = parseAccessControlList("alice,bob admins").value();
//   acl.allows("carol", {"admins"});   // true: a group matches
//   acl.toString();                    // "alice,bob admins"
//   parseAccessControlList("*")->everyone;   // true
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace spindle {

// "u1,u2 g1,g2" (users, a space, groups); "*" = everyone; " " = nobody.
struct AccessControlList {
  bool everyone = false;
  std::set<std::string> users;
  std::set<std::string> groups;
  bool allows(const std::string& user, const std::vector<std::string>& userGroups) const;
  // Hadoop's getAclString: "*", or "u1,u2 g1,g2" (sorted); " " for nobody.
  std::string toString() const;
};
// Hadoop's AccessControlList(String): users, then after the first space groups, each list
// comma-separated and trimmed; a part that is exactly "*" allows everyone. Unlike Hadoop, a
// name containing whitespace or '*' (e.g. "u1, u2 g1", which Hadoop reads as groups "u2 g1")
// is an error, since it is always a typo.
Result<AccessControlList> parseAccessControlList(std::string_view text);

// YARN's QueueACL.
enum class QueueAcl { kSubmitApplications, kAdministerQueue };

}  // namespace spindle
