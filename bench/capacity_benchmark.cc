// Capacity Scheduler allocation throughput: 1,000 leaf queues in a 10 x 10 x 10 tree, 10,000
// apps with pending asks, at 1,000 / 10,000 / 50,000 nodes, heartbeat and asynchronous mode.
//
// Steady state as in fifo_benchmark.cc: each iteration is one node heartbeat that completes the
// containers that node received last time; the scheduler then allocates again (heartbeat mode:
// on that node; async mode: the global pass over the node index). Asks are 1 GB off-switch
// ("*" only) on 8 GB nodes, so maximum-offswitch-assignments is raised to 100 (YARN's default
// of 1 would make every heartbeat a single-container one and measure heartbeat overhead).
// Users have user-limit-factor -1 so that the tree, not the 8 GB per-leaf guarantee, bounds
// usage. items/s = container allocations per second on one core.
//
// Measured: see bench/README.md (medians over several passes: this VM alternates between a
// normal and a 1.5-2x slower phase). Session 5, 10,000 nodes: heartbeat median 674k/s (range
// 367k-786k), async 686k/s (455k-778k); 1,000 -> 50,000 nodes within about 15 %.
#include <benchmark/benchmark.h>

#include <unordered_map>

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

void BM_CapacityAllocation(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const bool async = state.range(1) != 0;
  constexpr int kApps = 10'000;
  const int racks = std::max(1, nodes / 40);
  SimulatedClock clock;
  Rng rng(1);
  auto created = CapacityScheduler::create(treeConfig(async), clock, rng);
  if (!created.isOk()) {
    state.SkipWithError(created.status().message().c_str());
    return;
  }
  auto sched = std::move(created.value());
  PerNodeContainers sink;
  sched->setDecisionSink(&sink);
  std::vector<std::string> names;
  std::vector<NodeId> ids;
  for (int i = 0; i < nodes; ++i) {
    names.push_back(fmt::format("host{}", i));
    (void)sched->handle(
        NodeAdded{names.back(), fmt::format("/rack{}", i % racks), Resource::of(8192, 8), {}, {}});
    ids.push_back(*sched->cluster().findNode(names.back()));
  }
  for (int a = 0; a < kApps; ++a) {
    const int leaf = a % 1000;
    AppSubmission sub;
    sub.queue = fmt::format("root.p{}.q{}.l{}", leaf / 100, leaf / 10 % 10, leaf % 10);
    sub.user = fmt::format("user{}", a % 37);
    AppId id = sched->submit(sub).value();
    (void)sched->handle(AppAllocate{
        id, {{{20, 0}, "*", Resource::of(1024, 1), 100'000'000, true, ""}}, {}, {}, {}});
  }
  // Fill the cluster first (async: one pass; heartbeat mode: one round over the nodes) so the
  // timed loop measures the steady state of release-and-refill.
  for (int n = 0; n < (async ? 1 : nodes); ++n) {
    (void)sched->handle(NodeHeartbeat{names[n], {}});
  }
  int64_t i = 0;
  const int64_t before = sink.allocations();
  for (auto _ : state) {
    const int n = static_cast<int>(i++ % nodes);
    NodeHeartbeat hb{names[n], sink.take(ids[n])};
    benchmark::DoNotOptimize(sched->handle(hb));
  }
  state.SetItemsProcessed(sink.allocations() - before);
  state.counters["heartbeats/s"] =
      benchmark::Counter(static_cast<double>(i), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_CapacityAllocation)
    ->ArgNames({"nodes", "async"})
    ->ArgsProduct({{1000, 10000, 50000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace spindle
