#include "config/rm_ha.h"

#include <set>

#include "base/strings.h"

namespace spindle {

Result<std::vector<std::pair<std::string, std::string>>> rmHaAddresses(const Configuration& conf,
                                                                       const std::string& key,
                                                                       uint16_t defaultPort) {
  std::vector<std::pair<std::string, std::string>> out;
  auto enabled = conf.getBool(kRmHaEnabledKey, false);
  if (!enabled) return enabled.status();
  if (!*enabled) return out;
  const std::vector<std::string> ids = splitTrimmed(conf.get(kRmHaIdsKey, ""), ",");
  if (ids.size() < 2) {
    return invalidArgument("{}{} needs two or more RM ids when {} is true, got '{}'",
                           conf.where(kRmHaIdsKey), kRmHaIdsKey, kRmHaEnabledKey,
                           conf.get(kRmHaIdsKey, ""));
  }
  std::set<std::string> seen;
  for (const std::string& id : ids) {
    if (!seen.insert(id).second) {
      return invalidArgument("{}RM id '{}' is listed twice", conf.where(kRmHaIdsKey), id);
    }
    std::string address;
    if (auto v = conf.get(key + "." + id)) {
      address = *v;
    } else if (auto w = conf.get("yarn.resourcemanager.webapp.address." + id)) {
      address = *w;
    } else if (auto h = conf.get("yarn.resourcemanager.hostname." + id)) {
      address = *h + ":" + std::to_string(defaultPort);
    } else {
      return invalidArgument(
          "RM HA: no address for RM '{}': set yarn.resourcemanager.webapp.address.{} (or {}.{})",
          id, id, key, id);
    }
    if (address.starts_with("0.0.0.0:")) address.replace(0, 7, "127.0.0.1");
    out.emplace_back(id, address);
  }
  return out;
}

}  // namespace spindle
