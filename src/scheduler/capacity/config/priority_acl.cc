// acl_application_max_priority parsing and checks (see priority_acl.h).

#include "scheduler/capacity/config/priority_acl.h"

#include <algorithm>
#include <charconv>

#include "base/strings.h"

namespace spindle {
namespace {

Result<int32_t> parsePriority(std::string_view value, std::string_view group) {
  int32_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
    return invalidArgument("'{}' is not an integer priority in [{}]", value, group);
  }
  return v;
}

// AppPriorityACLConfigurationParser.parsePriorityACLType: user and group lists accumulate.
Status addPair(std::string_view pair, std::string_view group, PriorityAcl& acl, bool& hasMax) {
  size_t eq = pair.find('=');
  if (eq == std::string_view::npos || eq + 1 == pair.size()) {
    return invalidArgument("'{}' in [{}] is not key=value", pair, group);
  }
  std::string_view key = pair.substr(0, eq);
  std::string_view value = pair.substr(eq + 1);
  if (key == "user" || key == "group") {
    for (const std::string& name : splitTrimmed(value, ",")) {
      if (name.empty()) continue;
      if (name == "*") {
        acl.who.everyone = true;
      } else {
        (key == "user" ? acl.who.users : acl.who.groups).emplace(name);
      }
    }
    return Status::ok();
  }
  if (key == "max_priority" || key == "default_priority") {
    SPINDLE_ASSIGN_OR_RETURN(int32_t p, parsePriority(value, group));
    if (key == "max_priority") {
      acl.maxPriority = p;
      hasMax = true;
    } else {
      acl.defaultPriority = p;
    }
    return Status::ok();
  }
  return invalidArgument(
      "unknown key '{}' in [{}] (expected user, group, max_priority or "
      "default_priority)",
      key, group);
}

}  // namespace

Result<std::vector<PriorityAcl>> parsePriorityAcls(std::string_view text,
                                                   int32_t clusterMaxPriority) {
  std::vector<PriorityAcl> acls;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find('[', pos);
    std::string_view before = trimView(
        text.substr(pos, open == std::string_view::npos ? std::string_view::npos : open - pos));
    if (!before.empty()) {
      return invalidArgument("'{}' is outside any [...] group", before);
    }
    if (open == std::string_view::npos) break;
    size_t close = text.find(']', open);
    if (close == std::string_view::npos) {
      return invalidArgument("'[' at offset {} is not closed", open);
    }
    std::string_view group = trimView(text.substr(open + 1, close - open - 1));
    pos = close + 1;
    if (group.empty()) continue;  // YARN skips an empty group
    PriorityAcl acl;
    bool hasMax = false;
    for (const std::string& pair : splitTrimmed(group, " \t")) {
      SPINDLE_RETURN_IF_ERROR(addPair(pair, group, acl, hasMax));
    }
    if (!hasMax) return invalidArgument("[{}] has no max_priority", group);
    // "ACL configuration for ... is greater that cluster max priority. Resetting ACLs to ..."
    acl.maxPriority = std::min(acl.maxPriority, clusterMaxPriority);
    acls.push_back(std::move(acl));
  }
  // Priority.compareTo orders higher priorities first; stable for equal ones.
  std::stable_sort(acls.begin(), acls.end(), [](const PriorityAcl& a, const PriorityAcl& b) {
    return a.maxPriority > b.maxPriority;
  });
  return acls;
}

bool priorityAclAllows(const std::vector<PriorityAcl>& acls, const std::string& user,
                       const std::vector<std::string>& groups, int32_t priority) {
  for (const PriorityAcl& acl : acls) {
    if (acl.who.allows(user, groups) && priority <= acl.maxPriority) return true;
  }
  return false;
}

std::optional<int32_t> priorityAclDefault(const std::vector<PriorityAcl>& acls,
                                          const std::string& user,
                                          const std::vector<std::string>& groups) {
  // AppPriorityACLsManager.getMappedPriorityAclForUGI without a priority keeps the last match.
  const PriorityAcl* last = nullptr;
  for (const PriorityAcl& acl : acls) {
    if (acl.who.allows(user, groups)) last = &acl;
  }
  return last ? last->defaultPriority : std::nullopt;
}

}  // namespace spindle
