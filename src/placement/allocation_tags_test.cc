// The allocation tag store: node loss, removals of absent tags, namespaces as app sets,
// temporary tags, and a randomised comparison against a brute-force model with the invariants
// checked after every step.
#include "placement/allocation_tags.h"

#include <map>
#include <random>
#include <tuple>

#include <gtest/gtest.h>

#include "placement/flat_count_map.h"

namespace spindle::placement {
namespace {

using Tags = std::vector<std::string>;

const NodeId n0{0}, n1{1}, n2{2};
const RackId r0{0}, r1{1};
const AppId a1{1}, a2{2}, a3{3};

TEST(AllocationTags, CountsPerNodeRackAndApplication) {
  AllocationTagsManager tags;
  tags.addTags(n0, r0, a1, Tags{"mapper", "reducer"});
  tags.addTags(n1, r0, a1, Tags{"mapper"});
  tags.addTags(n1, r0, a2, Tags{"mapper"});
  tags.addTags(n2, r1, a2, Tags{"service"});
  ASSERT_TRUE(tags.checkInvariants());
  EXPECT_EQ(tags.nodeCardinality(n1, a1, "mapper"), 1);
  EXPECT_EQ(tags.nodeCardinality(n1, std::nullopt, "mapper"), 2);
  EXPECT_EQ(tags.rackCardinality(r0, std::nullopt, "mapper"), 3);
  EXPECT_EQ(tags.rackCardinality(r0, a2, "mapper"), 1);
  EXPECT_EQ(tags.rackCardinality(r1, a1, "mapper"), 0);
  EXPECT_EQ(tags.nodeCardinality(n0, a1, "never-seen"), 0);
  EXPECT_EQ(tags.nodeCardinality(NodeId{999}, a1, "mapper"), 0);
  EXPECT_EQ(tags.tagsWithCount(n1), (std::vector<std::pair<std::string, int64_t>>{{"mapper", 2}}));
  EXPECT_EQ(tags.nodesWithTags(), 3u);
  EXPECT_EQ(tags.racksWithTags(), 2u);
  EXPECT_EQ(tags.nodesWithTags(a1), 2u);
  EXPECT_EQ(tags.racksWithTags(a2), 2u);
}

TEST(AllocationTags, NodeLossDropsEverythingOnTheNodeOnly) {
  AllocationTagsManager tags;
  tags.addTags(n0, r0, a1, Tags{"hb", "hb", "zk"});
  tags.addTags(n0, r0, a2, Tags{"hb"});
  tags.addTags(n1, r0, a1, Tags{"hb"});
  tags.removeNode(n0);
  ASSERT_TRUE(tags.checkInvariants());
  EXPECT_EQ(tags.nodeCardinality(n0, std::nullopt, "hb"), 0);
  EXPECT_EQ(tags.rackCardinality(r0, std::nullopt, "hb"), 1);
  EXPECT_EQ(tags.rackCardinality(r0, a1, "zk"), 0);
  EXPECT_EQ(tags.applicationsWithTags(), 1u);
  EXPECT_FALSE(tags.rackOf(n0).valid());
  // Completions that arrive after the loss find nothing and change nothing.
  EXPECT_FALSE(tags.removeTags(n0, a1, Tags{"hb"}));
  EXPECT_EQ(tags.rackCardinality(r0, a1, "hb"), 1);
  ASSERT_TRUE(tags.checkInvariants());
}

TEST(AllocationTags, RemovingAbsentTagsIsReportedAndHarmless) {
  AllocationTagsManager tags;
  tags.addTags(n0, r0, a1, Tags{"a"});
  EXPECT_FALSE(tags.removeTags(n0, a1, Tags{"a", "b"}));  // a removed, b was not there
  EXPECT_FALSE(tags.removeTags(n0, a2, Tags{"a"}));
  EXPECT_EQ(tags.nodesWithTags(), 0u);
  EXPECT_EQ(tags.applicationsWithTags(), 0u);
  ASSERT_TRUE(tags.checkInvariants());
  tags.addTags(n0, r0, a1, Tags{});  // no tags: nothing recorded
  EXPECT_EQ(tags.nodesWithTags(), 0u);
}

TEST(AllocationTags, NamespacesResolveToAppSets) {
  AllocationTagsManager tags;
  tags.setApplicationTags(a1, {"web"});
  tags.setApplicationTags(a2, {"web", "db"});
  tags.addTags(n0, r0, a1, Tags{"x"});
  tags.addTags(n0, r0, a2, Tags{"x", "x", "y"});
  tags.addTags(n0, r0, a3, Tags{"x"});
  auto count = [&](std::string_view ns, AppId current, Tags t, CardinalityOp op) {
    Result<AppSet> apps = tags.appSetFor(ns, current);
    EXPECT_TRUE(apps) << apps.status().toString();
    return tags.nodeCardinality(n0, *apps, t, op);
  };
  EXPECT_EQ(count("self", a1, {"x"}, CardinalityOp::kSum), 1);
  EXPECT_EQ(count("", a2, {"x"}, CardinalityOp::kSum), 2);
  EXPECT_EQ(count("not-self", a1, {"x"}, CardinalityOp::kSum), 3);
  EXPECT_EQ(count("all", a1, {"x"}, CardinalityOp::kSum), 4);
  EXPECT_EQ(count("app-id/application_99_0003", a1, {"x"}, CardinalityOp::kSum), 1);
  EXPECT_EQ(count("app-tag/web", a3, {"x"}, CardinalityOp::kSum), 3);      // a1 + a2
  EXPECT_EQ(count("app-tag/db", a2, {"x", "y"}, CardinalityOp::kMin), 1);  // includes itself
  EXPECT_EQ(count("app-tag/none", a2, {"x"}, CardinalityOp::kMax), 0);
  // Empty tag set: fold over the tags those applications have here.
  EXPECT_EQ(count("not-self", a2, {}, CardinalityOp::kMax), 2);  // x: a1 + a3
  EXPECT_EQ(count("not-self", a3, {}, CardinalityOp::kMin), 1);  // x 3, y 1
  EXPECT_EQ(count("app-tag/web", a3, {}, CardinalityOp::kSum), 4);
  EXPECT_EQ(count("self", a1, {}, CardinalityOp::kMin), 1);
  // Errors name the namespace.
  EXPECT_NE(
      tags.appSetFor("unknown", a1).status().message().find("Invalid namespace prefix: unknown"),
      std::string::npos);
  EXPECT_NE(tags.appSetFor("app-id", a1).status().message().find("Missing the application ID"),
            std::string::npos);
  EXPECT_NE(tags.appSetFor("app-id/xyz", a1)
                .status()
                .message()
                .find("Invalid application ID for app-id: xyz"),
            std::string::npos);
  // Known applications for evaluate(): those holding tags, with their application tags.
  const TargetApplications known = tags.targetApplications(a1);
  ASSERT_EQ(known.apps.size(), 3u);
  EXPECT_EQ(known.apps[1].applicationTags, (std::vector<std::string>{"db", "web"}));
  tags.removeApplication(a2);
  EXPECT_EQ(count("app-tag/web", a3, {"x"}, CardinalityOp::kSum), 1);
}

TEST(AllocationTags, TemporaryTagsAreVisibleThenCleaned) {
  AllocationTagsManager tags;
  tags.addTags(n0, r0, a1, Tags{"foo"});
  {
    TemporaryAllocationTags temp(tags);
    temp.addTempTags(n0, r0, a1, Tags{"foo"});
    temp.addTempTags(n1, r0, a2, Tags{"bar"});
    EXPECT_EQ(tags.nodeCardinality(n0, a1, "foo"), 2);
    EXPECT_EQ(tags.rackCardinality(r0, std::nullopt, "bar"), 1);
    temp.removeTempTags(n0, a1, Tags{"foo", "foo"});  // only one was temporary
    EXPECT_EQ(tags.nodeCardinality(n0, a1, "foo"), 1);
    temp.addTempTags(n0, r0, a1, Tags{"foo"});
    temp.cleanTempContainers(a1);
    EXPECT_EQ(tags.nodeCardinality(n0, a1, "foo"), 1);
    EXPECT_EQ(tags.nodeCardinality(n1, a2, "bar"), 1);
  }  // the destructor takes a2's temporary tag out
  EXPECT_EQ(tags.nodeCardinality(n1, a2, "bar"), 0);
  EXPECT_EQ(tags.nodeCardinality(n0, a1, "foo"), 1);
  ASSERT_TRUE(tags.checkInvariants());
}

TEST(FlatCountMap, MatchesAnOrderedMapUnderChurn) {
  // Few distinct keys in a small range: long probe chains, many erasures by backward shift.
  std::mt19937 rng(11);
  FlatCountMap<uint32_t> flat;
  std::map<uint32_t, int32_t> model;
  for (int step = 0; step < 20000; ++step) {
    const uint32_t k = rng() % 64 * 8;  // keys that collide under the multiplicative hash
    const int32_t delta = static_cast<int32_t>(rng() % 5) - 2;
    const int32_t before = model.contains(k) ? model[k] : 0;
    const auto [b, a] = flat.add(k, delta);
    ASSERT_EQ(b, before);
    ASSERT_EQ(a, before + delta);
    if (before + delta > 0) {
      model[k] = before + delta;
    } else {
      model.erase(k);
    }
    ASSERT_EQ(flat.size(), model.size());
    for (uint32_t q = 0; q < 512; q += 8) ASSERT_EQ(flat.get(q), model.contains(q) ? model[q] : 0);
  }
  size_t seen = 0;
  flat.forEach([&](uint32_t k, int32_t n) {
    ++seen;
    EXPECT_EQ(model.at(k), n);
  });
  EXPECT_EQ(seen, model.size());
}

// A brute-force model: a list of (node, app, tag) -> count, racks from a fixed map.
struct Model {
  std::map<std::tuple<uint32_t, uint32_t, std::string>, int64_t> counts;
  std::map<uint32_t, uint32_t> rackOfNode;

  int64_t node(uint32_t n, std::optional<uint32_t> app, const std::string& tag) const {
    int64_t sum = 0;
    for (const auto& [k, c] : counts) {
      if (std::get<0>(k) == n && std::get<2>(k) == tag && (!app || std::get<1>(k) == *app))
        sum += c;
    }
    return sum;
  }
  int64_t rack(uint32_t r, std::optional<uint32_t> app, const std::string& tag) const {
    int64_t sum = 0;
    for (const auto& [k, c] : counts) {
      if (rackOfNode.at(std::get<0>(k)) == r && std::get<2>(k) == tag &&
          (!app || std::get<1>(k) == *app)) {
        sum += c;
      }
    }
    return sum;
  }
};

TEST(AllocationTags, RandomisedAgainstBruteForce) {
  constexpr uint32_t kNodes = 12, kRacks = 3, kApps = 4;
  const std::vector<std::string> names = {"a", "b", "c", "d", "e"};
  std::mt19937 rng(7);
  AllocationTagsManager tags;
  Model model;
  for (uint32_t n = 0; n < kNodes; ++n) model.rackOfNode[n] = n % kRacks;
  for (int step = 0; step < 3000; ++step) {
    const uint32_t n = rng() % kNodes;
    const uint32_t app = 1 + rng() % kApps;
    const std::string& tag = names[rng() % names.size()];
    const int action = static_cast<int>(rng() % 100);
    if (action < 60) {
      tags.addTags(NodeId{n}, RackId{n % kRacks}, AppId{app}, Tags{tag});
      ++model.counts[{n, app, tag}];
    } else if (action < 98) {
      const bool present = model.counts.contains({n, app, tag});
      EXPECT_EQ(tags.removeTags(NodeId{n}, AppId{app}, Tags{tag}), present);
      if (present && --model.counts[{n, app, tag}] == 0) model.counts.erase({n, app, tag});
    } else {
      tags.removeNode(NodeId{n});
      std::erase_if(model.counts, [&](const auto& e) { return std::get<0>(e.first) == n; });
    }
    ASSERT_TRUE(tags.checkInvariants()) << "step " << step;
    // Spot-check queries on a random node and rack.
    const uint32_t qn = rng() % kNodes;
    const uint32_t qa = 1 + rng() % kApps;
    for (const std::string& t : names) {
      ASSERT_EQ(tags.nodeCardinality(NodeId{qn}, AppId{qa}, t), model.node(qn, qa, t));
      ASSERT_EQ(tags.nodeCardinality(NodeId{qn}, std::nullopt, t), model.node(qn, std::nullopt, t));
      ASSERT_EQ(tags.rackCardinality(RackId{qn % kRacks}, std::nullopt, t),
                model.rack(qn % kRacks, std::nullopt, t));
      ASSERT_EQ(
          tags.nodeCardinality(NodeId{qn}, AppSet::allBut(AppId{qa}), Tags{t}, CardinalityOp::kSum),
          model.node(qn, std::nullopt, t) - model.node(qn, qa, t));
    }
  }
}

}  // namespace
}  // namespace spindle::placement
