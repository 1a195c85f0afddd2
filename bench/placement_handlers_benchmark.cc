// Constrained placements per second through each placement-constraints handler, at 1,000 /
// 10,000 / 50,000 nodes (40 per rack) holding 100,000 live tagged containers of 100 background
// apps (placed directly, tags svc0..svc99), with the Capacity Scheduler.
//
// Steady state: the benchmark app keeps a ring of live placements (half the nodes' worth); each
// placement beyond that completes the oldest. Two constraints: anti-affinity (`notin,node,web`)
// and a cardinality limit over every app's tags (`and(cardinality,node,web,0,1:
// cardinality,rack,all/svc0,0,100000)`).
//  - scheduler handler: one iteration = an allocate call raising the request's numAllocations
//    by one, then node heartbeats from a moving cursor until the Capacity Scheduler places it
//    (the node filter's check refuses nodes that already hold a web container).
//  - placement-processor: one iteration = one allocate call with a batch of 64 one-allocation
//    requests, placed by the algorithm and committed in the call.
// items/s = placements per second on one core. Every benchmark runs the invariant checker once
// after its timed loop (check_at_end.h). Measured: bench/README.md.
#include <benchmark/benchmark.h>

#include <deque>

#include "check_at_end.h"
#include "placement/spec_parser.h"
#include "scheduler/driver.h"

namespace spindle {
namespace {

constexpr int kBackgroundContainers = 100000;
constexpr int kBackgroundApps = 100;
constexpr int kBatch = 64;

struct Setup {
  SimulatedClock clock;
  Rng rng{1};
  std::unique_ptr<Driver> driver;
  AppId app;
  std::vector<NodeId> nodes;
  std::deque<ContainerId> live;
  size_t cursor = 0;

  Setup(int numNodes, const char* handler) {
    Configuration conf;
    conf.set("yarn.resourcemanager.scheduler.class", "capacity");
    conf.set("yarn.scheduler.minimum-allocation-mb", "128");
    conf.set("yarn.resourcemanager.placement-constraints.handler", handler);
    conf.set("yarn.resourcemanager.placement-constraints.retry-attempts", "1");
    conf.set("yarn.scheduler.capacity.root.default.user-limit-factor", "-1");
    driver = Driver::create(conf, clock, rng).value();
    for (int i = 0; i < numNodes; ++i) {
      (void)driver->handle(NodeAdded{fmt::format("n{}", i),
                                     fmt::format("/r{}", i / 40),
                                     Resource::of(1 << 20, 1 << 12),
                                     {},
                                     {}});
    }
    nodes = driver->scheduler().cluster().nodeIds();
    std::vector<AppId> bg;
    for (int a = 0; a < kBackgroundApps; ++a) {
      AppSubmission sub;
      sub.name = fmt::format("svc{}", a);
      bg.push_back(driver->submit(sub)->admission()->app);
    }
    for (int c = 0; c < kBackgroundContainers; ++c) {
      const AppId a = bg[static_cast<size_t>(c % kBackgroundApps)];
      PlaceContainer p{a, driver->scheduler().cluster().nodeName(nodes[c % nodes.size()]),
                       Resource::of(128, 1)};
      p.tags = {fmt::format("svc{}", c % kBackgroundApps)};
      (void)driver->handle(p);
    }
    AppSubmission sub;
    sub.name = "bench";
    app = driver->submit(sub)->admission()->app;
    driver->settle();
  }

  SchedulingRequest request(int64_t id, int32_t n, const placement::PlacementConstraint& c) const {
    SchedulingRequest r;
    r.allocationRequestId = id;
    r.priority = 1;
    r.allocationTags = {"web"};
    r.sizing = ResourceSizing{n, Resource::of(128, 1)};
    r.constraint = c;
    return r;
  }

  // Keeps the ring at half the nodes: completes the oldest placements beyond it.
  void trim() {
    while (live.size() > nodes.size() / 2) {
      (void)driver->handle(ContainerFinished{live.front(), 0});
      live.pop_front();
    }
  }
  void collect(const Outcome& out) {
    for (const ContainerChange& c : out.containers) {
      if (c.action == ContainerAction::kAllocated && c.app() == app) live.push_back(c.id);
    }
  }
};

placement::PlacementConstraint constraintOf(int kind) {
  return placement::parseExpression(
             kind == 0 ? "notin,node,web"
                       : "and(cardinality,node,web,0,0:cardinality,rack,all/svc0,0,100000)")
      .value();
}

void BM_PlacementSchedulerHandler(benchmark::State& state) {
  Setup s(static_cast<int>(state.range(0)), "scheduler");
  const placement::PlacementConstraint c = constraintOf(static_cast<int>(state.range(1)));
  int32_t asked = 0;
  int64_t placed = 0;
  for (auto _ : state) {
    AppAllocate a;
    a.app = s.app;
    a.schedulingRequests = {s.request(1, ++asked - static_cast<int32_t>(placed), c)};
    if (!s.driver->handle(a).isOk()) {
      state.SkipWithError("allocate failed");
      break;
    }
    for (size_t tries = 0; tries < s.nodes.size(); ++tries) {
      auto out = s.driver->heartbeat(s.nodes[s.cursor++ % s.nodes.size()], {});
      const size_t before = s.live.size();
      s.collect(*out);
      if (s.live.size() > before) break;
    }
    placed = static_cast<int64_t>(asked);
    s.trim();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  checkInvariantsAtEnd(state, s.driver->scheduler());
}

void BM_PlacementProcessor(benchmark::State& state) {
  Setup s(static_cast<int>(state.range(0)), "placement-processor");
  const placement::PlacementConstraint c = constraintOf(static_cast<int>(state.range(1)));
  int64_t placements = 0;
  for (auto _ : state) {
    AppAllocate a;
    a.app = s.app;
    for (int i = 0; i < kBatch; ++i) a.schedulingRequests.push_back(s.request(i, 1, c));
    auto out = s.driver->handle(a);
    if (!out.isOk()) {
      state.SkipWithError("allocate failed");
      break;
    }
    const size_t before = s.live.size();
    s.collect(*out);
    placements += static_cast<int64_t>(s.live.size() - before);
    s.trim();
  }
  state.SetItemsProcessed(placements);
  checkInvariantsAtEnd(state, s.driver->scheduler());
}

// range(0): nodes; range(1): 0 = anti-affinity, 1 = cardinality.
BENCHMARK(BM_PlacementSchedulerHandler)
    ->ArgsProduct({{1000, 10000, 50000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlacementProcessor)
    ->ArgsProduct({{1000, 10000, 50000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace spindle
