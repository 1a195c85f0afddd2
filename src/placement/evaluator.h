// "Can this request go on this node right now?": placement constraints evaluated against the
// allocation tag store and the node's attributes. Mirrors YARN's PlacementConstraintsUtil
// (canSatisfyConstraints and its helpers).
//
//   const NodeContext where{node.id(), rackOfNode[node.id().value()], node.partition()};
//   Result<bool> ok = satisfies(constraint, app, where, tagsManager, nodeAttributes);
//   if (!ok) ... ok.status() names the bad namespace;  // YARN's callers read it as "no"
//   bool fits = canSatisfy(levels, app, where, tagsManager, nodeAttributes);
//   std::string why = explainUnsatisfied(levels, app, where, tagsManager, nodeAttributes);
//
// Rules (the reference's section 3, YARN's code where its docs differ):
//  1. And: every child; Or: at least one child (an empty Or is false, an empty And true);
//     DelayedOr: an error "Unsupported type of constraint: DelayedOr" (never satisfied).
//     Target and Cardinality leaves are read as the Single they transform to.
//  2. Single: every target expression must hold.
//  3. ALLOCATION_TAG target, scope node or rack, bounds [min, max]: the namespace (the target's
//     key; empty = self) names the applications counted; c(t) = their live allocations with
//     tag t in the scope. If min > 0: min over the tags of c(t) must be >= min; if
//     max < kUnbounded: max over the tags of c(t) must be <= max. With no tags the folds run over
//     every tag present there. So IN {a, b} needs both, NOT_IN {a, b} neither.
//  4. The container being placed is NOT counted: it is not in the store yet. A node can thus
//     end with max + 1 allocations of the source tag (YARN's tests rely on this).
//  5. NODE_ATTRIBUTE target with key yarn_node_partition/: no values -> the node is in the
//     default partition; else the first value equals the node's partition (op ignored).
//  6. Other NODE_ATTRIBUTE target: the key is prefix/name (no prefix -> rm.yarn.io); only the
//     FIRST value is compared (values are a sorted set here, so that is the smallest; YARN takes
//     the first of a hash set). Node without the attribute: true iff op is NE. Otherwise EQ ->
//     equal, NE -> different, NO_OP -> false. Scope and bounds are ignored.
//
// Cost: one hash lookup per (target, tag) for the self / all / not-self / app-id namespaces, one
// per application for app-tag, a short scan of the node's attributes per attribute target. No
// other node or rack is visited.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "base/ids.h"
#include "base/status.h"
#include "placement/allocation_tags.h"
#include "placement/constraint.h"
#include "placement/node_attributes.h"

namespace spindle::placement {

// The candidate node as the evaluator sees it: plain cluster identities, no scheduler types.
struct NodeContext {
  NodeId node;
  RackId rack;
  std::string_view partition;  // the node's label; "" is the default partition
};

// The constraint tree on the node, for a request of application `app`. InvalidArgument for a
// bad namespace key, FailedPrecondition for DelayedOr.
Result<bool> satisfies(const PlacementConstraint& constraint, AppId app, const NodeContext& node,
                       const AllocationTagsManager& tags, const NodeAttributes& attributes);

// Every constraint of the list (the multi-level AND, see constraint_manager.h); empty is true.
Result<bool> satisfies(std::span<const PlacementConstraint* const> constraints, AppId app,
                       const NodeContext& node, const AllocationTagsManager& tags,
                       const NodeAttributes& attributes);

// As satisfies, with errors read as "not satisfied" (what YARN's placement algorithm and
// scheduler allocator do with an InvalidAllocationTagsQueryException).
bool canSatisfy(const PlacementConstraint& constraint, AppId app, const NodeContext& node,
                const AllocationTagsManager& tags, const NodeAttributes& attributes);
bool canSatisfy(std::span<const PlacementConstraint* const> constraints, AppId app,
                const NodeContext& node, const AllocationTagsManager& tags,
                const NodeAttributes& attributes);

// Why the constraints do not hold on the node, for a decision record (the node filter's
// explain()): the first failing leaf with the counts or attribute it saw, e.g.
//   "notin,node,foo: node 3 has 1 of foo (self), at most 0 allowed"
//   "node,EQ,java=[1.8]: node 3 has rm.yarn.io/java=1.7"
// or the evaluation error. Empty when they hold.
std::string explainUnsatisfied(std::span<const PlacementConstraint* const> constraints, AppId app,
                               const NodeContext& node, const AllocationTagsManager& tags,
                               const NodeAttributes& attributes);

// What the evaluator cannot honour, found before any node is tried, so that a request can be
// rejected with a reason instead of staying pending: a bad namespace key, a negative bound
// (other than the -1/-1 of node-attribute constraints), min > max, an EQ/NE op without a
// node-attribute target, a DelayedOr. YARN accepts all of these and then never satisfies them
// (or fails at evaluation); the scheduler handler reads this as its validation step.
Status validateConstraint(const PlacementConstraint& constraint);

}  // namespace spindle::placement
