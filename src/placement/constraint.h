// The placement constraint model: YARN's PlacementConstraint tree, its builders
// (PlacementConstraints, PlacementTargets) and its toString.
//
//   using namespace spindle::placement;
//   PlacementConstraint zkAntiAffinity = targetNotIn(Scope::kNode, allocationTag({"zk"}));
//   PlacementConstraint spread = maxCardinality(Scope::kRack, 2, {"hbase"});
//   PlacementConstraint both = andOf({zkAntiAffinity, spread});
//   both.toString();  // "and(notin,node,zk:cardinality,rack,hbase,0,2)"
//
// A constraint is a tree whose leaves say "within this scope (node or rack), the number of
// allocations carrying these tags must be within [min, max]" (SingleConstraint), or "the node's
// attribute must (not) equal this value" (a SingleConstraint with a NODE_ATTRIBUTE target and an
// EQ/NE op). TargetConstraint (IN / NOT_IN) and CardinalityConstraint are YARN's "specialised"
// leaf forms; the evaluator reads them as the SingleConstraint they transform to
// (transformations.h). And / Or combine children; DelayedOr exists in the API but, as in YARN,
// is never satisfied.
//
// Cardinality bounds follow YARN: IN = [1, kUnbounded], NOT_IN = [0, 0], min <= 0 means no lower
// check, max == kUnbounded (Integer.MAX_VALUE) means no upper check, both bounds inclusive.
//
// Values are immutable trees with value equality (YARN's equals): a SingleConstraint compares
// scope, bounds, op and the SET of target expressions; composites compare child lists in order.
//
// Immutable once built, so a constraint may be shared between threads.
//
// Scope is an enum: YARN compares the scope string with "node" / "rack" and silently counts 0 for
// any other spelling (e.g. "NODE" through the Java API); here that mistake cannot be written.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace spindle::placement {

inline constexpr int32_t kUnbounded = std::numeric_limits<int32_t>::max();

// The target key of a node-partition expression (PlacementTargets.nodePartition).
inline constexpr std::string_view kNodePartitionKey = "yarn_node_partition/";

enum class Scope { kNode, kRack };
// "node" / "rack", as YARN's PlacementConstraints.NODE / RACK.
std::string_view scopeName(Scope scope);

enum class TargetType { kAllocationTag, kNodeAttribute };
std::string_view targetTypeName(TargetType type);  // "ALLOCATION_TAG", "NODE_ATTRIBUTE"

// NodeAttributeOpCode.
enum class NodeAttributeOp { kNoOp, kEq, kNe };
std::string_view nodeAttributeOpName(NodeAttributeOp op);  // "NO_OP", "EQ", "NE"

// TargetExpression: for allocation tags, `key` is the namespace ("self", "not-self", "all",
// "app-id/<id>", "app-tag/<tag>"; empty means self) and `values` the tags; for node attributes,
// `key` is the attribute name with optional prefix ("java", "nm.yarn.io/os") or
// kNodePartitionKey, and `values` the attribute values. Values are a set: kept sorted and
// unique, which also makes "the first value" (see evaluator.h) well defined.
struct TargetExpression {
  TargetType type = TargetType::kAllocationTag;
  std::string key;
  std::vector<std::string> values;

  TargetExpression() = default;
  TargetExpression(TargetType t, std::string k, std::vector<std::string> v);
  bool operator==(const TargetExpression&) const = default;
  auto operator<=>(const TargetExpression&) const = default;
};

class PlacementConstraint;

// The only leaf the evaluator reads directly. `targets` is a set (no duplicates; equality ignores
// order) kept in insertion order so that toString follows what the user wrote.
struct SingleConstraint {
  Scope scope = Scope::kNode;
  int32_t minCardinality = 0;
  int32_t maxCardinality = 0;
  std::vector<TargetExpression> targets;
  NodeAttributeOp op = NodeAttributeOp::kNoOp;

  bool operator==(const SingleConstraint& other) const;
};

// Specialised IN / NOT_IN form (PlacementConstraint.TargetConstraint).
struct TargetConstraint {
  enum class Op { kIn, kNotIn };
  Op op = Op::kIn;
  Scope scope = Scope::kNode;
  std::vector<TargetExpression> targets;

  bool operator==(const TargetConstraint& other) const;
};

// Specialised cardinality form over tags of the requesting application
// (PlacementConstraint.CardinalityConstraint). `tags` is a set, sorted.
struct CardinalityConstraint {
  Scope scope = Scope::kNode;
  int32_t minCardinality = 0;
  int32_t maxCardinality = 0;
  std::vector<std::string> tags;

  bool operator==(const CardinalityConstraint&) const = default;
};

struct AndConstraint {
  std::vector<PlacementConstraint> children;
  bool operator==(const AndConstraint& other) const;
};

struct OrConstraint {
  std::vector<PlacementConstraint> children;
  bool operator==(const OrConstraint& other) const;
};

// TimedPlacementConstraint: a constraint with a scheduling delay (default Long.MAX_VALUE ms).
struct TimedPlacementConstraint {
  enum class DelayUnit { kMilliseconds, kOpportunities };
  std::shared_ptr<const PlacementConstraint> constraint;
  int64_t schedulingDelay = std::numeric_limits<int64_t>::max();
  DelayUnit unit = DelayUnit::kMilliseconds;

  bool operator==(const TimedPlacementConstraint& other) const;
};

// Defined by YARN but never evaluated: the evaluator reports "Unsupported type of constraint".
struct DelayedOrConstraint {
  std::vector<TimedPlacementConstraint> children;
  bool operator==(const DelayedOrConstraint&) const = default;
};

// One node of the tree (YARN's PlacementConstraint wrapping an AbstractConstraint).
class PlacementConstraint {
 public:
  using Node = std::variant<SingleConstraint, TargetConstraint, CardinalityConstraint,
                            AndConstraint, OrConstraint, DelayedOrConstraint>;
  enum class Kind { kSingle, kTarget, kCardinality, kAnd, kOr, kDelayedOr };

  PlacementConstraint(SingleConstraint c) : node_(std::move(c)) {}       // NOLINT: implicit
  PlacementConstraint(TargetConstraint c) : node_(std::move(c)) {}       // NOLINT
  PlacementConstraint(CardinalityConstraint c) : node_(std::move(c)) {}  // NOLINT
  PlacementConstraint(AndConstraint c) : node_(std::move(c)) {}          // NOLINT
  PlacementConstraint(OrConstraint c) : node_(std::move(c)) {}           // NOLINT
  PlacementConstraint(DelayedOrConstraint c) : node_(std::move(c)) {}    // NOLINT

  Kind kind() const { return static_cast<Kind>(node_.index()); }
  const Node& node() const { return node_; }
  template <typename T>
  const T* get() const {
    return std::get_if<T>(&node_);
  }

  // YARN's serialisation (PlacementConstraint#toString), NOT a faithful round trip:
  //  - Single (0,0) -> "notin,<scope>,<tags>"; (1,MAX) -> "in,..."; (-1,-1) ->
  //    "<scope>,<OP>,<key>=[v1:v2]"; otherwise "cardinality,<scope>,<tags>,<min>,<max>";
  //    one segment per target expression, joined with ':'; a target's values joined with ','.
  //    Namespaces are dropped.
  //  - And -> "and(c1:c2)", Or -> "or(c1:c2)", DelayedOr -> "DelayedOr(c1,c2)".
  //  - Target / Cardinality print as the Single they transform to.
  std::string toString() const;

  bool operator==(const PlacementConstraint& other) const { return node_ == other.node_; }

 private:
  Node node_;
};

// ---- Builders (PlacementTargets) ----

// ALLOCATION_TAG target in the default namespace, key "self".
TargetExpression allocationTag(std::vector<std::string> tags);
// ALLOCATION_TAG target with a namespace key ("all", "not-self", "app-id/<id>", ...).
TargetExpression allocationTagWithNamespace(std::string ns, std::vector<std::string> tags);
TargetExpression nodeAttribute(std::string key, std::vector<std::string> values);
TargetExpression nodePartition(std::vector<std::string> partitions);

// ---- Builders (PlacementConstraints); each returns the form the YARN builder returns ----

PlacementConstraint targetIn(Scope scope, std::vector<TargetExpression> targets);     // (1, MAX)
PlacementConstraint targetNotIn(Scope scope, std::vector<TargetExpression> targets);  // (0, 0)
PlacementConstraint targetNodeAttribute(Scope scope, NodeAttributeOp op,
                                        std::vector<TargetExpression> targets);  // (-1, -1, op)
// One ALLOCATION_TAG expression holding all `tags`, key "self" (or `ns`).
PlacementConstraint cardinality(Scope scope, int32_t min, int32_t max,
                                std::vector<std::string> tags);
PlacementConstraint cardinality(Scope scope, std::string ns, int32_t min, int32_t max,
                                std::vector<std::string> tags);
PlacementConstraint minCardinality(Scope scope, int32_t min, std::vector<std::string> tags);
PlacementConstraint minCardinality(Scope scope, std::string ns, int32_t min,
                                   std::vector<std::string> tags);
PlacementConstraint maxCardinality(Scope scope, int32_t max, std::vector<std::string> tags);
PlacementConstraint maxCardinality(Scope scope, std::string ns, int32_t max,
                                   std::vector<std::string> tags);
PlacementConstraint targetCardinality(Scope scope, int32_t min, int32_t max,
                                      std::vector<TargetExpression> targets);
PlacementConstraint andOf(std::vector<PlacementConstraint> children);
PlacementConstraint orOf(std::vector<PlacementConstraint> children);
PlacementConstraint delayedOr(std::vector<TimedPlacementConstraint> children);
TimedPlacementConstraint timedClockConstraint(PlacementConstraint c, int64_t delayMs);
TimedPlacementConstraint timedOpportunitiesConstraint(PlacementConstraint c, int64_t count);

// The specialised forms, as YARN's PlacementConstraint.TargetConstraint / CardinalityConstraint
// constructors (the public builders above never produce them; the transformer does).
PlacementConstraint targetConstraint(TargetConstraint::Op op, Scope scope,
                                     std::vector<TargetExpression> targets);
PlacementConstraint cardinalityConstraint(Scope scope, int32_t min, int32_t max,
                                          std::vector<std::string> tags);

}  // namespace spindle::placement
