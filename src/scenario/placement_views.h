// The scenario format's placement-constraint pieces that need the scheduler: constraint text
// with app handles, and the `tags:` and `satisfies:` state views (docs/scenario-format.md).
//
//   auto c = parseScenarioConstraint("and(in,node,app-tag/web/ws:notin,node,x)", sched, apps);
//   Result<json> n = placementStatePath("tags", {"h1", "a1", "foo"}, "tags:h1.a1.foo", ctx);
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "placement/constraint.h"
#include "scenario/expectations.h"

namespace spindle {

// A PlacementSpec expression as a scenario writes it. Beyond what YARN's parser takes, a target
// `app-id/<handle>/<tag>` names the tags of the app submitted as <handle> and
// `app-tag/<apptag>/<tag>` the tags of the apps with that application tag (YARN reaches both
// only through its Java API: its parser splits a target at the last '/'). Errors are the
// parser's, or name the unknown handle.
Result<placement::PlacementConstraint> parseScenarioConstraint(
    std::string_view text, const Scheduler& s, const std::map<std::string, AppId>& apps);

// `tags:<node or rack>.<handle or *>.<tag or *>` and
// `satisfies:<handle>.<allocationRequestId>.<node>`.
Result<nlohmann::json> placementStatePath(const std::string& view,
                                          const std::vector<std::string>& parts,
                                          const std::string& path, const ExpectContext& ctx);

}  // namespace spindle
