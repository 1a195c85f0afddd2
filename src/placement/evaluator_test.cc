// Constraint evaluation: scopes, the uncounted container being placed, specialised leaves,
// composites, DelayedOr, namespaces across applications, the multi-level AND, validation.
#include "placement/evaluator.h"

#include <gtest/gtest.h>

#include "placement/constraint_manager.h"
#include "placement/spec_parser.h"
#include "placement/transformations.h"

namespace spindle::placement {
namespace {

using Tags = std::vector<std::string>;

// Four nodes, two racks: n0, n1 on r0; n2, n3 on r1.
struct Fixture {
  AllocationTagsManager tags;
  NodeAttributes attrs;

  static NodeContext at(uint32_t n) { return {NodeId{n}, RackId{n / 2}, ""}; }
  void place(uint32_t n, AppId app, Tags t) { tags.addTags(NodeId{n}, RackId{n / 2}, app, t); }
  bool ok(const PlacementConstraint& c, AppId app, uint32_t n) const {
    Result<bool> r = satisfies(c, app, at(n), tags, attrs);
    EXPECT_TRUE(r) << r.status().toString();
    return r && *r;
  }
};

const AppId a1{1}, a2{2};

TEST(Evaluator, RackScopeSeesEveryNodeOfTheRack) {
  Fixture f;
  f.place(1, a1, {"hbase-rs"});
  const auto inRack = targetIn(Scope::kRack, {allocationTag({"hbase-rs"})});
  EXPECT_TRUE(f.ok(inRack, a1, 0));
  EXPECT_TRUE(f.ok(inRack, a1, 1));
  EXPECT_FALSE(f.ok(inRack, a1, 2));
  const auto notInRack = targetNotIn(Scope::kRack, {allocationTag({"hbase-rs"})});
  EXPECT_FALSE(f.ok(notInRack, a1, 0));
  EXPECT_TRUE(f.ok(notInRack, a1, 3));
}

// Places `count` containers of `tag` one by one on the first node (in id order) where the
// constraint holds, adding each one's tag afterwards as the scheduler does; returns per node.
std::vector<int> greedy(Fixture& f, const PlacementConstraint& c, const std::string& tag,
                        int count) {
  std::vector<int> perNode(4, 0);
  for (int i = 0; i < count; ++i) {
    for (uint32_t n = 0; n < 4; ++n) {
      if (f.ok(c, a1, n)) {
        f.place(n, a1, {tag});
        ++perNode[n];
        break;
      }
    }
  }
  return perNode;
}

TEST(Evaluator, TheContainerBeingPlacedIsNotCounted) {
  {
    Fixture f;  // cardinality node 0..3 of its own tag: up to 4 per node
    EXPECT_EQ(greedy(f, cardinality(Scope::kNode, 0, 3, {"foo"}), "foo", 16),
              (std::vector<int>{4, 4, 4, 4}));
  }
  {
    Fixture f;  // NOTIN its own tag: one per node, the fifth finds no node
    EXPECT_EQ(greedy(f, targetNotIn(Scope::kNode, {allocationTag({"zk"})}), "zk", 5),
              (std::vector<int>{1, 1, 1, 1}));
  }
  {
    Fixture f;  // IN its own tag can never place the first one
    EXPECT_EQ(greedy(f, targetIn(Scope::kNode, {allocationTag({"x"})}), "x", 2),
              (std::vector<int>{0, 0, 0, 0}));
  }
}

TEST(Evaluator, MultiTagSemantics) {
  Fixture f;
  f.place(0, a1, {"A"});
  f.place(1, a1, {"A", "B"});
  const auto inBoth = targetIn(Scope::kNode, {allocationTag({"A", "B"})});
  const auto inNeither = targetNotIn(Scope::kNode, {allocationTag({"A", "B"})});
  EXPECT_FALSE(f.ok(inBoth, a1, 0));
  EXPECT_TRUE(f.ok(inBoth, a1, 1));
  EXPECT_FALSE(f.ok(inNeither, a1, 0));
  EXPECT_TRUE(f.ok(inNeither, a1, 2));
  // No tags: fold over every tag present.
  const auto inAnything = targetIn(Scope::kNode, {allocationTag({})});
  EXPECT_TRUE(f.ok(inAnything, a1, 0));
  EXPECT_FALSE(f.ok(inAnything, a1, 2));
  // Zero targets: satisfied.
  EXPECT_TRUE(f.ok(targetIn(Scope::kNode, {}), a1, 2));
}

TEST(Evaluator, SpecialisedLeavesEvaluateAsTheirSingleForm) {
  Fixture f;
  f.place(0, a1, {"hb", "hb", "hb"});
  f.place(1, a1, {"hb"});
  const std::vector<PlacementConstraint> forms = {
      targetConstraint(TargetConstraint::Op::kIn, Scope::kNode, {allocationTag({"hb"})}),
      targetConstraint(TargetConstraint::Op::kNotIn, Scope::kRack, {allocationTag({"hb"})}),
      cardinalityConstraint(Scope::kNode, 1, 2, {"hb"})};
  for (const PlacementConstraint& c : forms) {
    for (uint32_t n = 0; n < 4; ++n) {
      EXPECT_EQ(f.ok(c, a1, n), f.ok(toSingleForm(c), a1, n)) << c.toString() << " node " << n;
    }
  }
  EXPECT_FALSE(f.ok(forms[2], a1, 0));  // 3 > 2
  EXPECT_TRUE(f.ok(forms[2], a1, 1));
}

TEST(Evaluator, Composites) {
  Fixture f;
  EXPECT_TRUE(f.ok(andOf({}), a1, 0));
  EXPECT_FALSE(f.ok(orOf({}), a1, 0));
  f.place(0, a1, {"m"});
  const auto c = orOf({targetIn(Scope::kNode, {allocationTag({"m"})}),
                       andOf({targetIn(Scope::kRack, {allocationTag({"m"})}),
                              targetNotIn(Scope::kNode, {allocationTag({"x"})})})});
  EXPECT_TRUE(f.ok(c, a1, 0));
  EXPECT_TRUE(f.ok(c, a1, 1));
  EXPECT_FALSE(f.ok(c, a1, 2));
}

TEST(Evaluator, DelayedOrIsNeverSatisfied) {
  Fixture f;
  const auto c = delayedOr({timedClockConstraint(targetIn(Scope::kNode, {}), 1000)});
  Result<bool> r = satisfies(c, a1, Fixture::at(0), f.tags, f.attrs);
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find("Unsupported type of constraint: DelayedOr"),
            std::string::npos);
  EXPECT_FALSE(canSatisfy(c, a1, Fixture::at(0), f.tags, f.attrs));
  // The transformation keeps it, with its child in Single form.
  const auto t = toSingleForm(delayedOr(
      {timedOpportunitiesConstraint(cardinalityConstraint(Scope::kNode, 0, 1, {"a"}), 3)}));
  ASSERT_NE(t.get<DelayedOrConstraint>(), nullptr);
  EXPECT_EQ(t.get<DelayedOrConstraint>()->children[0].constraint->kind(),
            PlacementConstraint::Kind::kSingle);
}

TEST(Evaluator, InterApplicationNamespaces) {
  Fixture f;
  f.tags.setApplicationTags(a2, {"web"});
  f.place(0, a2, {"ws"});
  f.place(2, a1, {"ws"});
  EXPECT_FALSE(
      f.ok(targetNotIn(Scope::kNode, {allocationTagWithNamespace("not-self", {"ws"})}), a1, 0));
  EXPECT_TRUE(
      f.ok(targetNotIn(Scope::kNode, {allocationTagWithNamespace("not-self", {"ws"})}), a1, 2));
  EXPECT_FALSE(f.ok(targetNotIn(Scope::kNode, {allocationTagWithNamespace("all", {"ws"})}), a1, 2));
  EXPECT_TRUE(
      f.ok(targetIn(Scope::kRack, {allocationTagWithNamespace("app-tag/web", {"ws"})}), a1, 1));
  EXPECT_FALSE(
      f.ok(targetIn(Scope::kRack, {allocationTagWithNamespace("app-tag/web", {"ws"})}), a1, 3));
  EXPECT_TRUE(f.ok(
      targetIn(Scope::kNode, {allocationTagWithNamespace("app-id/application_1_0002", {"ws"})}), a1,
      0));
  // app-id without an id (what the spec parser yields for "app-id/ws") fails at evaluation.
  Result<PlacementSpec> spec = parsePlacementSpec("x(1),notin,node,app-id/ws");
  ASSERT_TRUE(spec);
  Result<bool> r = satisfies(*spec->front().constraint, a1, Fixture::at(0), f.tags, f.attrs);
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find("Missing the application ID in the namespace string: app-id"),
            std::string::npos);
}

TEST(Evaluator, MultilevelAndWithSpecs) {
  Fixture f;
  PlacementConstraintManager manager;
  // App level: zk anti-affinity; global: at most 2 hbase per rack (others not counted).
  Result<PlacementSpec> spec = parsePlacementSpec("zk(3),notin,node,zk:hbase(4),in,rack,zk");
  ASSERT_TRUE(spec);
  PlacementConstraintManager::SourceTagConstraints app;
  for (const SpecEntry& e : *spec) app.push_back({{e.sourceTags.tag}, *e.constraint});
  app.push_back({{"a", "b"}, targetIn(Scope::kNode, {})});  // two tags: ignored
  EXPECT_EQ(manager.registerApplication(a1, app), 1u);
  EXPECT_EQ(manager.registerApplication(a1, {}), 0u);  // second registration ignored
  manager.addGlobalConstraint("hbase", maxCardinality(Scope::kRack, "all", 1, {"hbase"}), false);
  const Tags hbase{"hbase"};
  f.place(0, a1, {"zk"});
  f.place(2, a2, {"hbase"});
  f.place(2, a2, {"hbase"});
  auto levels = manager.constraintsFor(a1, hbase, nullptr);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_TRUE(canSatisfy(levels, a1, Fixture::at(1), f.tags, f.attrs));   // rack r0 has zk
  EXPECT_FALSE(canSatisfy(levels, a1, Fixture::at(3), f.tags, f.attrs));  // r1: no zk, 2 hbase
  // A request-level constraint is ANDed, not an override.
  const auto rc = targetNotIn(Scope::kNode, {allocationTag({"zk"})});
  levels = manager.constraintsFor(a1, hbase, &rc);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_FALSE(canSatisfy(levels, a1, Fixture::at(0), f.tags, f.attrs));
  EXPECT_TRUE(canSatisfy(levels, a1, Fixture::at(1), f.tags, f.attrs));
  // Several source tags: neither app nor global constraints apply.
  EXPECT_TRUE(manager.constraintsFor(a1, Tags{"hbase", "zk"}, nullptr).empty());
  manager.unregisterApplication(a1);
  EXPECT_EQ(manager.constraintsFor(a1, hbase, nullptr).size(), 1u);
  manager.removeGlobalConstraint("hbase");
  EXPECT_TRUE(manager.constraintsFor(a1, hbase, nullptr).empty());
}

TEST(Evaluator, ExplainNamesTheFailingLeafAndWhatItSaw) {
  Fixture f;
  f.place(0, a1, {"foo"});
  ASSERT_TRUE(f.attrs.replaceCentralized(
      NodeId{0}, {{"rm.yarn.io", "java", NodeAttributeType::kString, "1.7"}}));
  auto why = [&](const PlacementConstraint& c, uint32_t n) {
    const PlacementConstraint* list[] = {&c};
    return explainUnsatisfied(list, a1, Fixture::at(n), f.tags, f.attrs);
  };
  EXPECT_EQ(why(targetNotIn(Scope::kNode, {allocationTag({"foo"})}), 0),
            "notin,node,foo: node 0 has 1 of foo (self), at most 0 allowed");
  EXPECT_EQ(why(targetNotIn(Scope::kNode, {allocationTag({"foo"})}), 1), "");
  EXPECT_EQ(why(targetIn(Scope::kRack, {allocationTagWithNamespace("all", {"bar"})}), 2),
            "in,rack,bar: rack 1 has 0 of bar (all), at least 1 required");
  EXPECT_EQ(why(*parseExpression("java=1.8"), 0),
            "node,EQ,java=[1.8]: node 0 has rm.yarn.io/java=1.7");
  EXPECT_EQ(why(*parseExpression("java=1.8"), 1),
            "node,EQ,java=[1.8]: node 1 has no rm.yarn.io/java");
  EXPECT_EQ(
      why(orOf({targetIn(Scope::kNode, {allocationTag({"x"})}),
                targetIn(Scope::kNode, {nodePartition({"gpu"})})}),
          1),
      "no alternative of or(in,node,x:in,node,gpu) holds: in,node,x: node 1 has 0 of x (self), "
      "at least 1 required; in,node,gpu: node 1 is in partition ''");
  EXPECT_NE(why(targetIn(Scope::kNode, {allocationTagWithNamespace("nope", {"x"})}), 0)
                .find("Invalid namespace prefix: nope"),
            std::string::npos);
}

TEST(Evaluator, ValidationNamesWhatCannotBeHonoured) {
  EXPECT_TRUE(
      validateConstraint(*parseExpression("and(notin,node,zk:cardinality,rack,all/hb,0,2)")));
  EXPECT_TRUE(validateConstraint(*parseExpression("java!=1.8")));
  EXPECT_NE(validateConstraint(*parseExpression("cardinality,node,a,-1,2"))
                .message()
                .find("negative cardinality [-1, 2] in cardinality,node,a,-1,2"),
            std::string::npos);
  EXPECT_NE(validateConstraint(*parseExpression("cardinality,node,a,3,2"))
                .message()
                .find("min cardinality 3 > max cardinality 2"),
            std::string::npos);
  EXPECT_NE(
      validateConstraint(targetNotIn(Scope::kNode, {allocationTagWithNamespace("bogus", {"a"})}))
          .message()
          .find("Invalid namespace prefix: bogus"),
      std::string::npos);
  EXPECT_FALSE(validateConstraint(delayedOr({})));
  EXPECT_FALSE(validateConstraint(
      orOf({targetIn(Scope::kNode, {}),
            targetNodeAttribute(Scope::kNode, NodeAttributeOp::kEq, {allocationTag({"a"})})})));
}

}  // namespace
}  // namespace spindle::placement
