// Constrained placement throughput of the evaluator and the tag store, over cluster size.
//
// A cluster of N nodes (racks of 40) holds 100,000 live tagged containers of 1,000 applications
// (each container carries one of its application's 10 tags). One "placement" is what a node
// filter does for one container: starting at a pseudo-random node, check nodes in order until
// the constraint holds, then record the new container's tag; one random live container
// completes at the same time, so the store stays at 100,000. The rate is placements per second
// (items_per_second); the target is >= 100,000/s at 10,000 nodes, with a cost per
// placement that does not grow linearly with N.
//
//   ./build/src/placement/spindle_placement_bench --benchmark_filter=BM_Place
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "placement/allocation_tags.h"
#include "placement/constraint.h"
#include "placement/evaluator.h"
#include "placement/node_attributes.h"

namespace spindle::placement {
namespace {

constexpr uint32_t kNodesPerRack = 40;
constexpr uint32_t kApps = 1000;
constexpr uint32_t kTagsPerApp = 10;
constexpr int kLiveContainers = 100000;

struct Live {
  uint32_t node;
  uint32_t app;
  uint32_t tag;
};

struct Cluster {
  uint32_t nodes;
  AllocationTagsManager tags;
  NodeAttributes attributes;
  std::vector<std::string> tagNames;  // app * kTagsPerApp + i
  std::vector<Live> live;
  std::mt19937_64 rng{42};

  explicit Cluster(uint32_t n) : nodes(n) {
    for (uint32_t a = 0; a < kApps; ++a) {
      for (uint32_t t = 0; t < kTagsPerApp; ++t)
        tagNames.push_back("app" + std::to_string(a) + "-t" + std::to_string(t));
    }
    for (uint32_t node = 0; node < n; node += 2) {
      (void)attributes.replaceCentralized(
          NodeId{node}, {{"rm.yarn.io", "java", NodeAttributeType::kString, "1.8"}});
    }
    live.reserve(kLiveContainers);
    for (int i = 0; i < kLiveContainers; ++i) {
      add({static_cast<uint32_t>(rng() % n), static_cast<uint32_t>(rng() % kApps),
           static_cast<uint32_t>(rng() % kTagsPerApp)});
    }
  }

  static RackId rackOf(uint32_t node) { return RackId{node / kNodesPerRack}; }
  const std::string& tag(uint32_t app, uint32_t t) const { return tagNames[app * kTagsPerApp + t]; }

  void add(Live l) {
    const std::string one[] = {tag(l.app, l.tag)};
    tags.addTags(NodeId{l.node}, rackOf(l.node), AppId{l.app + 1}, one);
    live.push_back(l);
  }

  void completeRandom() {
    const size_t i = rng() % live.size();
    const Live l = live[i];
    live[i] = live.back();
    live.pop_back();
    const std::string one[] = {tag(l.app, l.tag)};
    tags.removeTags(NodeId{l.node}, AppId{l.app + 1}, one);
  }

  // One placement for `app` with tag `t`: returns the number of nodes checked.
  int place(const PlacementConstraint& c, uint32_t app, uint32_t t) {
    const uint32_t start = static_cast<uint32_t>(rng() % nodes);
    for (uint32_t i = 0; i < nodes; ++i) {
      const uint32_t node = (start + i) % nodes;
      const NodeContext where{NodeId{node}, rackOf(node), ""};
      if (canSatisfy(c, AppId{app + 1}, where, tags, attributes)) {
        completeRandom();
        add({node, app, t});
        return static_cast<int>(i + 1);
      }
    }
    return static_cast<int>(nodes);
  }
};

// Which constraint: 0 = node anti-affinity with the app's own tag (NOTIN node self/t),
// 1 = at most 2 per rack over all apps (cardinality rack all/t 0..2),
// 2 = AND(anti-affinity, java=1.8 attribute), 3 = not-self anti-affinity.
PlacementConstraint constraintFor(int kind, const std::string& tag) {
  switch (kind) {
    case 0: return targetNotIn(Scope::kNode, {allocationTag({tag})});
    case 1: return maxCardinality(Scope::kRack, "all", 2, {tag});
    case 2:
      return andOf({targetNotIn(Scope::kNode, {allocationTag({tag})}),
                    targetNodeAttribute(Scope::kNode, NodeAttributeOp::kEq,
                                        {nodeAttribute("java", {"1.8"})})});
    default: return targetNotIn(Scope::kNode, {allocationTagWithNamespace("not-self", {tag})});
  }
}

// Constraints are built once per (app, tag), as a scheduler builds them once per request; each
// iteration picks one uniformly, so the store stays in its steady state.
std::vector<PlacementConstraint> constraintsFor(const Cluster& cluster, int kind) {
  std::vector<PlacementConstraint> out;
  out.reserve(cluster.tagNames.size());
  for (const std::string& tag : cluster.tagNames) out.push_back(constraintFor(kind, tag));
  return out;
}

void BM_Place(benchmark::State& state) {
  Cluster cluster(static_cast<uint32_t>(state.range(0)));
  const std::vector<PlacementConstraint> constraints =
      constraintsFor(cluster, static_cast<int>(state.range(1)));
  int64_t checked = 0;
  for (auto _ : state) {
    const uint32_t pair = static_cast<uint32_t>(cluster.rng() % constraints.size());
    checked += cluster.place(constraints[pair], pair / kTagsPerApp, pair % kTagsPerApp);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["nodes_checked_per_placement"] =
      static_cast<double>(checked) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Place)
    ->ArgsProduct({{1000, 10000, 50000}, {0, 1, 2, 3}})
    ->ArgNames({"nodes", "constraint"})
    ->Unit(benchmark::kMicrosecond);

// One constraint check on one random node: the node filter's per-node cost.
void BM_Check(benchmark::State& state) {
  Cluster cluster(static_cast<uint32_t>(state.range(0)));
  const std::vector<PlacementConstraint> constraints =
      constraintsFor(cluster, static_cast<int>(state.range(1)));
  int64_t yes = 0;
  for (auto _ : state) {
    const uint32_t pair = static_cast<uint32_t>(cluster.rng() % constraints.size());
    const uint32_t node = static_cast<uint32_t>(cluster.rng() % cluster.nodes);
    yes += canSatisfy(constraints[pair], AppId{pair / kTagsPerApp + 1},
                      {NodeId{node}, Cluster::rackOf(node), ""}, cluster.tags, cluster.attributes);
  }
  benchmark::DoNotOptimize(yes);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Check)
    ->ArgsProduct({{1000, 10000, 50000}, {0, 1, 2, 3}})
    ->ArgNames({"nodes", "constraint"});

// One completion plus one allocation in the tag store (no evaluation).
void BM_TagUpdate(benchmark::State& state) {
  Cluster cluster(static_cast<uint32_t>(state.range(0)));
  for (auto _ : state) {
    cluster.completeRandom();
    cluster.add({static_cast<uint32_t>(cluster.rng() % cluster.nodes),
                 static_cast<uint32_t>(cluster.rng() % kApps),
                 static_cast<uint32_t>(cluster.rng() % kTagsPerApp)});
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TagUpdate)->Arg(1000)->Arg(10000)->Arg(50000)->ArgName("nodes");

}  // namespace
}  // namespace spindle::placement
