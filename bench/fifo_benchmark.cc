// FIFO allocation per node heartbeat at cluster sizes of 1,000 and 10,000 nodes.
//
// Steady state: every app asks for far more containers than the cluster holds; each iteration
// is one node heartbeat that reports the containers it received on its previous heartbeat as
// complete and is then filled again (8 x 1 GB on an 8 GB node). items/s is allocations per
// second; the run also reports heartbeats per second.
#include <benchmark/benchmark.h>

#include <unordered_map>

#include "check_at_end.h"
#include "per_node_containers.h"
#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {
namespace {

void BM_FifoHeartbeat(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int apps = static_cast<int>(state.range(1));
  const int racks = std::max(1, nodes / 40);
  Configuration conf;
  SimulatedClock clock;
  Rng rng(1);
  auto sched = FifoScheduler::create(conf, clock, rng).value();
  PerNodeContainers sink;
  sched->setDecisionSink(&sink);
  std::vector<std::string> names;
  std::vector<NodeId> ids;
  for (int i = 0; i < nodes; ++i) {
    names.push_back("host" + std::to_string(i));
    const std::string rack = "/rack" + std::to_string(i % racks);
    (void)sched->handle(NodeAdded{names.back(), rack, Resource::of(8192, 8), {}, {}});
    ids.push_back(*sched->cluster().findNode(names.back()));
  }
  for (int a = 0; a < apps; ++a) {
    AppId id = sched->submit(AppSubmission{}).value();
    std::vector<ResourceRequest> asks;
    const SchedulerKey key{20, 0};
    asks.push_back({key, "*", Resource::of(1024, 1), 100'000'000, true, ""});
    for (int r = 0; r < std::min(racks, 8); ++r) {
      asks.push_back({key, "/rack" + std::to_string((a + r) % racks), Resource::of(1024, 1),
                      1'000'000, true, ""});
    }
    (void)sched->handle(AppAllocate{id, asks, {}, {}, {}});
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
  checkInvariantsAtEnd(state, *sched);
}

BENCHMARK(BM_FifoHeartbeat)
    ->ArgNames({"nodes", "apps"})
    ->Args({1000, 10})
    ->Args({1000, 1000})
    ->Args({10000, 10})
    ->Args({10000, 1000})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace spindle
