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

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle::webui {

std::map<std::string, std::string> withoutPageParams(std::map<std::string, std::string> query);

Result<nlohmann::json> listPage(const nlohmann::json& entries,
                                const std::map<std::string, std::string>& query);

// The same over light rows (the fields a table sorts and searches on, cheap to build for 10,000
// entries): the page's items are then built in full by `full(i)`, i an index into `rows`.
// `sort` must name one of `fields` (the rows' fields): another is InvalidArgument.
Result<nlohmann::json> listPage(const nlohmann::json& rows,
                                const std::map<std::string, std::string>& query,
                                const std::vector<std::string>& fields,
                                const std::function<nlohmann::json(size_t)>& full);

// The fields of an app's and a node's entry that the web UI's tables sort and search on. A list
// page sorts on one of them and searches their values, in the daemon (which
// builds only these fields for every entry) and in `spindle serve` alike.
extern const std::vector<std::string> kAppRowFields;
extern const std::vector<std::string> kNodeRowFields;

// The row of a full entry: its `fields`, missing ones left out.
nlohmann::json rowOf(const nlohmann::json& entry, const std::vector<std::string>& fields);

// Counts over node entries (GET /ws/v1/cluster/spindle/node-summary), so a page can show the
// partitions and attributes of 10,000 nodes without fetching them:
// {"total": n, "byState": {...}, "byPartition": {...}, "byAttribute": {"prefix/name=value": k}}.
// A node without a label is in the DEFAULT partition.
nlohmann::json nodeSummary(const nlohmann::json& nodes);

}  // namespace spindle::webui
