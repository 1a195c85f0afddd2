// The PlacementSpec parser: the string form of placement constraints that the distributed shell
// (`-placement_spec`) and Spindle's scenarios and traces accept. Mirrors YARN's newer
// PlacementConstraintParser (`tag(n)` source tags, namespaces, node attributes).
//
//   Result<PlacementSpec> spec =
//       parsePlacementSpec("zk(3),NOTIN,NODE,zk:hbase(5),IN,RACK,all/zk:spark(7),"
//                          "CARDINALITY,NODE,hbase,1,3");
//   for (const SpecEntry& e : *spec) {
//     // e.sourceTags.tag == "zk", e.sourceTags.numAllocations == 3, e.constraint = NOTIN ...
//   }
//   Result<PlacementConstraint> c = parseExpression("and(notin,node,foo:in,rack,bar)");
//
// Grammar (what YARN's parser accepts, quirks included; docs/placement-constraints.md has it
// with examples):
//   PlacementSpec   := Item ( ':' Item )*       split on ':' outside (...)
//   Item            := TAG '(' INT ')' [ ',' Expr ]    the tag part ends at the FIRST "),"
//                    | NodeAttrExpr             only when the spec has exactly one item
//   Expr            := TargetExpr | CardinalityExpr | ConjunctionExpr | NodeAttrExpr
//                      (tried in this order; the first that parses wins)
//   TargetExpr      := ('in'|'notin') ',' SCOPE ( ',' Target )*
//   CardinalityExpr := 'cardinality' ',' SCOPE ( ',' Target )+ ',' INT ',' INT
//   ConjunctionExpr := ('and'|'AND'|'or'|'OR') ... '(' Expr ( ':' Expr )* ')'
//   NodeAttrExpr    := NAME ('='|'!=') VALUE ( ',' VALUE )*
//   Target          := [ ('self'|'not-self'|'all'|'app-id'|'app-tag') '/' ] TAG
//   SCOPE           := 'node' | 'rack' (any case)
// Tokens between commas are trimmed; text around ':' and inside `tag(n)` is not (YARN's
// whitespace rules). A namespaced target splits at its LAST '/', so `app-id/<id>/tag` and
// `app-tag/<t>/tag` are rejected as YARN rejects them.
//
// Errors are InvalidArgument with YARN's message followed by the offset in the input and the
// token: "expecting in or notin, but get XYZ [offset 0, token 'XYZ']". As in YARN, a failing
// expression reports "Invalid constraint expression <expr>"; Spindle appends the reason the
// most plausible sub-parser gave (chosen by the expression's first token).
//
// Deviations (none changes what is accepted): inputs on which YARN throws a Java runtime
// exception instead of a parse error (`in` with no scope, an empty `and()`) are parse errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "placement/constraint.h"

namespace spindle::placement {

// `tag(n)`: the tag the constraint applies to and the number of allocations asked for. The
// "empty" marker (tag "", 0) stands for a spec made of one node-attribute expression.
struct SourceTags {
  std::string tag;
  int32_t numAllocations = 0;

  bool empty() const { return tag.empty() && numAllocations == 0; }
  bool operator==(const SourceTags&) const = default;
};

struct SpecEntry {
  SourceTags sourceTags;
  std::optional<PlacementConstraint> constraint;  // absent for a bare `tag(n)` item
};

// In the order written; duplicate source tags stay separate entries, as in YARN.
using PlacementSpec = std::vector<SpecEntry>;

// parsePlacementSpec.
Result<PlacementSpec> parsePlacementSpec(std::string_view spec);

// parseExpression: one constraint expression (the part after `tag(n),`).
Result<PlacementConstraint> parseExpression(std::string_view expr);

// The sub-parsers on their own (YARN's inner parser classes), with their specific messages.
Result<PlacementConstraint> parseTargetExpression(std::string_view expr);       // IN / NOTIN
Result<PlacementConstraint> parseCardinalityExpression(std::string_view expr);  // CARDINALITY
Result<PlacementConstraint> parseConjunctionExpression(std::string_view expr);  // AND / OR
Result<PlacementConstraint> parseNodeAttributeExpression(std::string_view expr);

// MultipleConstraintsTokenizer: splits on ':' outside brackets; an unclosed '(' is also a split
// point; empty pieces are dropped; nothing is trimmed.
std::vector<std::string> splitConstraints(std::string_view text);

// SourceTagsTokenizer: "A(4)" -> {"A", 4}.
Result<SourceTags> parseSourceTags(std::string_view text);

}  // namespace spindle::placement
