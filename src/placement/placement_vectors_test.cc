// Runs the public placement vectors (testdata/placement-vectors.json, copied from
// shared/reference/vectors/) as data: one gtest case per vector, named by its id, e.g.
// `Parser/PlacementVector.Run/P01`. The sections that need the scheduler integration
// (scheduler_allocator_validation, processor_and_end_to_end, iterators) are listed as skipped
// cases that say what each needs.
//
// Vectors whose input is prose (a few namespace evaluations, the transformation and
// multi-level cases, the temporary-tags sequence) are read by small interpreters below; each
// still compares against the expectation written in the file.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "placement/allocation_tags.h"
#include "placement/constraint.h"
#include "placement/constraint_manager.h"
#include "placement/evaluator.h"
#include "placement/node_attributes.h"
#include "placement/placement_algorithm.h"
#include "placement/spec_parser.h"
#include "placement/tag_namespace.h"
#include "placement/transformations.h"

namespace spindle::placement {
namespace {

using nlohmann::json;

const json& vectors() {
  static const json v = [] {
    std::ifstream in(std::string(SPINDLE_PLACEMENT_TESTDATA) + "/placement-vectors.json");
    return json::parse(in);
  }();
  return v;
}

const json& vectorById(const std::string& section, const std::string& id) {
  for (const json& v : vectors().at(section)) {
    if (v.at("id") == id) return v;
  }
  throw std::runtime_error("no vector " + id);
}

std::vector<std::string> idsOf(const std::string& section) {
  std::vector<std::string> ids;
  for (const json& v : vectors().at(section)) ids.push_back(v.at("id").get<std::string>());
  return ids;
}

// ---- JSON notation of the vector file -> model ----

// "app1" -> AppId{1}.
AppId appFromName(const std::string& name) {
  const size_t digits = name.find_first_of("0123456789");
  return AppId{static_cast<uint32_t>(std::stoul(name.substr(digits)))};
}

std::string applicationIdString(AppId app) {
  return fmt::format("application_1700000000000_{:04d}", app.value());
}

// "app-id/<app1>" and "app-id/app2" name an application of the vector by its short name.
std::string substituteAppIds(const std::string& key) {
  static const std::regex appRef(R"(app-id/<?(app\d+)>?)");
  std::smatch m;
  if (!std::regex_search(key, m, appRef)) return key;
  return "app-id/" + applicationIdString(appFromName(m[1]));
}

PlacementConstraint constraintFromJson(const json& j) {
  const std::string kind = j.at("kind");
  if (kind == "and" || kind == "or") {
    std::vector<PlacementConstraint> children;
    for (const json& c : j.at("children")) children.push_back(constraintFromJson(c));
    return kind == "and" ? andOf(std::move(children)) : orOf(std::move(children));
  }
  SingleConstraint s;
  s.scope = j.at("scope") == "node" ? Scope::kNode : Scope::kRack;
  s.minCardinality = j.at("min");
  s.maxCardinality = j.at("max");
  const std::string op = j.value("op", "NO_OP");
  s.op = op == "EQ"   ? NodeAttributeOp::kEq
         : op == "NE" ? NodeAttributeOp::kNe
                      : NodeAttributeOp::kNoOp;
  for (const json& t : j.at("targets")) {
    const TargetType type =
        t.at("type") == "ALLOCATION_TAG" ? TargetType::kAllocationTag : TargetType::kNodeAttribute;
    s.targets.emplace_back(type, substituteAppIds(t.at("key")),
                           t.at("values").get<std::vector<std::string>>());
  }
  return s;
}

std::string describe(const Result<PlacementConstraint>& c) {
  return c ? c->toString() : c.status().toString();
}

// ---- parser ----

void runParser(const json& v) {
  const std::string api = v.at("api");
  const std::string input = v.at("input");
  const json& expected = v.at("expected");
  if (api == "MultipleConstraintsTokenizer") {
    EXPECT_EQ(splitConstraints(input), expected.at("tokens").get<std::vector<std::string>>());
    return;
  }
  if (api == "SourceTagsTokenizer") {
    Result<SourceTags> tags = parseSourceTags(input);
    if (expected.contains("error")) {
      ASSERT_FALSE(tags) << input;
      EXPECT_NE(tags.status().message().find(expected.value("message_contains", "")),
                std::string::npos)
          << tags.status().message();
      return;
    }
    ASSERT_TRUE(tags) << tags.status().toString();
    const std::vector<std::string> tokens{tags->tag, std::to_string(tags->numAllocations)};
    EXPECT_EQ(tokens, expected.at("tokens").get<std::vector<std::string>>());
    return;
  }
  if (api == "parsePlacementSpec") {
    Result<PlacementSpec> spec = parsePlacementSpec(input);
    if (expected.contains("error")) {
      ASSERT_FALSE(spec) << input << " parsed";
      EXPECT_NE(spec.status().message().find(expected.value("message_contains", "")),
                std::string::npos)
          << spec.status().message();
      return;
    }
    ASSERT_TRUE(spec) << spec.status().toString();
    const json& entries = expected.at("entries");
    ASSERT_EQ(spec->size(), entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      const SpecEntry& got = (*spec)[i];
      EXPECT_EQ(got.sourceTags.tag, entries[i].at("source_tag").get<std::string>());
      EXPECT_EQ(got.sourceTags.numAllocations, entries[i].at("num").get<int>());
      if (entries[i].value("source_tags_empty", false)) {
        EXPECT_TRUE(got.sourceTags.empty());
      }
      if (entries[i].at("constraint").is_null()) {
        EXPECT_FALSE(got.constraint.has_value());
      } else {
        ASSERT_TRUE(got.constraint.has_value());
        EXPECT_EQ(*got.constraint, constraintFromJson(entries[i].at("constraint")))
            << got.constraint->toString();
      }
    }
    return;
  }
  Result<PlacementConstraint> c = [&]() -> Result<PlacementConstraint> {
    if (api == "TargetConstraintParser") return parseTargetExpression(input);
    if (api == "CardinalityConstraintParser") return parseCardinalityExpression(input);
    if (api == "ConjunctionConstraintParser") return parseConjunctionExpression(input);
    if (api == "parseExpression") return parseExpression(input);
    return internalError("unknown api {}", api);
  }();
  if (expected.contains("error")) {
    ASSERT_FALSE(c) << input << " parsed as " << describe(c);
    EXPECT_NE(c.status().message().find(expected.value("message_contains", "")), std::string::npos)
        << c.status().message();
    return;
  }
  ASSERT_TRUE(c) << c.status().toString();
  EXPECT_EQ(*c, constraintFromJson(expected.at("constraint"))) << c->toString();
  if (expected.contains("target_expression_count")) {
    ASSERT_NE(c->get<SingleConstraint>(), nullptr);
    EXPECT_EQ(c->get<SingleConstraint>()->targets.size(),
              expected.at("target_expression_count").get<size_t>());
  }
  // YARN's tests feed toString back to the parser: it must parse (meaning may differ).
  EXPECT_TRUE(parseExpression(c->toString())) << c->toString();
}

// ---- namespace_parse ----

TargetApplications namespaceContext(const std::string& input) {
  TargetApplications apps;
  apps.current = AppId{1};
  if (input.find("app tags") != std::string::npos || input.find("same apps") != std::string::npos) {
    apps.apps = {{AppId{1}, {"A", "B"}},
                 {AppId{2}, {"A"}},
                 {AppId{3}, {}},
                 {AppId{4}, {"C"}},
                 {AppId{5}, {"A", "B", "C"}}};
  } else if (input.find("all={app1..app5}") != std::string::npos) {
    for (uint32_t i = 1; i <= 5; ++i) apps.apps.push_back({AppId{i}, {}});
  } else {
    apps.apps = {{AppId{1}, {}}};
  }
  return apps;
}

void runNamespace(const json& v) {
  const std::string input = v.at("input");
  const json& expected = v.at("expected");
  const std::string key = substituteAppIds(input.substr(0, input.find(',')));
  Result<AllocationTagNamespace> ns = AllocationTagNamespace::parse(key);
  if (expected.contains("type")) {
    ASSERT_TRUE(ns) << ns.status().toString();
    EXPECT_EQ(namespaceTypeName(ns->type()), expected.at("type").get<std::string>());
    return;
  }
  if (expected.contains("error") && expected.at("error") == "InvalidAllocationTagsQueryException") {
    ASSERT_FALSE(ns) << key;
    EXPECT_TRUE(
        ns.status().message().starts_with(expected.at("message_starts_with").get<std::string>()))
        << ns.status().message();
    return;
  }
  ASSERT_TRUE(ns) << ns.status().toString();
  if (input.find("before evaluate") != std::string::npos) {
    Result<std::vector<AppId>> scope = ns->scope();
    ASSERT_FALSE(scope);
    EXPECT_NE(scope.status().message().find(expected.at("message_contains").get<std::string>()),
              std::string::npos);
    return;
  }
  ASSERT_TRUE(ns->evaluate(namespaceContext(input)));
  std::vector<AppId> want;
  for (const std::string& name : expected.at("scope").get<std::vector<std::string>>()) {
    want.push_back(appFromName(name));
  }
  EXPECT_EQ(*ns->scope(), want);
}

// ---- satisfaction and node_attributes ----

struct Cluster {
  std::map<std::string, NodeId> nodes;
  std::map<std::string, RackId> racks;
  std::map<NodeId, RackId> rackOf;

  NodeId node(const std::string& name, const std::string& rack = "default-rack") {
    auto [it, added] = nodes.emplace(name, NodeId{static_cast<uint32_t>(nodes.size())});
    if (added) {
      auto r = racks.emplace(rack, RackId{static_cast<uint32_t>(racks.size())}).first;
      rackOf[it->second] = r->second;
    }
    return it->second;
  }
};

void runSatisfaction(const json& v) {
  Cluster cluster;
  for (const auto& [name, rack] : v.at("cluster").at("nodes").items()) cluster.node(name, rack);
  AllocationTagsManager tags;
  const json appList = v.value("apps", json::object());
  for (const auto& [app, appTags] : appList.items()) {
    tags.setApplicationTags(appFromName(app), appTags.get<std::vector<std::string>>());
  }
  for (const auto& [node, apps] : v.at("existing_tags").items()) {
    const NodeId n = cluster.node(node);
    for (const auto& [app, counts] : apps.items()) {
      for (const auto& [tag, count] : counts.items()) {
        for (int i = 0; i < count.get<int>(); ++i) {
          tags.addTags(n, cluster.rackOf[n], appFromName(app), std::vector<std::string>{tag});
        }
      }
    }
  }
  ASSERT_TRUE(tags.checkInvariants());
  const AppId app = appFromName(v.at("requesting_app"));
  PlacementConstraintManager manager;
  PlacementConstraintManager::SourceTagConstraints registered;
  for (const auto& [tag, c] : v.at("app_constraints").items()) {
    registered.push_back({{tag}, constraintFromJson(c)});
  }
  manager.registerApplication(app, registered);
  const json& request = v.at("request");
  const std::vector<std::string> requestTags = request.at("tags");
  std::optional<PlacementConstraint> rc;
  if (request.contains("constraint")) rc = constraintFromJson(request.at("constraint"));
  const auto levels = manager.constraintsFor(app, requestTags, rc ? &*rc : nullptr);
  const NodeAttributes noAttributes;
  const json& expected = v.at("expected_satisfied");
  if (expected.contains("error")) {
    for (const auto& [name, id] : cluster.nodes) {
      Result<bool> ok = satisfies(levels, app, {id, cluster.rackOf[id], ""}, tags, noAttributes);
      ASSERT_FALSE(ok) << name;
      EXPECT_NE(ok.status().message().find(expected.at("message_contains").get<std::string>()),
                std::string::npos)
          << ok.status().message();
      EXPECT_FALSE(canSatisfy(levels, app, {id, cluster.rackOf[id], ""}, tags, noAttributes));
    }
    return;
  }
  for (const auto& [name, want] : expected.items()) {
    const NodeId id = cluster.node(name);
    Result<bool> ok = satisfies(levels, app, {id, cluster.rackOf[id], ""}, tags, noAttributes);
    ASSERT_TRUE(ok) << ok.status().toString();
    EXPECT_EQ(*ok, want.get<bool>()) << "node " << name;
  }
}

void runNodeAttributes(const json& v) {
  const NodeId node{0};
  NodeAttributes attributes;
  std::vector<NodeAttribute> central, distributed;
  for (const auto& [key, value] : v.at("node_attributes").items()) {
    const size_t slash = key.find('/');
    NodeAttribute a{key.substr(0, slash), key.substr(slash + 1), NodeAttributeType::kString,
                    value.get<std::string>()};
    (a.prefix == kDistributedPrefix ? distributed : central).push_back(a);
  }
  ASSERT_TRUE(attributes.replaceCentralized(node, central));
  ASSERT_TRUE(attributes.replaceDistributed(node, distributed));
  const AllocationTagsManager tags;
  Result<bool> ok = satisfies(constraintFromJson(v.at("constraint")), AppId{1},
                              {node, RackId{0}, ""}, tags, attributes);
  ASSERT_TRUE(ok) << ok.status().toString();
  EXPECT_EQ(*ok, v.at("expected_satisfied").get<bool>());
}

// ---- tags_manager ----

struct TagStore {
  Cluster cluster;
  AllocationTagsManager tags;
  std::map<std::string, AppId> appsSeen;

  void load(const json& state, bool thenRemove) {
    for (const auto& [node, rack] : state.at("racks").items()) cluster.node(node, rack);
    for (const json& c : state.at("containers")) {
      const NodeId n = cluster.node(c.at("node"));
      tags.addTags(n, cluster.rackOf[n], appFromName(c.at("app")),
                   c.at("tags").get<std::vector<std::string>>());
    }
    if (!thenRemove) return;
    for (const json& c : state.at("containers")) {
      EXPECT_TRUE(tags.removeTags(cluster.node(c.at("node")), appFromName(c.at("app")),
                                  c.at("tags").get<std::vector<std::string>>()));
    }
  }
};

CardinalityOp opFrom(const std::string& op) {
  return op == "min"   ? CardinalityOp::kMin
         : op == "max" ? CardinalityOp::kMax
                       : CardinalityOp::kSum;
}

AppSet appSetFrom(const json& app) {
  return app.is_null() ? AppSet::all() : AppSet::one(appFromName(app.get<std::string>()));
}

// "temp tags host1 app1 {mapper,reducer}", "query host1 app1 {mapper} sum -> 1", ...
void runTagSequence(const std::vector<std::string>& steps) {
  TagStore store;
  store.cluster.node("host1", "rack0");
  store.cluster.node("host2", "rack0");
  TemporaryAllocationTags temp(store.tags);
  static const std::regex add(R"((temp tags|real container) (\w+) (\w+) \{([\w,]*)\})");
  static const std::regex query(R"((?:query )?(\w+) (\w+) \{([\w,]*)\}(?: sum)? -> (\d+))");
  static const std::regex clean(R"(clean temp (\w+))");
  auto tagList = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string t; std::getline(in, t, ',');) out.push_back(t);
    return out;
  };
  for (const std::string& step : steps) {
    std::stringstream parts(step);
    for (std::string part; std::getline(parts, part, ';');) {
      part.erase(0, part.find_first_not_of(' '));
      std::smatch m;
      if (std::regex_match(part, m, add)) {
        const NodeId n = store.cluster.node(m[2]);
        const RackId r = store.cluster.rackOf[n];
        if (m[1] == "temp tags") {
          temp.addTempTags(n, r, appFromName(m[3]), tagList(m[4]));
        } else {
          store.tags.addTags(n, r, appFromName(m[3]), tagList(m[4]));
        }
      } else if (std::regex_match(part, m, clean)) {
        temp.cleanTempContainers(appFromName(m[1]));
      } else if (std::regex_match(part, m, query)) {
        const int64_t got =
            store.tags.nodeCardinality(store.cluster.node(m[1]), AppSet::one(appFromName(m[2])),
                                       tagList(m[3]), CardinalityOp::kSum);
        EXPECT_EQ(got, std::stoll(m[4])) << part;
      } else {
        ADD_FAILURE() << "step not understood: " << part;
      }
      ASSERT_TRUE(store.tags.checkInvariants());
    }
  }
  // "app1 node map has 2 nodes; app2 has no entry"
  EXPECT_EQ(store.tags.nodesWithTags(AppId{1}), 2u);
  EXPECT_EQ(store.tags.nodesWithTags(AppId{2}), 0u);
  EXPECT_EQ(store.tags.applicationsWithTags(), 1u);
}

void runTagsManager(const json& v) {
  const json& query = v.at("query");
  if (query.contains("sequence")) {
    ASSERT_EQ(v.at("expected").at("final"), "app1 node map has 2 nodes; app2 has no entry");
    runTagSequence(query.at("sequence").get<std::vector<std::string>>());
    return;
  }
  TagStore store;
  if (query.contains("setup")) {
    const std::string setup = query.at("setup");
    const bool thenRemove = setup.find("then remove every container") != std::string::npos;
    store.load(vectorById("tags_manager_setups", setup.substr(0, setup.find(' '))).at("state"),
               thenRemove);
  } else {
    store.load(query.at("state"), false);
  }
  ASSERT_TRUE(store.tags.checkInvariants());
  const json& expected = v.at("expected");
  if (expected.is_object()) {
    EXPECT_EQ(store.tags.nodesWithTags(), expected.at("global_node_map_size").get<size_t>());
    EXPECT_EQ(store.tags.racksWithTags(), expected.at("global_rack_map_size").get<size_t>());
    EXPECT_EQ(store.tags.applicationsWithTags(), expected.at("per_app_node_maps").get<size_t>());
    EXPECT_EQ(store.tags.applicationsWithTags(), expected.at("per_app_rack_maps").get<size_t>());
    return;
  }
  const int64_t want = expected.get<int64_t>();
  const json app = query.value("app", json());
  if (query.contains("node")) {
    const NodeId n = store.cluster.node(query.at("node"));
    EXPECT_EQ(store.tags.nodeCardinality(n, appSetFrom(app),
                                         query.at("tags").get<std::vector<std::string>>(),
                                         opFrom(query.at("op"))),
              want);
    return;
  }
  const RackId rack = store.cluster.racks.at(query.at("rack"));
  if (query.contains("tag")) {
    std::optional<AppId> a;
    if (!app.is_null()) a = appFromName(app.get<std::string>());
    EXPECT_EQ(store.tags.rackCardinality(rack, a, query.at("tag").get<std::string>()), want);
    return;
  }
  EXPECT_EQ(store.tags.rackCardinality(rack, appSetFrom(app),
                                       query.at("tags").get<std::vector<std::string>>(),
                                       opFrom(query.at("op"))),
            want);
}

// ---- transformations ----

std::string kindName(const PlacementConstraint& c) {
  switch (c.kind()) {
    case PlacementConstraint::Kind::kSingle: return "Single";
    case PlacementConstraint::Kind::kTarget: return "TargetConstraint";
    case PlacementConstraint::Kind::kCardinality: return "CardinalityConstraint";
    case PlacementConstraint::Kind::kAnd: return "And";
    case PlacementConstraint::Kind::kOr: return "Or";
    case PlacementConstraint::Kind::kDelayedOr: return "DelayedOr";
  }
  return "?";
}

// "Single(rack, 3, 10, targets {allocationTag(hb)})"
std::string describeSingle(const SingleConstraint& s) {
  std::vector<std::string> targets;
  for (const TargetExpression& t : s.targets) {
    const bool self = t.type == TargetType::kAllocationTag && t.key == "self";
    targets.push_back(
        fmt::format("{}({})", self ? "allocationTag" : t.key, fmt::join(t.values, ",")));
  }
  return fmt::format("Single({}, {}, {}, targets {{{}}})", scopeName(s.scope), s.minCardinality,
                     s.maxCardinality, fmt::join(targets, ", "));
}

void runTransformation(const json& v) {
  const std::string id = v.at("id");
  const std::string expected = v.at("expected");
  if (id == "X02") {
    ASSERT_EQ(v.at("input"), "CardinalityConstraint(RACK, 3, 10, {hb})");
    const PlacementConstraint single =
        toSingleForm(cardinalityConstraint(Scope::kRack, 3, 10, {"hb"}));
    ASSERT_NE(single.get<SingleConstraint>(), nullptr);
    EXPECT_EQ(describeSingle(*single.get<SingleConstraint>()), expected);
    EXPECT_EQ(single, cardinality(Scope::kRack, 3, 10, {"hb"}));
    return;
  }
  if (id == "X04") {
    ASSERT_EQ(
        v.at("input"),
        "or(targetIn(RACK, spark), maxCardinality(NODE, 3), targetCardinality(RACK, 2, 10, zk))");
    const PlacementConstraint input = orOf(
        {targetIn(Scope::kRack, {allocationTag({"spark"})}), maxCardinality(Scope::kNode, 3, {}),
         targetCardinality(Scope::kRack, 2, 10, {allocationTag({"zk"})})});
    const PlacementConstraint specialised = toSpecializedForm(input);
    std::vector<std::string> kinds;
    for (const auto& c : specialised.get<OrConstraint>()->children) kinds.push_back(kindName(c));
    const PlacementConstraint single = toSingleForm(specialised);
    const auto& children = single.get<OrConstraint>()->children;
    const bool allSingle = std::all_of(children.begin(), children.end(), [](const auto& c) {
      return c.kind() == PlacementConstraint::Kind::kSingle;
    });
    EXPECT_EQ(fmt::format("specialised children: [{}]; single transform gives {}",
                          fmt::join(kinds, ", "), allSingle ? "all Single" : "not all Single"),
              expected);
    EXPECT_EQ(single, input);
    return;
  }
  FAIL() << "no interpreter for transformation vector " << id;
}

// ---- multilevel_constraints ----

// c1, c2: two different constraints; "{tag1:c1, tag2:c2}": a source tag -> constraint map.
const PlacementConstraint& named(const std::string& name) {
  static const PlacementConstraint c1 = targetNotIn(Scope::kNode, {allocationTag({"foo"})});
  static const PlacementConstraint c2 = targetIn(Scope::kRack, {allocationTag({"bar"})});
  if (name == "c1") return c1;
  if (name == "c2") return c2;
  throw std::runtime_error("unknown constraint name " + name);
}

std::map<std::string, std::string> namedMap(const json& j) {
  std::map<std::string, std::string> out;
  if (j.is_null()) return out;
  static const std::regex entry(R"((\w+):(\w+))");
  const std::string s = j.get<std::string>();
  for (std::sregex_iterator it(s.begin(), s.end(), entry), end; it != end; ++it) {
    out[(*it)[1]] = (*it)[2];
  }
  return out;
}

void runMultilevel(const json& v) {
  const AppId app{1};
  PlacementConstraintManager manager;
  PlacementConstraintManager::SourceTagConstraints registered;
  for (const auto& [tag, name] : namedMap(v.at("ac"))) registered.push_back({{tag}, named(name)});
  manager.registerApplication(app, registered);
  for (const auto& [tag, name] : namedMap(v.at("gc")))
    manager.addGlobalConstraint(tag, named(name), true);
  std::optional<PlacementConstraint> rc;
  if (!v.at("rc").is_null()) rc = named(v.at("rc"));
  const std::vector<std::string> tags = v.value("request_tags", std::vector<std::string>{});
  const PlacementConstraint ml = manager.multilevelConstraint(app, tags, rc ? &*rc : nullptr);
  ASSERT_NE(ml.get<AndConstraint>(), nullptr);
  const auto& children = ml.get<AndConstraint>()->children;

  const std::string expected = v.at("expected");
  std::smatch m;
  if (std::regex_search(expected, m, std::regex(R"(AND with (\d+) children)")) ||
      std::regex_search(expected, m, std::regex(R"(with (\d+) children)"))) {
    EXPECT_EQ(children.size(), std::stoul(m[1]));
  } else if (std::regex_match(expected, m, std::regex(R"(AND\((\w*)\))"))) {
    ASSERT_EQ(children.size(), 1u);
    EXPECT_EQ(children[0], named(m[1]));
  } else {
    FAIL() << "expectation not understood: " << expected;
  }
  if (expected.find("satisfied everywhere") != std::string::npos) {
    const AllocationTagsManager tagStore;
    EXPECT_TRUE(canSatisfy(ml, app, {NodeId{0}, RackId{0}, ""}, tagStore, NodeAttributes()));
  }
  // The pointer form gives the same distinct list.
  EXPECT_EQ(manager.constraintsFor(app, tags, rc ? &*rc : nullptr).size(), children.size());
}

// ---- iterators: the request order and the circular node walk ----

// The walk over `list` (names, "x" / "y" standing for a `first` element outside it) as a string.
std::string walkText(const std::string& list, size_t position, std::optional<char> first) {
  std::string names = list;
  std::optional<size_t> firstIndex;
  if (first) {
    names.push_back(*first);
    firstIndex = list.size();
  }
  Result<CircularWalk> w = CircularWalk::create(firstIndex, list.size(), position);
  if (!w) return "construction fails";
  std::string out;
  while (w->hasNext()) out.push_back(names[w->next()]);
  return out;
}

void runIterator(const json& v) {
  const std::string id = v.at("id");
  const std::string expected = v.at("expected");
  if (id == "IT01") {
    // testSerialIterator: four requests tagged foo come out in batch order.
    const std::vector<std::string> foo = {"foo"};
    const std::vector<const std::vector<std::string>*> tags(4, &foo);
    EXPECT_EQ(requestOrder(tags, RequestOrder::kSerial), (std::vector<size_t>{0, 1, 2, 3}));
    // POPULAR_TAGS keeps batch order among equally popular requests (a stable sort).
    EXPECT_EQ(requestOrder(tags, RequestOrder::kPopularTags), (std::vector<size_t>{0, 1, 2, 3}));
    return;
  }
  // testIteration: the input says how far the shared iterator went and what `first` is.
  const std::string input = v.at("input");
  std::smatch m;
  const std::string list = std::regex_search(input, m, std::regex(R"(list ([a-d,]*);)"))
                               ? std::regex_replace(m[1].str(), std::regex(","), "")
                               : "";
  size_t position = 0;
  if (std::regex_search(input, m, std::regex(R"(past ([a-d,]+))"))) {
    position = std::regex_replace(m[1].str(), std::regex(","), "").size();
  }
  std::optional<char> first;
  if (std::regex_search(input, m, std::regex(R"(first=([a-z])(?![a-z]))"))) first = m[1].str()[0];
  EXPECT_EQ(walkText(list, position, first), expected);
}

TEST(PlacementIterators, PopularTagsPutsTheMostSharedTagFirst) {
  const std::vector<std::string> a = {"a"}, b = {"b"}, ab = {"a", "b"}, c = {"c"};
  // a is on three requests, b on two, c on one.
  const std::vector<const std::vector<std::string>*> tags = {&c, &b, &a, &ab, &a};
  EXPECT_EQ(requestOrder(tags, RequestOrder::kPopularTags), (std::vector<size_t>{2, 3, 4, 1, 0}));
  EXPECT_FALSE(parseRequestOrder("popular").isOk());
  EXPECT_EQ(parseRequestOrder("popular").status().message(),
            "Could not instantiate Placement Algorithm Iterator: popular");
}

TEST(PlacementIterators, SharedPositionStopsAtTheWrap) {
  CircularWalk w = CircularWalk::create(std::nullopt, 4, 1).value();
  EXPECT_EQ(w.next(), 1u);
  EXPECT_EQ(w.next(), 2u);
  EXPECT_EQ(w.sharedPosition(), 3u);
  EXPECT_EQ(w.next(), 3u);
  EXPECT_EQ(w.next(), 0u);
  EXPECT_EQ(w.sharedPosition(), 4u);  // wrapped: the next walk starts over
  EXPECT_FALSE(w.hasNext());
}

// ---- the sections that run against the scheduler ----

// scheduler_allocator_validation and processor_and_end_to_end run as scenario files
// (tests/scenarios/placement/<id>-*.json, checked by ctest's scenario_check_placement) or as
// unit tests of the scheduler (src/scheduler/placement_integration_test.cc, PlacementVector
// tests named after the id) where the scenario format cannot write the request (no resource
// sizing, OPPORTUNISTIC, a partition target beside tag targets). This checks that each id has
// its test.
void runCoveredElsewhere(const std::string& id) {
  const std::string lower = [&] {
    std::string s = id;
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }();
  bool found = false;
  const std::string dir = std::string(SPINDLE_SOURCE_DIR) + "/tests/scenarios/placement";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    found =
        found || name.starts_with(lower + "-") || name.find("-" + lower + "-") != std::string::npos;
  }
  std::ifstream unit(std::string(SPINDLE_SOURCE_DIR) +
                     "/src/scheduler/placement_integration_test.cc");
  std::stringstream text;
  text << unit.rdbuf();
  found = found || text.str().find("TEST(PlacementVector, " + id + "_") != std::string::npos;
  EXPECT_TRUE(found) << id << ": no scenario in " << dir << " and no unit test";
}

// ---- registration ----

struct Case {
  std::string section;
  std::string id;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.section << "/" << c.id; }

std::vector<Case> casesOf(std::initializer_list<std::string> sections) {
  std::vector<Case> out;
  for (const std::string& s : sections) {
    for (const std::string& id : idsOf(s)) out.push_back({s, id});
  }
  return out;
}

class PlacementVector : public ::testing::TestWithParam<Case> {};

TEST_P(PlacementVector, Run) {
  const Case& c = GetParam();
  const json& v = vectorById(c.section, c.id);
  SCOPED_TRACE(c.id + ": " + v.dump());
  if (c.section == "scheduler_allocator_validation" || c.section == "processor_and_end_to_end") {
    return runCoveredElsewhere(c.id);
  }
  if (c.section == "iterators") return runIterator(v);
  if (c.section == "parser") return runParser(v);
  if (c.section == "namespace_parse") return runNamespace(v);
  if (c.section == "satisfaction") return runSatisfaction(v);
  if (c.section == "node_attributes") return runNodeAttributes(v);
  if (c.section == "tags_manager") return runTagsManager(v);
  if (c.section == "transformations") return runTransformation(v);
  if (c.section == "multilevel_constraints") return runMultilevel(v);
  FAIL() << "no runner for section " << c.section;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.id;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Parser, PlacementVector, ::testing::ValuesIn(casesOf({"parser"})),
                         caseName);
INSTANTIATE_TEST_SUITE_P(Namespace, PlacementVector,
                         ::testing::ValuesIn(casesOf({"namespace_parse"})), caseName);
INSTANTIATE_TEST_SUITE_P(Satisfaction, PlacementVector,
                         ::testing::ValuesIn(casesOf({"satisfaction"})), caseName);
INSTANTIATE_TEST_SUITE_P(NodeAttributes, PlacementVector,
                         ::testing::ValuesIn(casesOf({"node_attributes"})), caseName);
INSTANTIATE_TEST_SUITE_P(TagsManager, PlacementVector,
                         ::testing::ValuesIn(casesOf({"tags_manager"})), caseName);
INSTANTIATE_TEST_SUITE_P(Transformations, PlacementVector,
                         ::testing::ValuesIn(casesOf({"transformations"})), caseName);
INSTANTIATE_TEST_SUITE_P(Multilevel, PlacementVector,
                         ::testing::ValuesIn(casesOf({"multilevel_constraints"})), caseName);
INSTANTIATE_TEST_SUITE_P(Iterators, PlacementVector, ::testing::ValuesIn(casesOf({"iterators"})),
                         caseName);
INSTANTIATE_TEST_SUITE_P(Scheduler, PlacementVector,
                         ::testing::ValuesIn(casesOf({"scheduler_allocator_validation",
                                                      "processor_and_end_to_end"})),
                         caseName);

// The file is the reference's: 124 vectors in these sections.
TEST(PlacementVectors, FileHasEveryPublicVector) {
  const std::map<std::string, size_t> want = {{"parser", 41},
                                              {"namespace_parse", 15},
                                              {"satisfaction", 15},
                                              {"node_attributes", 6},
                                              {"tags_manager", 15},
                                              {"transformations", 2},
                                              {"multilevel_constraints", 4},
                                              {"scheduler_allocator_validation", 8},
                                              {"processor_and_end_to_end", 12},
                                              {"iterators", 6}};
  size_t total = 0;
  for (const auto& [section, n] : want) {
    EXPECT_EQ(vectors().at(section).size(), n) << section;
    total += vectors().at(section).size();
  }
  EXPECT_EQ(total, 124u);
  EXPECT_EQ(vectors().at("tags_manager_setups").size(), 1u);
}

}  // namespace
}  // namespace spindle::placement
