#include "scheduler/groups.h"

namespace spindle {
namespace {

std::string trim(std::string s) {
  while (!s.empty() && isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string::npos) end = s.size();
    out.push_back(trim(s.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

}  // namespace

Result<GroupsProvider> GroupsProvider::fromConfig(const Configuration& conf) {
  GroupsProvider p;
  const std::string raw = conf.get(kStaticGroupMappingKey, "dr.who=;");
  for (const std::string& entry : splitOn(raw, ';')) {
    if (entry.empty()) continue;
    const auto eq = entry.find('=');
    if (eq == std::string::npos || trim(entry.substr(0, eq)).empty()) {
      return invalidArgument("{}{}: entry '{}' is not user=group1,group2",
                             conf.where(kStaticGroupMappingKey), kStaticGroupMappingKey, entry);
    }
    std::vector<std::string> groups;
    for (const std::string& g : splitOn(entry.substr(eq + 1), ',')) {
      if (!g.empty()) groups.push_back(g);
    }
    p.overrides_[trim(entry.substr(0, eq))] = std::move(groups);
  }
  return p;
}

std::vector<std::string> GroupsProvider::groupsOf(const std::string& user) const {
  auto it = overrides_.find(user);
  if (it != overrides_.end()) return it->second;
  return {user};
}

}  // namespace spindle
