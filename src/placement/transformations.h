// Rewrites between the specialised leaf forms and SingleConstraint (YARN's
// PlacementConstraintTransformations).
//
//   PlacementConstraint c = cardinalityConstraint(Scope::kRack, 3, 10, {"hb"});
//   PlacementConstraint s = toSingleForm(c);
//   // s == cardinality(Scope::kRack, 3, 10, {"hb"}): Single(rack, 3, 10, {allocationTag(hb)})
//   PlacementConstraint t = toSpecializedForm(targetIn(Scope::kNode, {allocationTag({"zk"})}));
//   // t is a TargetConstraint IN
//
// toSingleForm (SingleConstraintTransformer): TargetConstraint IN -> Single(1, MAX), NOT_IN ->
// Single(0, 0); CardinalityConstraint -> Single(min, max) with one ALLOCATION_TAG expression of
// the tag set (YARN leaves its key null, which evaluation reads as "self"; here it is "self").
// Recurses into And / Or children and into each DelayedOr child's inner constraint.
//
// toSpecializedForm (SpecializedConstraintTransformer, informational): Single (1, MAX) -> IN,
// (0, 0) -> NOT_IN, anything else unchanged; recurses the same way.
//
// The evaluator does not need either: it reads Target and Cardinality leaves as their Single
// form directly, without building a copy.
#pragma once

#include "placement/constraint.h"

namespace spindle::placement {

PlacementConstraint toSingleForm(const PlacementConstraint& c);
PlacementConstraint toSpecializedForm(const PlacementConstraint& c);

// The Single a Target or Cardinality leaf stands for (a Single is returned unchanged).
SingleConstraint asSingle(const TargetConstraint& c);
SingleConstraint asSingle(const CardinalityConstraint& c);

}  // namespace spindle::placement
