// One page of a long list (apps, nodes), sorted and searched on the server, so a page of the web
// UI moves 50 rows instead of 10,000 (GET /ws/v1/cluster/spindle/apps and /spindle/nodes).
//
//   auto rest = withoutPageParams(query);                 // what the list's own filters read
//   auto page = listPage(core.apps(rest)["apps"]["app"], query);
//   // {"total": 10000, "offset": 0, "items": [50 entries]}
//
// Page parameters: sort (a field of the entries; missing fields sort first), desc (true or
// false), offset (default 0), limit (default 50, at most 1000), q (a case-insensitive
// substring of any of the entry's values). A malformed one: InvalidArgument naming it.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle::webui {

std::map<std::string, std::string> withoutPageParams(std::map<std::string, std::string> query);

Result<nlohmann::json> listPage(const nlohmann::json& entries,
                                const std::map<std::string, std::string>& query);

}  // namespace spindle::webui
