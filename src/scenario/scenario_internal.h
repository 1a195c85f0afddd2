// Pieces of the scenario parser shared by scenario_parse.cc (top level, cluster) and
// scenario_steps.cc (steps). Not part of the sim library's interface.
//
//   std::set<std::string> labels = {"x"};
//   SPINDLE_ASSIGN_OR_RETURN(Step s, parseStep(JsonReader(doc["steps"][0], "steps[0]"), 0,
//                                              types, labels));
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scenario/json_reader.h"
#include "scenario/scenario.h"

namespace spindle {

// One step; `labels` are the names declared in cluster.nodeLabels (addNode checks against them).
Result<Step> parseStep(const JsonReader& r, int index, const ResourceTypes& types,
                       const std::set<std::string>& labels);

// A `configuration` object (top level or refreshConfig): its members are merged into `out` in
// the documented order. A member that does not parse (malformed XML, a bad value) is stored in
// `configError` for `expectError`. With `removed` (refreshConfig), null values list properties
// to remove.
Status parseConfigurationObject(const JsonReader& conf, Configuration& out,
                                std::optional<Status>& configError,
                                std::vector<std::string>* removed);

// One NODE object (cluster.nodes[i] or an addNode step) appended to out: with `count` n, n nodes
// named NAME-0 .. NAME-(n-1), at most kMaxNodesPerEntry.
inline constexpr int64_t kMaxNodesPerEntry = 100000;
Status parseNodeEntry(const JsonReader& n, const ResourceTypes& types,
                      const std::set<std::string>& labels, std::vector<NodeSpec>& out);

// A node's `labels`: at most one, and each declared in cluster.nodeLabels.
Status checkNodeLabels(const JsonReader& node, const std::vector<std::string>& nodeLabels,
                       const std::set<std::string>& declared);

}  // namespace spindle
