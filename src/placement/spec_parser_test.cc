// The PlacementSpec parser beyond the public vectors: YARN's whitespace rules and quirks, every
// rejection path, the offsets and tokens in error messages, and toString.
#include "placement/spec_parser.h"

#include <gtest/gtest.h>

#include "placement/constraint.h"

namespace spindle::placement {
namespace {

std::string errorOf(std::string_view spec) {
  Result<PlacementSpec> r = parsePlacementSpec(spec);
  EXPECT_FALSE(r) << spec << " parsed";
  return r ? std::string() : r.status().message();
}

PlacementConstraint only(std::string_view spec) {
  Result<PlacementSpec> r = parsePlacementSpec(spec);
  EXPECT_TRUE(r) << r.status().toString();
  EXPECT_EQ(r->size(), 1u);
  EXPECT_TRUE(r->front().constraint.has_value());
  return *r->front().constraint;
}

TEST(SpecParser, DocumentedExampleParsesInOrder) {
  Result<PlacementSpec> r = parsePlacementSpec(
      "zk(3),NOTIN,NODE,zk:hbase(5),IN,RACK,zk:spark(7),CARDINALITY,NODE,hbase,1,3");
  ASSERT_TRUE(r) << r.status().toString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].sourceTags, (SourceTags{"zk", 3}));
  EXPECT_EQ(*(*r)[0].constraint, targetNotIn(Scope::kNode, {allocationTag({"zk"})}));
  EXPECT_EQ((*r)[1].sourceTags, (SourceTags{"hbase", 5}));
  EXPECT_EQ(*(*r)[1].constraint, targetIn(Scope::kRack, {allocationTag({"zk"})}));
  EXPECT_EQ(*(*r)[2].constraint, targetCardinality(Scope::kNode, 1, 3, {allocationTag({"hbase"})}));
}

TEST(SpecParser, NamespacedTargets) {
  EXPECT_EQ(only("zk(3),NOTIN,NODE,not-self/zk"),
            targetNotIn(Scope::kNode, {allocationTagWithNamespace("not-self", {"zk"})}));
  EXPECT_EQ(only("a(1),in,rack,all/zk"),
            targetIn(Scope::kRack, {allocationTagWithNamespace("all", {"zk"})}));
  EXPECT_EQ(only("a(1),in,rack,self/zk"),
            targetIn(Scope::kRack, {allocationTagWithNamespace("self", {"zk"})}));
  // The last '/' splits: app-id/<id>/tag has the prefix "app-id/<id>", not a keyword.
  EXPECT_NE(errorOf("a(1),notin,node,app-id/application_1_0001/ws")
                .find("Invalid namespace prefix: app-id/application_1_0001"),
            std::string::npos);
  // app-id/<tag> parses (and fails at evaluation: no application id).
  EXPECT_EQ(only("a(1),notin,node,app-id/ws"),
            targetNotIn(Scope::kNode, {allocationTagWithNamespace("app-id", {"ws"})}));
  // Namespace keywords are case-sensitive.
  EXPECT_NE(errorOf("a(1),notin,node,ALL/ws").find("Invalid namespace prefix: ALL"),
            std::string::npos);
}

TEST(SpecParser, WhitespaceRules) {
  // Tokens between commas are trimmed.
  EXPECT_EQ(only("foo(3), NOTIN , node ,  foo "),
            targetNotIn(Scope::kNode, {allocationTag({"foo"})}));
  // Blanks after ':' leak into the next source tag.
  Result<PlacementSpec> r = parsePlacementSpec("foo(3):  bar(2),notin,node,foo");
  ASSERT_TRUE(r) << r.status().toString();
  EXPECT_EQ((*r)[1].sourceTags.tag, "  bar");
  // ... and are fatal before and( / or(.
  EXPECT_NE(errorOf("foo(1),and(in,node,a: or(in,node,b:in,node,c))")
                .find("Invalid constraint expression"),
            std::string::npos);
  // Inside tag(n) they are fatal.
  EXPECT_NE(errorOf("foo( 3)").find("Value of the expression must be an integer, but met  3"),
            std::string::npos);
}

TEST(SpecParser, ConjunctionQuirks) {
  // Prefix test: andx(...) is an AND; text after the last ')' is ignored.
  EXPECT_EQ(only("f(1),andx(in,node,a:in,node,b)"),
            andOf({targetIn(Scope::kNode, {allocationTag({"a"})}),
                   targetIn(Scope::kNode, {allocationTag({"b"})})}));
  EXPECT_EQ(only("f(1),or(in,node,a)junk"), orOf({targetIn(Scope::kNode, {allocationTag({"a"})})}));
  // Only and/AND/or/OR.
  EXPECT_FALSE(parseConjunctionExpression("And(in,node,a)"));
  EXPECT_NE(parseConjunctionExpression("xor(in,node,a)")
                .status()
                .message()
                .find("Excepting starting with \"and\" or \"or\", but met xor(in,node,a)"),
            std::string::npos);
  EXPECT_NE(parseConjunctionExpression("and in,node,a")
                .status()
                .message()
                .find("Unexpected format, expecting [AND|OR](A:B...)"),
            std::string::npos);
  // Deep nesting.
  EXPECT_EQ(only("f(1),and(or(and(in,node,a:notin,rack,b):in,node,c):cardinality,node,d,0,2)"),
            andOf({orOf({andOf({targetIn(Scope::kNode, {allocationTag({"a"})}),
                                targetNotIn(Scope::kRack, {allocationTag({"b"})})}),
                         targetIn(Scope::kNode, {allocationTag({"c"})})}),
                   targetCardinality(Scope::kNode, 0, 2, {allocationTag({"d"})})}));
}

TEST(SpecParser, InputsOnWhichYarnThrowsARuntimeExceptionAreParseErrors) {
  EXPECT_NE(errorOf("foo(1),in").find("expecting a scope after in"), std::string::npos);
  EXPECT_NE(errorOf("foo(1),and()").find("expecting at least one constraint inside and()"),
            std::string::npos);
  // The hard error escapes the fallback chain from inside a conjunction too.
  EXPECT_NE(errorOf("foo(1),and(notin:in,node,a)").find("expecting a scope after notin"),
            std::string::npos);
}

TEST(SpecParser, TargetAndCardinalityRejections) {
  EXPECT_NE(parseTargetExpression("in,nod,foo")
                .status()
                .message()
                .find("expecting scope to node or rack, but met nod [offset 3, token 'nod']"),
            std::string::npos);
  EXPECT_NE(parseCardinalityExpression("card,node,a,0,1")
                .status()
                .message()
                .find("expecting cardinality , but met card"),
            std::string::npos);
  EXPECT_NE(
      parseCardinalityExpression("cardinality").status().message().find("Expecting more tokens"),
      std::string::npos);
  EXPECT_NE(parseCardinalityExpression("cardinality,node,a,x,1")
                .status()
                .message()
                .find("Expecting an Integer, but get x"),
            std::string::npos);
  EXPECT_NE(parseCardinalityExpression("cardinality,node,a,0,99999999999")
                .status()
                .message()
                .find("Expecting an Integer, but get 99999999999"),
            std::string::npos);
  // No check that min <= max or that they are >= 0 (validateConstraint reports those).
  EXPECT_TRUE(parseCardinalityExpression("cardinality,node,a,5,1"));
  EXPECT_TRUE(parseCardinalityExpression("cardinality,node,a,-3,-1"));
  // Zero targets is accepted for IN / NOTIN.
  EXPECT_EQ(*parseTargetExpression("in,node"), targetIn(Scope::kNode, {}));
}

TEST(SpecParser, NodeAttributeExpressions) {
  EXPECT_EQ(*parseExpression("java==1.8"), targetNodeAttribute(Scope::kNode, NodeAttributeOp::kEq,
                                                               {nodeAttribute("java", {"1.8"})}));
  EXPECT_EQ(*parseExpression("nm.yarn.io/os!=windows"),
            targetNodeAttribute(Scope::kNode, NodeAttributeOp::kNe,
                                {nodeAttribute("nm.yarn.io/os", {"windows"})}));
  EXPECT_NE(parseNodeAttributeExpression("a,b").status().message().find(
                "expecting valid expression like k=v or k!=v, but get [a, b]"),
            std::string::npos);
  // A lone attribute expression needs no source tags; beside another item it does.
  Result<PlacementSpec> alone = parsePlacementSpec("java=1.8");
  ASSERT_TRUE(alone);
  EXPECT_TRUE(alone->front().sourceTags.empty());
  EXPECT_NE(errorOf("foo(1),notin,node,foo:java=1.8")
                .find("Source allocation tags is required for a multi placement constraint "
                      "expression. [offset 22, token 'java=1.8']"),
            std::string::npos);
}

TEST(SpecParser, SourceTagRejections) {
  EXPECT_NE(errorOf("foo(3").find("Expecting source allocation tag to be specified "
                                  "sourceTag(numOfAllocations) syntax, but met foo [offset 0"),
            std::string::npos);
  EXPECT_NE(errorOf("foo),bar").find("but met foo)"), std::string::npos);
  EXPECT_NE(errorOf("a(1):b(x)")
                .find("Value of the expression must be an integer, but met x "
                      "[offset 7, token 'x']"),
            std::string::npos);
  // Sign allowed, no range check beyond int32 (the scheduler rejects numAllocations < 0).
  Result<PlacementSpec> negative = parsePlacementSpec("foo(-2)");
  ASSERT_TRUE(negative);
  EXPECT_EQ(negative->front().sourceTags.numAllocations, -2);
  EXPECT_FALSE(parsePlacementSpec("foo(2147483648)"));
  // Consecutive '(' collapse.
  Result<SourceTags> collapsed = parseSourceTags("A((4)");
  ASSERT_TRUE(collapsed);
  EXPECT_EQ(*collapsed, (SourceTags{"A", 4}));
  // Duplicate source tags stay separate entries.
  Result<PlacementSpec> dup = parsePlacementSpec("a(1):a(2)");
  ASSERT_TRUE(dup);
  EXPECT_EQ(dup->size(), 2u);
}

TEST(SpecParser, ErrorsNameOffsetTokenAndReason) {
  const std::string message = errorOf("foo(1),in,node,x:baz(3),in,nod,foo");
  // The item "baz(3),in,nod,foo" starts at 17; its expression at 24.
  EXPECT_NE(
      message.find("Invalid constraint expression in,nod,foo [offset 24, token 'in,nod,foo']"),
      std::string::npos)
      << message;
  EXPECT_NE(message.find("expecting scope to node or rack, but met nod [offset 27, token 'nod']"),
            std::string::npos)
      << message;
  const std::string badOp = errorOf("foo(1),XYZ,node,foo");
  EXPECT_NE(badOp.find("Invalid constraint expression XYZ,node,foo [offset 7"), std::string::npos);
}

TEST(SpecParser, Tokenizer) {
  EXPECT_EQ(splitConstraints("a:b)"), (std::vector<std::string>{"a", "b)"}));  // stray ')'
  EXPECT_EQ(splitConstraints("foo(3"), (std::vector<std::string>{"foo", "3"}));
  EXPECT_EQ(splitConstraints("::a::"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(splitConstraints(""), (std::vector<std::string>{}));
  EXPECT_TRUE(parsePlacementSpec("")->empty());
}

TEST(ConstraintToString, AsYarnWritesIt) {
  EXPECT_EQ(andOf({targetNotIn(Scope::kNode, {allocationTag({"zk"})}),
                   maxCardinality(Scope::kRack, 2, {"hbase"})})
                .toString(),
            "and(notin,node,zk:cardinality,rack,hbase,0,2)");
  EXPECT_EQ(targetIn(Scope::kRack, {allocationTagWithNamespace("all", {"zk"})}).toString(),
            "in,rack,zk");  // the namespace is dropped
  EXPECT_EQ(targetNodeAttribute(Scope::kNode, NodeAttributeOp::kEq,
                                {nodeAttribute("java", {"1.8", "1.7"})})
                .toString(),
            "node,EQ,java=[1.7:1.8]");
  // One segment per target expression.
  EXPECT_EQ(targetNotIn(Scope::kNode, {allocationTag({"a"}), allocationTag({"b"})}).toString(),
            "notin,node,a:notin,node,b");
  EXPECT_EQ(orOf({minCardinality(Scope::kNode, 2, {"x"})}).toString(),
            "or(cardinality,node,x,2,2147483647)");
  EXPECT_EQ(
      delayedOr({timedClockConstraint(targetIn(Scope::kNode, {allocationTag({"a"})}), 5),
                 timedOpportunitiesConstraint(targetIn(Scope::kRack, {allocationTag({"a"})}), 3)})
          .toString(),
      "DelayedOr(in,node,a,in,rack,a)");
}

TEST(ConstraintToString, ParsesBackForTagConstraints) {
  const PlacementConstraint c = andOf({targetNotIn(Scope::kNode, {allocationTag({"zk"})}),
                                       orOf({targetIn(Scope::kRack, {allocationTag({"hb"})}),
                                             cardinality(Scope::kNode, 1, 3, {"sp"})})});
  Result<PlacementConstraint> back = parseExpression(c.toString());
  ASSERT_TRUE(back) << back.status().toString();
  EXPECT_EQ(*back, c);
}

TEST(ConstraintModel, TargetSetEqualityIgnoresOrderAndDuplicates) {
  EXPECT_EQ(targetNotIn(Scope::kNode, {allocationTag({"a"}), allocationTag({"b"})}),
            targetNotIn(Scope::kNode,
                        {allocationTag({"b"}), allocationTag({"a"}), allocationTag({"a"})}));
  EXPECT_NE(targetNotIn(Scope::kNode, {allocationTag({"a"})}),
            targetNotIn(Scope::kRack, {allocationTag({"a"})}));
  // Composite children compare in order.
  const auto a = targetIn(Scope::kNode, {allocationTag({"a"})});
  const auto b = targetIn(Scope::kNode, {allocationTag({"b"})});
  EXPECT_NE(andOf({a, b}), andOf({b, a}));
  EXPECT_NE(andOf({a, b}), orOf({a, b}));
  // Values are a set.
  EXPECT_EQ(allocationTag({"y", "x", "y"}).values, (std::vector<std::string>{"x", "y"}));
}

}  // namespace
}  // namespace spindle::placement
