// Hadoop's AccessControlList parsing and checks (see access_control_list.h).
#include "config/access_control_list.h"

#include <cctype>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/strings.h"

namespace spindle {
namespace {

bool isWildcard(std::string_view part) { return trimView(part) == "*"; }

// StringUtils.getTrimmedStringCollection: comma-separated, trimmed, empties dropped.
Status addNames(std::string_view list, std::set<std::string>& out, const char* what) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view name = trimView(list.substr(start, comma - start));
    start = comma + 1;
    if (name.empty()) continue;
    for (char c : name) {
      if (std::isspace(static_cast<unsigned char>(c)) || c == '*') {
        return invalidArgument(
            "{} name '{}' may not contain whitespace or '*' (format: "
            "\"user1,user2 group1,group2\", or \"*\" for everyone)",
            what, name);
      }
    }
    out.emplace(name);
  }
  return Status::ok();
}

}  // namespace

Result<AccessControlList> parseAccessControlList(std::string_view text) {
  AccessControlList acl;
  // buildACL(aclString.split(" ", 2)).
  size_t space = text.find(' ');
  std::string_view users = text.substr(0, space);
  std::string_view groups =
      space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  if (isWildcard(users) || (space != std::string_view::npos && isWildcard(groups))) {
    acl.everyone = true;
    return acl;
  }
  Status s = addNames(users, acl.users, "user");
  if (!s.isOk()) return s;
  s = addNames(groups, acl.groups, "group");
  if (!s.isOk()) return s;
  return acl;
}

bool AccessControlList::allows(const std::string& user,
                               const std::vector<std::string>& userGroups) const {
  if (everyone || users.count(user) > 0) return true;
  for (const std::string& g : userGroups) {
    if (groups.count(g) > 0) return true;
  }
  return false;
}

std::string AccessControlList::toString() const {
  if (everyone) return "*";
  return fmt::format("{} {}", fmt::join(users, ","), fmt::join(groups, ","));
}

}  // namespace spindle
