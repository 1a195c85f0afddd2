#include "placement/constraint.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace spindle::placement {

namespace {

std::vector<std::string> sortedUnique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::vector<TargetExpression> uniqueTargets(std::vector<TargetExpression> targets) {
  std::vector<TargetExpression> out;
  out.reserve(targets.size());
  for (auto& t : targets) {
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(std::move(t));
  }
  return out;
}

// Set equality of two duplicate-free target lists.
bool sameTargets(const std::vector<TargetExpression>& a, const std::vector<TargetExpression>& b) {
  if (a.size() != b.size()) return false;
  return std::all_of(a.begin(), a.end(), [&](const TargetExpression& t) {
    return std::find(b.begin(), b.end(), t) != b.end();
  });
}

std::string joined(const std::vector<std::string>& values, std::string_view sep) {
  return fmt::format("{}", fmt::join(values, sep));
}

std::string singleToString(Scope scope, int32_t min, int32_t max, NodeAttributeOp op,
                           const std::vector<TargetExpression>& targets) {
  std::vector<std::string> segments;
  segments.reserve(targets.size());
  for (const TargetExpression& t : targets) {
    const std::string values = joined(t.values, ",");
    if (min == 0 && max == 0) {
      segments.push_back(fmt::format("notin,{},{}", scopeName(scope), values));
    } else if (min == 1 && max == kUnbounded) {
      segments.push_back(fmt::format("in,{},{}", scopeName(scope), values));
    } else if (min == -1 && max == -1) {
      segments.push_back(fmt::format("{},{},{}=[{}]", scopeName(scope), nodeAttributeOpName(op),
                                     t.key, joined(t.values, ":")));
    } else {
      segments.push_back(
          fmt::format("cardinality,{},{},{},{}", scopeName(scope), values, min, max));
    }
  }
  return joined(segments, ":");
}

std::string childrenToString(const std::vector<PlacementConstraint>& children) {
  std::vector<std::string> parts;
  parts.reserve(children.size());
  for (const PlacementConstraint& c : children) parts.push_back(c.toString());
  return joined(parts, ":");
}

}  // namespace

std::string_view scopeName(Scope scope) { return scope == Scope::kNode ? "node" : "rack"; }

std::string_view targetTypeName(TargetType type) {
  return type == TargetType::kAllocationTag ? "ALLOCATION_TAG" : "NODE_ATTRIBUTE";
}

std::string_view nodeAttributeOpName(NodeAttributeOp op) {
  switch (op) {
    case NodeAttributeOp::kNoOp: return "NO_OP";
    case NodeAttributeOp::kEq: return "EQ";
    case NodeAttributeOp::kNe: return "NE";
  }
  return "NO_OP";
}

TargetExpression::TargetExpression(TargetType t, std::string k, std::vector<std::string> v)
    : type(t), key(std::move(k)), values(sortedUnique(std::move(v))) {}

bool SingleConstraint::operator==(const SingleConstraint& other) const {
  return scope == other.scope && minCardinality == other.minCardinality &&
         maxCardinality == other.maxCardinality && op == other.op &&
         sameTargets(targets, other.targets);
}

bool TargetConstraint::operator==(const TargetConstraint& other) const {
  return op == other.op && scope == other.scope && sameTargets(targets, other.targets);
}

bool AndConstraint::operator==(const AndConstraint& other) const {
  return children == other.children;
}

bool OrConstraint::operator==(const OrConstraint& other) const {
  return children == other.children;
}

bool TimedPlacementConstraint::operator==(const TimedPlacementConstraint& other) const {
  const bool sameConstraint = (constraint == nullptr || other.constraint == nullptr)
                                  ? constraint == other.constraint
                                  : *constraint == *other.constraint;
  return sameConstraint && schedulingDelay == other.schedulingDelay && unit == other.unit;
}

std::string PlacementConstraint::toString() const {
  struct Printer {
    std::string operator()(const SingleConstraint& c) const {
      return singleToString(c.scope, c.minCardinality, c.maxCardinality, c.op, c.targets);
    }
    std::string operator()(const TargetConstraint& c) const {
      const bool in = c.op == TargetConstraint::Op::kIn;
      return singleToString(c.scope, in ? 1 : 0, in ? kUnbounded : 0, NodeAttributeOp::kNoOp,
                            c.targets);
    }
    std::string operator()(const CardinalityConstraint& c) const {
      return singleToString(c.scope, c.minCardinality, c.maxCardinality, NodeAttributeOp::kNoOp,
                            {TargetExpression(TargetType::kAllocationTag, "self", c.tags)});
    }
    std::string operator()(const AndConstraint& c) const {
      return "and(" + childrenToString(c.children) + ")";
    }
    std::string operator()(const OrConstraint& c) const {
      return "or(" + childrenToString(c.children) + ")";
    }
    std::string operator()(const DelayedOrConstraint& c) const {
      std::vector<std::string> parts;
      for (const TimedPlacementConstraint& t : c.children) {
        parts.push_back(t.constraint ? t.constraint->toString() : "null");
      }
      return "DelayedOr(" + joined(parts, ",") + ")";
    }
  };
  return std::visit(Printer{}, node_);
}

TargetExpression allocationTag(std::vector<std::string> tags) {
  return TargetExpression(TargetType::kAllocationTag, "self", std::move(tags));
}

TargetExpression allocationTagWithNamespace(std::string ns, std::vector<std::string> tags) {
  return TargetExpression(TargetType::kAllocationTag, std::move(ns), std::move(tags));
}

TargetExpression nodeAttribute(std::string key, std::vector<std::string> values) {
  return TargetExpression(TargetType::kNodeAttribute, std::move(key), std::move(values));
}

TargetExpression nodePartition(std::vector<std::string> partitions) {
  return TargetExpression(TargetType::kNodeAttribute, std::string(kNodePartitionKey),
                          std::move(partitions));
}

namespace {

PlacementConstraint single(Scope scope, int32_t min, int32_t max,
                           std::vector<TargetExpression> targets,
                           NodeAttributeOp op = NodeAttributeOp::kNoOp) {
  return SingleConstraint{scope, min, max, uniqueTargets(std::move(targets)), op};
}

}  // namespace

PlacementConstraint targetIn(Scope scope, std::vector<TargetExpression> targets) {
  return single(scope, 1, kUnbounded, std::move(targets));
}

PlacementConstraint targetNotIn(Scope scope, std::vector<TargetExpression> targets) {
  return single(scope, 0, 0, std::move(targets));
}

PlacementConstraint targetNodeAttribute(Scope scope, NodeAttributeOp op,
                                        std::vector<TargetExpression> targets) {
  return single(scope, -1, -1, std::move(targets), op);
}

PlacementConstraint cardinality(Scope scope, int32_t min, int32_t max,
                                std::vector<std::string> tags) {
  return cardinality(scope, "self", min, max, std::move(tags));
}

PlacementConstraint cardinality(Scope scope, std::string ns, int32_t min, int32_t max,
                                std::vector<std::string> tags) {
  return single(scope, min, max, {allocationTagWithNamespace(std::move(ns), std::move(tags))});
}

PlacementConstraint minCardinality(Scope scope, int32_t min, std::vector<std::string> tags) {
  return cardinality(scope, "self", min, kUnbounded, std::move(tags));
}

PlacementConstraint minCardinality(Scope scope, std::string ns, int32_t min,
                                   std::vector<std::string> tags) {
  return cardinality(scope, std::move(ns), min, kUnbounded, std::move(tags));
}

PlacementConstraint maxCardinality(Scope scope, int32_t max, std::vector<std::string> tags) {
  return cardinality(scope, "self", 0, max, std::move(tags));
}

PlacementConstraint maxCardinality(Scope scope, std::string ns, int32_t max,
                                   std::vector<std::string> tags) {
  return cardinality(scope, std::move(ns), 0, max, std::move(tags));
}

PlacementConstraint targetCardinality(Scope scope, int32_t min, int32_t max,
                                      std::vector<TargetExpression> targets) {
  return single(scope, min, max, std::move(targets));
}

PlacementConstraint andOf(std::vector<PlacementConstraint> children) {
  return AndConstraint{std::move(children)};
}

PlacementConstraint orOf(std::vector<PlacementConstraint> children) {
  return OrConstraint{std::move(children)};
}

PlacementConstraint delayedOr(std::vector<TimedPlacementConstraint> children) {
  return DelayedOrConstraint{std::move(children)};
}

TimedPlacementConstraint timedClockConstraint(PlacementConstraint c, int64_t delayMs) {
  return {std::make_shared<const PlacementConstraint>(std::move(c)), delayMs,
          TimedPlacementConstraint::DelayUnit::kMilliseconds};
}

TimedPlacementConstraint timedOpportunitiesConstraint(PlacementConstraint c, int64_t count) {
  return {std::make_shared<const PlacementConstraint>(std::move(c)), count,
          TimedPlacementConstraint::DelayUnit::kOpportunities};
}

PlacementConstraint targetConstraint(TargetConstraint::Op op, Scope scope,
                                     std::vector<TargetExpression> targets) {
  return TargetConstraint{op, scope, uniqueTargets(std::move(targets))};
}

PlacementConstraint cardinalityConstraint(Scope scope, int32_t min, int32_t max,
                                          std::vector<std::string> tags) {
  return CardinalityConstraint{scope, min, max, sortedUnique(std::move(tags))};
}

}  // namespace spindle::placement
