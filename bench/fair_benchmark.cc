// Fair Scheduler benchmarks (issue 6): the update pass and allocation throughput with the fair
// policy.
//
//   build/bench/spindle_bench --benchmark_filter=Fair
//
// Queues: a 3-level tree root -> p<i> -> q<j> -> l<k> of `leaves` leaf queues (shapes below),
// fair policy everywhere, leaf weights 1, 2, 3 in turn so that shares differ; 10 apps per leaf
// (10,000 apps for 1,000 leaves), users user0..user36, each app asking for 1 GB off-switch ("*")
// containers, 100,000,000 of them, so every app has pending demand throughout.
//
// BM_FairUpdate: one FairScheduler::update() (demand bottom-up, instantaneous fair shares top-down
// with 25-iteration bisections), on a cluster of 1,000 8 GB nodes after one round of heartbeats
// gave every node 5 containers (apps have usage, so comparators and shares are not all zero).
// BM_FairSteadyShares: a node's capacity update (NodeResourceUpdate) and then a read of the
// steady fair shares (steadyFairShares()), which computes them over the whole tree (they are
// computed when read, not by events).
// BM_FairCheckInvariants: one Scheduler::checkInvariants() (every cache recomputed and compared)
// on the state BM_FairAllocation starts from. Every benchmark runs the checker once after its
// timed loop and reports ERROR if it fails (check_at_end.h).
// BM_FairAllocation: steady-state allocation throughput as in capacity_benchmark.cc: each
// iteration is one node heartbeat that completes the containers the node received last time;
// the scheduler then refills it (assignmultiple on; dynamic.max.assign, YARN's default, stops at
// half of the node's free room, ~5 containers per heartbeat). The injected clock advances by one
// heartbeat interval (1 s) per round over the nodes, so the lazy update pass runs every 500 ms of
// simulated time as it would in the RM. items/s = container allocations per second on one core.
// fill:1 runs the same with max.assign 8 and dynamic.max.assign off, so that each heartbeat fills
// its node with 8 containers as capacity_benchmark.cc's heartbeats do (the per-heartbeat work is
// then shared by 8 allocations instead of ~5); fill:0 is YARN's default.
//
// Measured (CPU time; 2 cores shared by 7 jobs, load ~12, so +-20 %), before the issue-6 work
// (d3e2eb9) and after:
//   update pass        100 q / 1k apps  0.90 -> 0.06 ms;  1,000 q / 10k apps 14.7 -> 2.1-3.1 ms;
//                      5,000 q / 50k apps  69 -> 19 ms    (linear in queues + apps)
//   steady shares      100 q 0.03 ms; 1,000 q 0.40-0.52 -> 0.37 ms; 5,000 q 4.9 ms
//   allocations/s      1k nodes 34k -> 141k; 10k nodes 36k -> 140k; 50k nodes 37k -> 118k
//   (1,000 queues)     (heartbeat 147 / 141 / 136 us -> 35 / 36 / 42 us for ~5 containers)
//   allocations/s      100 queues 93k -> 167k; 5,000 queues 94k (5,000 leaves, 50k apps)
//   (10k nodes)
// Of what remains per heartbeat (perf, 1k nodes): ~45 % the descent (refreshing and comparing
// ~40 views per container), ~30 % the scheduler core's container bookkeeping (allocate,
// finishContainer, decision records), ~15 % the periodic update pass. 500k/s would need the
// core's per-container cost cut too.
// Branch core-perf (flat per-node container set, inline Resource arithmetic), idle machine but a
// VM that swings up to 2x between runs: 10k nodes 231k-281k -> 237k-292k (+5-20 % in every
// paired run); 1k nodes 189k-207k -> 155k-216k; 50k nodes 239k -> 264k-272k. See bench/README.md.
// Branch fs-perf3 (paired, interleaved runs of the base 8cae1ee and the branch, 3 rounds each,
// machine shared with the other helpers, load 5-9; medians of items/s from CPU time, range in
// brackets):
//   allocations/s, 1,000 queues   1k nodes  217k [186-252] -> 243k [210-265]  x1.12
//                                10k nodes  221k [212-239] -> 319k [280-322]  x1.44
//                                50k nodes  212k [178-215] -> 335k [288-340]  x1.58
//   allocations/s, 10k nodes     100 queues 530k [492-611] -> 575k [537-719]  x1.08
//                                5,000 queues 135k [126-157] -> 214k [206-226] x1.59
//   update pass      100 q 0.063-0.074 -> 0.063-0.079 ms; 1,000 q 1.5-2.2 -> 1.7-2.3 ms (now
//                    includes keeping the policy orders current, work the descent used to do on
//                    every container); 5,000 q 17-19 -> 19 ms (one run)
//   steady shares    1,000 q 0.29-0.35 -> 0.25-0.33 ms; 5,000 q 5.1-5.6 -> 4.2-4.9 ms
//   setup (CPU)      10k nodes 1.7 s -> 0.2 s; 50k nodes 8.6 s -> 0.8 s (steady shares lazy,
//                    percentage min/max shares alone re-resolved per NodeAdded)
// What changed: the descent walks policy orders kept sorted between heartbeats (fair_order.cc:
// a container moves its app and the queues above it a few places; name ranks instead of string
// tie-breaks; the fair comparator's key stored next to each member) instead of refreshing and
// comparing ~40 views per container. What remains per container (perf, 10k nodes): ~18 % the
// order moves (cache misses on the queue path and order entries), ~30 % the core's container
// bookkeeping (Application::removeContainer, the live-container map, allocate/finish), ~15 %
// the per-app steps (AskTable lookups, AM limit), ~5 % the update pass. The 500k/s target needs
// the core's per-container cost cut as well (core-perf2).
// After core-perf2 + cs-perf3 + fs-perf3 merged: 10k nodes 326k-380k/s. Session 5 (order entries
// re-keyed from themselves, one cache line each; delay state and asks next to the hot fields;
// release paths prefetched for all of a heartbeat's completed containers; see bench/README.md):
// 10k nodes median 509k/s over 6 passes (range 423k-527k), 1k nodes 315k, 50k nodes 533k, 100
// queues 1.15M, 5,000 queues 340k/s; update pass at 1,000 queues 1.5-2.0 ms. With the descent's
// and the heartbeat's prefetches (final commit of session 5): 10k nodes median 538k (5 passes)
// and 574k (8 passes), 560k-618k in the VM's normal phase, 370k-480k in its slow phase.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "check_at_end.h"
#include "per_node_containers.h"
#include "scheduler/fair/fair_scheduler.h"

namespace spindle {
namespace {

struct TreeShape {
  int parents, middles, leaves;  // children per level; leaves in total = product
};

TreeShape shapeFor(int leaves) {
  switch (leaves) {
    case 100: return {5, 5, 4};
    case 1000: return {10, 10, 10};
    case 5000: return {10, 20, 25};
    default: return {1, 1, leaves};
  }
}

std::string leafPath(const TreeShape& s, int leaf) {
  const int l = leaf % s.leaves;
  const int q = leaf / s.leaves % s.middles;
  const int p = leaf / s.leaves / s.middles;
  return fmt::format("root.p{}.q{}.l{}", p, q, l);
}

std::string allocationXml(const TreeShape& s) {
  std::string xml = "<?xml version=\"1.0\"?>\n<allocations>\n";
  for (int p = 0; p < s.parents; ++p) {
    xml += fmt::format("<queue name=\"p{}\">\n", p);
    for (int q = 0; q < s.middles; ++q) {
      xml += fmt::format(" <queue name=\"q{}\">\n", q);
      for (int l = 0; l < s.leaves; ++l) {
        xml += fmt::format("  <queue name=\"l{}\"><weight>{}</weight></queue>\n", l, 1 + l % 3);
      }
      xml += " </queue>\n";
    }
    xml += "</queue>\n";
  }
  xml += "<defaultQueueSchedulingPolicy>fair</defaultQueueSchedulingPolicy>\n";
  xml +=
      "<queuePlacementPolicy><rule name=\"specified\"/><rule "
      "name=\"reject\"/></queuePlacementPolicy>\n";
  xml += "</allocations>\n";
  return xml;
}

// A Fair Scheduler with the tree, `nodes` 8 GB nodes (40 per rack) and 10 apps per leaf.
struct Setup {
  SimulatedClock clock;
  Rng rng{1};
  std::unique_ptr<FairScheduler> sched;
  PerNodeContainers sink;
  std::vector<std::string> names;
  std::vector<NodeId> ids;

  // fillNode: max.assign 8 without dynamic.max.assign, so that a heartbeat fills its 8 GB node
  // as capacity_benchmark.cc's do (8 containers); otherwise YARN's default dynamic max assign
  // (half the node's free room, ~5 containers).
  Status build(int leaves, int nodes, bool fillNode = false) {
    const TreeShape shape = shapeFor(leaves);
    Configuration conf;
    conf.set("yarn.scheduler.fair.assignmultiple", "true");
    if (fillNode) {
      conf.set("yarn.scheduler.fair.dynamic.max.assign", "false");
      conf.set("yarn.scheduler.fair.max.assign", "8");
    }
    SPINDLE_ASSIGN_OR_RETURN(
        sched, FairScheduler::createWithAllocation(conf, allocationXml(shape), clock, rng));
    sched->setDecisionSink(&sink);
    const int racks = std::max(1, nodes / 40);
    for (int i = 0; i < nodes; ++i) {
      names.push_back(fmt::format("host{}", i));
      SPINDLE_RETURN_IF_ERROR(sched->handle(NodeAdded{
          names.back(), fmt::format("/rack{}", i % racks), Resource::of(8192, 8), {}, {}}));
      ids.push_back(*sched->cluster().findNode(names.back()));
    }
    const int apps = 10 * leaves;
    for (int a = 0; a < apps; ++a) {
      AppSubmission sub;
      sub.queue = leafPath(shape, a % leaves);
      sub.user = fmt::format("user{}", a % 37);
      SPINDLE_ASSIGN_OR_RETURN(AppId id, sched->submit(sub));
      SPINDLE_RETURN_IF_ERROR(sched->handle(AppAllocate{
          id, {{{20, 0}, "*", Resource::of(1024, 1), 100'000'000, true, ""}}, {}, {}, {}}));
    }
    // One round of heartbeats: every node gets its first containers.
    for (int n = 0; n < nodes; ++n) SPINDLE_RETURN_IF_ERROR(sched->heartbeat(ids[n], {}));
    return Status::ok();
  }
};

void BM_FairUpdate(benchmark::State& state) {
  const int leaves = static_cast<int>(state.range(0));
  Setup s;
  if (Status st = s.build(leaves, 1000); !st.isOk()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  for (auto _ : state) s.sched->update();
  state.counters["queues"] = leaves;
  state.counters["apps"] = 10.0 * leaves;
  checkInvariantsAtEnd(state, *s.sched);
}

void BM_FairSteadyShares(benchmark::State& state) {
  const int leaves = static_cast<int>(state.range(0));
  Setup s;
  if (Status st = s.build(leaves, 1000); !st.isOk()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  int64_t i = 0;
  for (auto _ : state) {
    const int64_t mb = (i++ % 2) ? 8192 : 16384;
    benchmark::DoNotOptimize(s.sched->handle(NodeResourceUpdate{s.names[0], Resource::of(mb, 8)}));
    // The steady shares are computed when read (steadyFairShares()), not by the event itself.
    benchmark::DoNotOptimize(s.sched->steadyFairShares());
  }
  state.counters["queues"] = leaves;
  checkInvariantsAtEnd(state, *s.sched);
}

void BM_FairAllocation(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int leaves = static_cast<int>(state.range(1));
  const bool fillNode = state.range(2) != 0;
  Setup s;
  if (Status st = s.build(leaves, nodes, fillNode); !st.isOk()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  int64_t i = 0;
  const int64_t before = s.sink.allocations();
  for (auto _ : state) {
    const int n = static_cast<int>(i % nodes);
    // Heartbeat interval 1 s: the round over the nodes takes 1,000 ms of injected time.
    s.clock.setMs(1000 + i * 1000 / nodes);
    ++i;
    benchmark::DoNotOptimize(s.sched->heartbeat(s.ids[n], s.sink.take(s.ids[n])));
  }
  state.SetItemsProcessed(s.sink.allocations() - before);
  state.counters["heartbeats/s"] =
      benchmark::Counter(static_cast<double>(i), benchmark::Counter::kIsRate);
  checkInvariantsAtEnd(state, *s.sched);
}

// The invariant checker itself (Scheduler::checkInvariants, every cache recomputed) on the
// allocation benchmark's state: linear in nodes + apps + containers.
void BM_FairCheckInvariants(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int leaves = static_cast<int>(state.range(1));
  Setup s;
  if (Status st = s.build(leaves, nodes); !st.isOk()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  timeInvariantChecks(state, *s.sched);
  state.counters["apps"] = 10.0 * leaves;
}

BENCHMARK(BM_FairUpdate)
    ->ArgName("queues")
    ->Arg(100)
    ->Arg(1000)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FairSteadyShares)
    ->ArgName("queues")
    ->Arg(100)
    ->Arg(1000)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FairAllocation)
    ->ArgNames({"nodes", "queues", "fill"})
    ->Args({1000, 1000, 0})
    ->Args({10000, 1000, 0})
    ->Args({50000, 1000, 0})
    ->Args({10000, 100, 0})
    ->Args({10000, 5000, 0})
    ->Args({1000, 1000, 1})
    ->Args({10000, 1000, 1})
    ->Args({50000, 1000, 1})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FairCheckInvariants)
    ->ArgNames({"nodes", "queues"})
    ->Args({1000, 100})
    ->Args({10000, 1000})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spindle
