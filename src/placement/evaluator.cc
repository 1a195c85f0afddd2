#include "placement/evaluator.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "placement/transformations.h"

namespace spindle::placement {

namespace {

struct Context {
  AppId app;
  const NodeContext& node;
  const AllocationTagsManager& tags;
  const NodeAttributes& attributes;
};

Result<bool> tagTarget(const TargetExpression& t, Scope scope, int32_t min, int32_t max,
                       const Context& ctx) {
  Result<AppSet> apps = ctx.tags.appSetFor(t.key, ctx.app);
  if (!apps) return apps.status();
  auto fold = [&](CardinalityOp op) {
    return scope == Scope::kNode ? ctx.tags.nodeCardinality(ctx.node.node, *apps, t.values, op)
                                 : ctx.tags.rackCardinality(ctx.node.rack, *apps, t.values, op);
  };
  if (min > 0 && fold(CardinalityOp::kMin) < min) return false;
  if (max != kUnbounded && fold(CardinalityOp::kMax) > max) return false;
  return true;
}

bool attributeTarget(const TargetExpression& t, NodeAttributeOp op, const Context& ctx) {
  const std::string_view first = t.values.empty() ? std::string_view() : t.values.front();
  if (t.key == kNodePartitionKey) {
    return first == ctx.node.partition;
  }
  const std::string_view key = t.key;
  const size_t slash = key.find('/');
  const std::string_view prefix =
      slash == std::string_view::npos ? kCentralizedPrefix : key.substr(0, slash);
  const std::string_view name = slash == std::string_view::npos ? key : key.substr(slash + 1);
  const std::optional<std::string_view> value = ctx.attributes.value(ctx.node.node, prefix, name);
  if (!value) return op == NodeAttributeOp::kNe;
  switch (op) {
    case NodeAttributeOp::kEq: return *value == first;
    case NodeAttributeOp::kNe: return *value != first;
    case NodeAttributeOp::kNoOp: return false;
  }
  return false;
}

Result<bool> single(Scope scope, int32_t min, int32_t max, NodeAttributeOp op,
                    const std::vector<TargetExpression>& targets, const Context& ctx) {
  for (const TargetExpression& t : targets) {
    if (t.type == TargetType::kNodeAttribute) {
      if (!attributeTarget(t, op, ctx)) return false;
      continue;
    }
    Result<bool> ok = tagTarget(t, scope, min, max, ctx);
    if (!ok || !*ok) return ok;
  }
  return true;
}

Result<bool> evaluate(const PlacementConstraint& c, const Context& ctx) {
  switch (c.kind()) {
    case PlacementConstraint::Kind::kSingle: {
      const auto& s = *c.get<SingleConstraint>();
      return single(s.scope, s.minCardinality, s.maxCardinality, s.op, s.targets, ctx);
    }
    case PlacementConstraint::Kind::kTarget: {
      const auto& t = *c.get<TargetConstraint>();
      const bool in = t.op == TargetConstraint::Op::kIn;
      return single(t.scope, in ? 1 : 0, in ? kUnbounded : 0, NodeAttributeOp::kNoOp, t.targets,
                    ctx);
    }
    case PlacementConstraint::Kind::kCardinality: {
      const SingleConstraint s = asSingle(*c.get<CardinalityConstraint>());
      return single(s.scope, s.minCardinality, s.maxCardinality, s.op, s.targets, ctx);
    }
    case PlacementConstraint::Kind::kAnd:
      for (const PlacementConstraint& child : c.get<AndConstraint>()->children) {
        Result<bool> ok = evaluate(child, ctx);
        if (!ok || !*ok) return ok;
      }
      return true;
    case PlacementConstraint::Kind::kOr:
      for (const PlacementConstraint& child : c.get<OrConstraint>()->children) {
        Result<bool> ok = evaluate(child, ctx);
        if (!ok || *ok) return ok;
      }
      return false;
    case PlacementConstraint::Kind::kDelayedOr:
      return failedPrecondition("Unsupported type of constraint: DelayedOr");
  }
  return false;
}

}  // namespace

Result<bool> satisfies(const PlacementConstraint& constraint, AppId app, const NodeContext& node,
                       const AllocationTagsManager& tags, const NodeAttributes& attributes) {
  return evaluate(constraint, Context{app, node, tags, attributes});
}

Result<bool> satisfies(std::span<const PlacementConstraint* const> constraints, AppId app,
                       const NodeContext& node, const AllocationTagsManager& tags,
                       const NodeAttributes& attributes) {
  const Context ctx{app, node, tags, attributes};
  for (const PlacementConstraint* c : constraints) {
    if (c == nullptr) continue;
    Result<bool> ok = evaluate(*c, ctx);
    if (!ok || !*ok) return ok;
  }
  return true;
}

bool canSatisfy(const PlacementConstraint& constraint, AppId app, const NodeContext& node,
                const AllocationTagsManager& tags, const NodeAttributes& attributes) {
  Result<bool> ok = satisfies(constraint, app, node, tags, attributes);
  return ok && *ok;
}

bool canSatisfy(std::span<const PlacementConstraint* const> constraints, AppId app,
                const NodeContext& node, const AllocationTagsManager& tags,
                const NodeAttributes& attributes) {
  Result<bool> ok = satisfies(constraints, app, node, tags, attributes);
  return ok && *ok;
}

namespace {

std::string where(Scope scope, const NodeContext& node) {
  return scope == Scope::kNode ? fmt::format("node {}", node.node.value())
                               : fmt::format("rack {}", node.rack.value());
}

// The reason one Single leaf fails, or nullopt when it holds.
std::optional<std::string> explainSingle(const SingleConstraint& s, const Context& ctx) {
  const std::string leaf = PlacementConstraint(s).toString();
  for (const TargetExpression& t : s.targets) {
    if (t.type == TargetType::kNodeAttribute) {
      if (attributeTarget(t, s.op, ctx)) continue;
      if (t.key == kNodePartitionKey) {
        return fmt::format("{}: node {} is in partition '{}'", leaf, ctx.node.node.value(),
                           ctx.node.partition);
      }
      const size_t slash = t.key.find('/');
      const std::string prefix =
          slash == std::string::npos ? std::string(kCentralizedPrefix) : t.key.substr(0, slash);
      const std::string name = slash == std::string::npos ? t.key : t.key.substr(slash + 1);
      const auto value = ctx.attributes.value(ctx.node.node, prefix, name);
      return value ? fmt::format("{}: node {} has {}/{}={}", leaf, ctx.node.node.value(), prefix,
                                 name, *value)
                   : fmt::format("{}: node {} has no {}/{}", leaf, ctx.node.node.value(), prefix,
                                 name);
    }
    Result<bool> ok = tagTarget(t, s.scope, s.minCardinality, s.maxCardinality, ctx);
    if (!ok) return fmt::format("{}: {}", leaf, ok.status().message());
    if (*ok) continue;
    Result<AppSet> apps = ctx.tags.appSetFor(t.key, ctx.app);
    std::vector<std::string> counts;
    for (const std::string& tag : t.values) {
      const std::string one[] = {tag};
      const int64_t c =
          s.scope == Scope::kNode
              ? ctx.tags.nodeCardinality(ctx.node.node, *apps, one, CardinalityOp::kSum)
              : ctx.tags.rackCardinality(ctx.node.rack, *apps, one, CardinalityOp::kSum);
      counts.push_back(fmt::format("{} of {}", c, tag));
    }
    const std::string ns = t.key.empty() ? "self" : t.key;
    const std::string bound =
        s.minCardinality > 0 && s.maxCardinality != kUnbounded
            ? fmt::format("between {} and {} required", s.minCardinality, s.maxCardinality)
        : s.minCardinality > 0 ? fmt::format("at least {} required", s.minCardinality)
                               : fmt::format("at most {} allowed", s.maxCardinality);
    return fmt::format(
        "{}: {} has {} ({}), {}", leaf, where(s.scope, ctx.node),
        counts.empty() ? std::string("no listed tag") : fmt::format("{}", fmt::join(counts, ", ")),
        ns, bound);
  }
  return std::nullopt;
}

std::optional<std::string> explainTree(const PlacementConstraint& c, const Context& ctx) {
  switch (c.kind()) {
    case PlacementConstraint::Kind::kSingle: return explainSingle(*c.get<SingleConstraint>(), ctx);
    case PlacementConstraint::Kind::kTarget:
      return explainSingle(asSingle(*c.get<TargetConstraint>()), ctx);
    case PlacementConstraint::Kind::kCardinality:
      return explainSingle(asSingle(*c.get<CardinalityConstraint>()), ctx);
    case PlacementConstraint::Kind::kAnd:
      for (const PlacementConstraint& child : c.get<AndConstraint>()->children) {
        if (auto why = explainTree(child, ctx)) return why;
      }
      return std::nullopt;
    case PlacementConstraint::Kind::kOr: {
      std::vector<std::string> reasons;
      for (const PlacementConstraint& child : c.get<OrConstraint>()->children) {
        auto why = explainTree(child, ctx);
        if (!why) return std::nullopt;
        reasons.push_back(*why);
      }
      return reasons.empty() ? std::string("or(): no alternative")
                             : fmt::format("no alternative of {} holds: {}", c.toString(),
                                           fmt::join(reasons, "; "));
    }
    case PlacementConstraint::Kind::kDelayedOr:
      return std::string("Unsupported type of constraint: DelayedOr");
  }
  return std::nullopt;
}

Status validateSingle(const SingleConstraint& s) {
  const bool attributeForm = s.minCardinality == -1 && s.maxCardinality == -1;
  bool hasTag = false;
  for (const TargetExpression& t : s.targets) {
    if (t.type == TargetType::kNodeAttribute) continue;
    hasTag = true;
    SPINDLE_RETURN_IF_ERROR(AllocationTagNamespace::parse(t.key).status());
  }
  if (hasTag && !attributeForm) {
    if (s.minCardinality < 0 || s.maxCardinality < 0) {
      return invalidArgument("negative cardinality [{}, {}] in {}", s.minCardinality,
                             s.maxCardinality, PlacementConstraint(s).toString());
    }
    if (s.minCardinality > s.maxCardinality) {
      return invalidArgument("min cardinality {} > max cardinality {} in {}", s.minCardinality,
                             s.maxCardinality, PlacementConstraint(s).toString());
    }
  }
  if (hasTag && attributeForm) {
    return invalidArgument("allocation tags with the node-attribute bounds -1/-1 in {}",
                           PlacementConstraint(s).toString());
  }
  if (s.op != NodeAttributeOp::kNoOp &&
      std::none_of(s.targets.begin(), s.targets.end(), [](const TargetExpression& t) {
        return t.type == TargetType::kNodeAttribute;
      })) {
    return invalidArgument("operator {} without a node-attribute target in {}",
                           nodeAttributeOpName(s.op), PlacementConstraint(s).toString());
  }
  return Status::ok();
}

}  // namespace

std::string explainUnsatisfied(std::span<const PlacementConstraint* const> constraints, AppId app,
                               const NodeContext& node, const AllocationTagsManager& tags,
                               const NodeAttributes& attributes) {
  const Context ctx{app, node, tags, attributes};
  for (const PlacementConstraint* c : constraints) {
    if (c == nullptr) continue;
    if (auto why = explainTree(*c, ctx)) return *why;
  }
  return {};
}

Status validateConstraint(const PlacementConstraint& c) {
  switch (c.kind()) {
    case PlacementConstraint::Kind::kSingle: return validateSingle(*c.get<SingleConstraint>());
    case PlacementConstraint::Kind::kTarget:
      return validateSingle(asSingle(*c.get<TargetConstraint>()));
    case PlacementConstraint::Kind::kCardinality:
      return validateSingle(asSingle(*c.get<CardinalityConstraint>()));
    case PlacementConstraint::Kind::kAnd:
      for (const PlacementConstraint& child : c.get<AndConstraint>()->children) {
        SPINDLE_RETURN_IF_ERROR(validateConstraint(child));
      }
      return Status::ok();
    case PlacementConstraint::Kind::kOr:
      for (const PlacementConstraint& child : c.get<OrConstraint>()->children) {
        SPINDLE_RETURN_IF_ERROR(validateConstraint(child));
      }
      return Status::ok();
    case PlacementConstraint::Kind::kDelayedOr:
      return invalidArgument("Unsupported type of constraint: DelayedOr (never satisfied)");
  }
  return Status::ok();
}

}  // namespace spindle::placement
