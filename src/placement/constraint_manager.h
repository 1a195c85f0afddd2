// Application-level and cluster-global placement constraints, and the multi-level constraint a
// request is checked against. Mirrors YARN's MemoryPlacementConstraintManager
// (PlacementConstraintManagerService).
//
//   PlacementConstraintManager constraints;
//   constraints.registerApplication(app, {{{"hbase-rs"}, targetNotIn(Scope::kNode,
//                                                        {allocationTag({"hbase-rs"})})}});
//   std::vector<const PlacementConstraint*> levels =
//       constraints.constraintsFor(app, request.tags, request.constraint);
//   for (const Node& n : candidates) if (canSatisfy(levels, app, ctx(n), tags, attrs)) ...
//
// Multi-level rule (YARN's PlacementConstraintsUtil.getMultilevelConstraint): a request of
// application A with allocation tags S and request-level constraint RC is checked against the
// AND of the distinct non-null ones among [RC, AC, GC], in that order, where AC is the constraint
// A registered for S and GC the global one for S, both looked up only when S has exactly one tag.
// YARN's documentation says the request-level constraint overrides the application's; the code
// ANDs them, and so does Spindle. An AND of nothing is satisfied.
//
// Registration keys with zero or several tags are ignored (YARN: "Only a single tag can be
// associated with a placement constraint currently."); registering an application twice keeps
// the first registration. Not thread-safe (YARN guards its maps with a lock; Spindle's core is
// single-threaded).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/ids.h"
#include "placement/constraint.h"

namespace spindle::placement {

class PlacementConstraintManager {
 public:
  using SourceTagConstraints =
      std::vector<std::pair<std::vector<std::string>, PlacementConstraint>>;

  // At RegisterApplicationMaster. Returns how many entries were ignored (keys without exactly
  // one tag); nothing when the application is already registered.
  size_t registerApplication(AppId app, const SourceTagConstraints& constraints);
  void unregisterApplication(AppId app);
  bool isRegistered(AppId app) const { return apps_.contains(app); }

  // Cluster-global constraint for one source tag; `replace` false keeps an existing one.
  void addGlobalConstraint(const std::string& tag, PlacementConstraint c, bool replace);
  void removeGlobalConstraint(const std::string& tag);

  // The constraint for exactly one source tag, or null.
  const PlacementConstraint* appConstraint(AppId app, std::span<const std::string> tags) const;
  const PlacementConstraint* globalConstraint(std::span<const std::string> tags) const;

  // The distinct non-null constraints among [request, app, global], in that order; no copies.
  std::vector<const PlacementConstraint*> constraintsFor(
      AppId app, std::span<const std::string> tags,
      const PlacementConstraint* requestConstraint) const;
  // The same as one AND constraint (YARN's getMultilevelConstraint).
  PlacementConstraint multilevelConstraint(AppId app, std::span<const std::string> tags,
                                           const PlacementConstraint* requestConstraint) const;

 private:
  std::unordered_map<AppId, std::map<std::string, PlacementConstraint>> apps_;
  std::map<std::string, PlacementConstraint> global_;
};

}  // namespace spindle::placement
