#include "placement/transformations.h"

#include <memory>
#include <utility>

namespace spindle::placement {

namespace {

template <typename Leaf>
PlacementConstraint transform(const PlacementConstraint& c, Leaf&& leaf) {
  if (const auto* a = c.get<AndConstraint>()) {
    AndConstraint out;
    for (const PlacementConstraint& child : a->children)
      out.children.push_back(transform(child, leaf));
    return out;
  }
  if (const auto* o = c.get<OrConstraint>()) {
    OrConstraint out;
    for (const PlacementConstraint& child : o->children)
      out.children.push_back(transform(child, leaf));
    return out;
  }
  if (const auto* d = c.get<DelayedOrConstraint>()) {
    DelayedOrConstraint out;
    for (const TimedPlacementConstraint& t : d->children) {
      TimedPlacementConstraint copy = t;
      if (t.constraint) {
        copy.constraint =
            std::make_shared<const PlacementConstraint>(transform(*t.constraint, leaf));
      }
      out.children.push_back(std::move(copy));
    }
    return out;
  }
  return leaf(c);
}

}  // namespace

SingleConstraint asSingle(const TargetConstraint& c) {
  const bool in = c.op == TargetConstraint::Op::kIn;
  return SingleConstraint{c.scope, in ? 1 : 0, in ? kUnbounded : 0, c.targets,
                          NodeAttributeOp::kNoOp};
}

SingleConstraint asSingle(const CardinalityConstraint& c) {
  return SingleConstraint{c.scope,
                          c.minCardinality,
                          c.maxCardinality,
                          {TargetExpression(TargetType::kAllocationTag, "self", c.tags)},
                          NodeAttributeOp::kNoOp};
}

PlacementConstraint toSingleForm(const PlacementConstraint& c) {
  return transform(c, [](const PlacementConstraint& leaf) -> PlacementConstraint {
    if (const auto* t = leaf.get<TargetConstraint>()) return asSingle(*t);
    if (const auto* k = leaf.get<CardinalityConstraint>()) return asSingle(*k);
    return leaf;
  });
}

PlacementConstraint toSpecializedForm(const PlacementConstraint& c) {
  return transform(c, [](const PlacementConstraint& leaf) -> PlacementConstraint {
    const auto* s = leaf.get<SingleConstraint>();
    if (s == nullptr) return leaf;
    if (s->minCardinality == 1 && s->maxCardinality == kUnbounded) {
      return TargetConstraint{TargetConstraint::Op::kIn, s->scope, s->targets};
    }
    if (s->minCardinality == 0 && s->maxCardinality == 0) {
      return TargetConstraint{TargetConstraint::Op::kNotIn, s->scope, s->targets};
    }
    return leaf;
  });
}

}  // namespace spindle::placement
