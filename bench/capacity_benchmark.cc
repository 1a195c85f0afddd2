// Capacity Scheduler allocation throughput: 1,000 leaf queues in a 10 x 10 x 10 tree, 10,000
// apps with pending asks, at 1,000 / 10,000 / 50,000 nodes, heartbeat and asynchronous mode.
//
// Steady state as in fifo_benchmark.cc: each iteration is one node heartbeat that completes the
// containers that node received last time; the scheduler then allocates again (heartbeat mode:
// on that node; async mode: the global pass over the node index). Asks are 1 GB off-switch
// ("*" only) on 8 GB nodes, so maximum-offswitch-assignments is raised to 100 (YARN's default
// of 1 would make every heartbeat a single-container one and measure heartbeat overhead).
// Users have user-limit-factor -1 so that the tree, not the 8 GB per-leaf guarantee, bounds
// usage. items/s = container allocations per second on one core. BM_CapacityCheckInvariants
// times one Scheduler::checkInvariants() on the same state; every benchmark runs the checker
// once after its timed loop and reports ERROR if it fails (check_at_end.h).
//
// Measured: see bench/README.md (medians over several passes: this VM alternates between a
// normal and a 1.5-2x slower phase). Session 5, 10,000 nodes: heartbeat median 674k/s (range
// 367k-786k), async 686k/s (455k-778k); 1,000 -> 50,000 nodes within about 15 %.
#include <benchmark/benchmark.h>

#include <unordered_map>

#include "check_at_end.h"
#include "per_node_containers.h"
#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {
namespace {

// root -> p0..p9 -> q0..q9 -> l0..l9, every level 10 % of its parent.
Configuration treeConfig(bool async) {
  Configuration conf;
  const std::string pre = "yarn.scheduler.capacity.";
  auto names = [](const char* prefix) {
    std::string s;
    for (int i = 0; i < 10; ++i) s += fmt::format("{}{}{}", i ? "," : "", prefix, i);
    return s;
  };
  conf.set(fmt::format("{}root.queues", pre), names("p"));
  for (int p = 0; p < 10; ++p) {
    const std::string pp = fmt::format("{}root.p{}", pre, p);
    conf.set(pp + ".capacity", "10");
    conf.set(pp + ".queues", names("q"));
    for (int q = 0; q < 10; ++q) {
      const std::string qq = fmt::format("{}.q{}", pp, q);
      conf.set(qq + ".capacity", "10");
      conf.set(qq + ".queues", names("l"));
      for (int l = 0; l < 10; ++l) conf.set(fmt::format("{}.l{}.capacity", qq, l), "10");
    }
  }
  conf.set(fmt::format("{}user-limit-factor", pre), "-1");
  conf.set(fmt::format("{}per-node-heartbeat.maximum-offswitch-assignments", pre), "100");
  conf.set(fmt::format("{}schedule-asynchronously.enable", pre), async ? "true" : "false");
  return conf;
}

// The tree, `nodes` 8 GB nodes (40 per rack) and 10,000 apps with pending asks, the cluster
// filled once (async: one pass; heartbeat mode: one round over the nodes), so that the timed
// loops measure the steady state of release-and-refill.
struct Setup {
  SimulatedClock clock;
  Rng rng{1};
  std::unique_ptr<CapacityScheduler> sched;
  PerNodeContainers sink;
  std::vector<std::string> names;
  std::vector<NodeId> ids;

  Status build(int nodes, bool async) {
    constexpr int kApps = 10'000;
    const int racks = std::max(1, nodes / 40);
    SPINDLE_ASSIGN_OR_RETURN(sched, CapacityScheduler::create(treeConfig(async), clock, rng));
    sched->setDecisionSink(&sink);
    for (int i = 0; i < nodes; ++i) {
      names.push_back(fmt::format("host{}", i));
      SPINDLE_RETURN_IF_ERROR(sched->handle(NodeAdded{
          names.back(), fmt::format("/rack{}", i % racks), Resource::of(8192, 8), {}, {}}));
      ids.push_back(*sched->cluster().findNode(names.back()));
    }
    for (int a = 0; a < kApps; ++a) {
      const int leaf = a % 1000;
      AppSubmission sub;
      sub.queue = fmt::format("root.p{}.q{}.l{}", leaf / 100, leaf / 10 % 10, leaf % 10);
      sub.user = fmt::format("user{}", a % 37);
      SPINDLE_ASSIGN_OR_RETURN(AppId id, sched->submit(sub));
      SPINDLE_RETURN_IF_ERROR(sched->handle(AppAllocate{
          id, {{{20, 0}, "*", Resource::of(1024, 1), 100'000'000, true, ""}}, {}, {}, {}}));
    }
    for (int n = 0; n < (async ? 1 : nodes); ++n) {
      SPINDLE_RETURN_IF_ERROR(sched->handle(NodeHeartbeat{names[n], {}}));
    }
    return Status::ok();
  }
};

void BM_CapacityAllocation(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const bool async = state.range(1) != 0;
  Setup s;
  if (Status st = s.build(nodes, async); !st.isOk()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  int64_t i = 0;
  const int64_t before = s.sink.allocations();
  for (auto _ : state) {
    const int n = static_cast<int>(i++ % nodes);
    NodeHeartbeat hb{s.names[n], s.sink.take(s.ids[n])};
    benchmark::DoNotOptimize(s.sched->handle(hb));
  }
  state.SetItemsProcessed(s.sink.allocations() - before);
  state.counters["heartbeats/s"] =
      benchmark::Counter(static_cast<double>(i), benchmark::Counter::kIsRate);
  checkInvariantsAtEnd(state, *s.sched);
}

// The invariant checker itself (Scheduler::checkInvariants, every cache recomputed) on the
// allocation benchmark's starting state: linear in nodes + apps + containers.
void BM_CapacityCheckInvariants(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const bool async = state.range(1) != 0;
  Setup s;
  if (Status st = s.build(nodes, async); !st.isOk()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  timeInvariantChecks(state, *s.sched);
}

BENCHMARK(BM_CapacityAllocation)
    ->ArgNames({"nodes", "async"})
    ->ArgsProduct({{1000, 10000, 50000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CapacityCheckInvariants)
    ->ArgNames({"nodes", "async"})
    ->ArgsProduct({{1000, 10000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spindle
