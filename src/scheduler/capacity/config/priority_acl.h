// Application priority ACLs of a leaf queue: `yarn.scheduler.capacity.<queue>.
// acl_application_max_priority` (YARN's AppPriorityACLConfigurationParser and
// AppPriorityACLsManager; the Hadoop docs' CapacityScheduler page, 'Setup for application
// priority').
//
//   auto acls = parsePriorityAcls("[user=alice group=ops max_priority=5 default_priority=2]", 10);
//   PriorityAclDecision d = checkPriorityAcl(*acls, "alice", {"ops"}, 4);   // d.allowed
//
// Syntax: groups in square brackets, each a space-separated list of key=value pairs with keys
// `user` (comma list), `group` (comma list), `max_priority`, `default_priority`; a name "*"
// stands for everyone. A max_priority above yarn.cluster.max-application-priority is lowered to
// it (YARN logs a warning and resets it). Groups are kept sorted by max_priority, highest first
// (YARN sorts them with Priority.compareTo, which orders higher priorities first).
// Rules at submission (CapacityScheduler.checkAndGetApplicationPriority), only with
// yarn.acl.enable and a non-empty list:
//  1. no priority asked: the default_priority of the *last* group in that order that names the
//     user (the one with the lowest max_priority), else the queue's default-application-priority;
//  2. the priority is capped at the cluster maximum;
//  3. the submission is allowed only when some group names the user with max_priority >= it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "scheduler/capacity/config/capacity_config.h"

namespace spindle {

// Parses the property's value; errors name the bracketed group and the pair at fault.
Result<std::vector<PriorityAcl>> parsePriorityAcls(std::string_view text,
                                                   int32_t clusterMaxPriority);

// Whether some group allows `user` to submit at `priority` (rule 3).
bool priorityAclAllows(const std::vector<PriorityAcl>& acls, const std::string& user,
                       const std::vector<std::string>& groups, int32_t priority);

// The default priority for `user` (rule 1); nullopt when no group names the user or the group
// has no default_priority.
std::optional<int32_t> priorityAclDefault(const std::vector<PriorityAcl>& acls,
                                          const std::string& user,
                                          const std::vector<std::string>& groups);

}  // namespace spindle
