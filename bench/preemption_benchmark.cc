// One round of the capacity preemption policy (planPreemptionRound) on a synthetic snapshot:
// 1,000 leaf queues in a 10 x 10 x 10 tree (every level 10 % of its parent), 10 apps per leaf,
// containers of <1 GB, 1 vcore> spread round-robin over the nodes, a full cluster (total = the
// containers). Even leaves run at 1.6 x their guarantee with nothing pending; odd leaves at
// 0.4 x with a guarantee's worth pending, so the FIFO selector preempts from half the leaves
// for the other half (bounded by total_preemption_per_round = 0.1). Arguments: nodes and
// running containers. Target (issue 5): under 20 ms per round at 10k nodes / 200k containers.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "resource/resource_calculator.h"
#include "scheduler/capacity/preemption/preemption_policy.h"

namespace spindle {
namespace {

using preemption::AppSnapshot;
using preemption::ContainerSnapshot;
using preemption::NodeSnapshot;
using preemption::PreemptionSettings;
using preemption::PreemptionSnapshot;
using preemption::QueuePartitionAmounts;

constexpr int kFanout = 10;
constexpr int kAppsPerLeaf = 10;

Resource gb(int64_t n) { return Resource::of(n * 1024, n); }

PreemptionSnapshot syntheticSnapshot(int nodes, int64_t containers) {
  PreemptionSnapshot s;
  s.clusterTotal = gb(containers);
  s.minimumAllocation = gb(1);
  s.nowMs = 1'000'000;
  s.partitions = {{"", s.clusterTotal, true}};
  for (int n = 0; n < nodes; ++n) {
    s.nodes.push_back(NodeSnapshot{.id = NodeId(static_cast<uint32_t>(n)),
                                   .name = fmt::format("host{}", n),
                                   .partition = "",
                                   .unallocated = Resource(),
                                   .killable = Resource(),
                                   .reservedContainer = std::nullopt});
  }
  const int leaves = kFanout * kFanout * kFanout;
  const int64_t perLeaf = containers / leaves;  // each leaf's guarantee, in containers
  auto amounts = [&](int64_t guaranteed, int64_t used, int64_t pending) {
    QueuePartitionAmounts a;
    a.guaranteed = gb(guaranteed);
    a.max = s.clusterTotal;
    a.used = gb(used);
    a.pending = gb(pending);
    a.pendingDeductReserved = a.pending;
    return a;
  };
  const QueueId root = s.addQueue("root", QueueId());
  s.queues[root.value()].partitions[""] = amounts(containers, 0, 0);
  int leaf = 0;
  uint32_t nextApp = 1;
  uint32_t nextNode = 0;
  int64_t placed = 0;
  std::vector<QueueId> parents;
  for (int p = 0; p < kFanout; ++p) {
    const QueueId pq = s.addQueue(fmt::format("root.p{}", p), root);
    s.queues[pq.value()].partitions[""] = amounts(perLeaf * 100, 0, 0);
    for (int q = 0; q < kFanout; ++q) {
      const QueueId qq = s.addQueue(fmt::format("root.p{}.q{}", p, q), pq);
      s.queues[qq.value()].partitions[""] = amounts(perLeaf * 10, 0, 0);
      for (int l = 0; l < kFanout; ++l, ++leaf) {
        const QueueId lq = s.addQueue(fmt::format("root.p{}.q{}.l{}", p, q, l), qq);
        const bool over = leaf % 2 == 0;
        // The last leaf takes the rounding remainder so the cluster is exactly full.
        int64_t used = over ? perLeaf * 8 / 5 : perLeaf * 2 / 5;
        if (leaf == leaves - 1) used = containers - placed;
        const int64_t pending = over ? 0 : perLeaf;
        s.queues[lq.value()].partitions[""] = amounts(perLeaf, used, pending);
        s.queues[lq.value()].amPreemptionAllowance = gb(perLeaf / 10);
        for (QueueId up = qq; up.valid(); up = s.queues[up.value()].parent) {
          s.queues[up.value()].partitions[""].used += gb(used);
        }
        // Apps share the leaf's containers; the first container of each app is its AM.
        for (int a = 0; a < kAppsPerLeaf; ++a) {
          AppSnapshot app;
          app.attempt = AttemptId{AppId(nextApp++), 1};
          app.name = fmt::format("app{}", app.attempt.app.value());
          app.queue = lq;
          app.user = fmt::format("user{}", a % 3);
          const int64_t n = used / kAppsPerLeaf + (a < used % kAppsPerLeaf ? 1 : 0);
          for (int64_t k = 0; k < n; ++k) {
            app.containers.push_back(
                ContainerSnapshot{.id = {app.attempt, static_cast<uint64_t>(k + 1)},
                                  .node = NodeId(nextNode),
                                  .size = gb(1),
                                  .requestPriority = k == 0 ? 0 : 20,
                                  .isAm = k == 0,
                                  .creationTimeMs = static_cast<int64_t>(placed + k)});
            nextNode = (nextNode + 1) % static_cast<uint32_t>(nodes);
          }
          placed += n;
          if (!over) app.pending[""] = gb(pending / kAppsPerLeaf);
          // FIFO preemption order: the newest app first.
          s.queues[lq.value()].appsInPreemptionOrder.insert(
              s.queues[lq.value()].appsInPreemptionOrder.begin(), app.attempt);
          s.apps.push_back(std::move(app));
        }
      }
    }
  }
  return s;
}

// What a round's plan must satisfy, checked once after the timed loop (the policy is a pure
// function: its input contract and its output, not a scheduler's caches): the snapshot is
// valid, and every candidate is a distinct container of the snapshot.
Status checkPlan(const PreemptionSnapshot& snapshot, const preemption::PreemptionPlan& plan) {
  SPINDLE_RETURN_IF_ERROR(preemption::validateSnapshot(snapshot));
  std::set<ContainerId> containers;
  for (const AppSnapshot& app : snapshot.apps) {
    for (const ContainerSnapshot& c : app.containers) containers.insert(c.id);
  }
  std::set<ContainerId> seen;
  for (const preemption::PreemptionCandidate& c : plan.candidates) {
    if (!containers.count(c.container) || !seen.insert(c.container).second) {
      return internalError("candidate {}-{} is not a distinct container of the snapshot",
                           c.container.app().value(), c.container.seq);
    }
  }
  return Status::ok();
}

void BM_PreemptionRound(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int64_t containers = state.range(1);
  const PreemptionSnapshot snapshot = syntheticSnapshot(nodes, containers);
  PreemptionSettings settings;
  settings.monitorEnabled = true;
  // The Capacity Scheduler's default: DefaultResourceCalculator over memory and vcores.
  const std::unique_ptr<ResourceCalculator> rc = makeDefaultResourceCalculator(ResourceTypes());
  size_t candidates = 0;
  for (auto _ : state) {
    auto plan = preemption::planPreemptionRound(snapshot, *rc, settings);
    if (!plan.isOk()) {
      state.SkipWithError(plan.status().message().c_str());
      return;
    }
    candidates = plan.value().candidates.size();
    benchmark::DoNotOptimize(candidates);
  }
  state.counters["candidates"] = static_cast<double>(candidates);
  // Once more, untimed, to check the plan (the policy is deterministic: the same plan).
  auto plan = preemption::planPreemptionRound(snapshot, *rc, settings);
  const Status s = plan.isOk() ? checkPlan(snapshot, *plan) : plan.status();
  if (!s.isOk()) {
    const std::string msg = "plan check failed: " + s.message();
    std::fprintf(stderr, "%s\n", msg.c_str());
    state.SkipWithError(msg.c_str());
  }
}

BENCHMARK(BM_PreemptionRound)
    ->ArgNames({"nodes", "containers"})
    ->Args({10'000, 200'000})
    ->Args({1'000, 200'000})
    ->Args({50'000, 200'000})
    ->Args({10'000, 20'000})
    ->Args({10'000, 1'000'000})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spindle
