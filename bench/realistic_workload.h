// The simulator benchmark's realistic workload: a day of production-like MapReduce on a large
// cluster, generated from a seed.
//
//   Trace t = realisticWorkload({.nodes = 10000, .hours = 24, .tasks = 1'200'000}, 42);
//
// - Nodes of 10240 MB / 10 vcores, 40 per rack.
// - Job sizes heavy-tailed: maps = floor(U^(-1/0.7)), a Pareto with index 0.7 cut at 20,000
//   maps: about 80% of jobs have fewer than 10 maps, about 1 in 600 more than 10,000. Reduces:
//   none under 5 maps, else maps / 20 (at least 1).
// - Submissions over `hours` with a diurnal rate (peak at midday, twice the mean), until the
//   task count reaches `tasks`.
// - Each map prefers the three hosts holding its input block, placed as HDFS's default block
//   placement puts replicas: one anywhere in the cluster, the second on another rack, the
//   third on the second's rack.
// - Three queues, by job: prod 50%, dev 30%, adhoc 20% (capacities 50/30/20, maximum 100%;
//   Fair weights 5/3/2: realisticCapacityConf / realisticFairAllocations).
// - Map time LogNormal(mean 15 min, sigma 1), reduce time LogNormal(mean 20 min, sigma 0.8);
//   maps 1 or 2 GB, reduces 2 GB.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "base/rng.h"
#include "config/configuration.h"
#include "trace/trace.h"

namespace spindle::sim {

struct RealisticWorkload {
  int nodes = 10000;
  double hours = 24;
  int64_t tasks = 1'200'000;
};

inline const char* kRealisticQueues[] = {"prod", "dev", "adhoc"};
inline const int kRealisticShares[] = {50, 30, 20};

inline int64_t realisticLogNormal(Rng& rng, double mean, double sigma) {
  const double mu = std::log(mean) - sigma * sigma / 2;  // exp(N(mu, s)) has mean e^(mu+s^2/2)
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(rng.logNormal(mu, sigma))));
}

inline Trace realisticWorkload(const RealisticWorkload& w, uint64_t seed) {
  constexpr int kRack = 40;
  Rng rng(seed);
  Trace t;
  for (int i = 0; i < w.nodes; ++i) {
    t.nodes.push_back(TraceNode{"node" + std::to_string(i),
                                "/rack" + std::to_string(i / kRack),
                                Resource::of(10240, 10),
                                {}});
  }
  const int racks = (w.nodes + kRack - 1) / kRack;
  auto nodeOnRack = [&](int rack) {
    const int first = rack * kRack, last = std::min(w.nodes, first + kRack) - 1;
    return static_cast<int>(rng.uniformInt(first, last));
  };
  const double dayMs = w.hours * 3600'000.0;
  int64_t tasks = 0;
  for (int j = 0; tasks < w.tasks; ++j) {
    TraceJob job;
    job.id = "job_" + std::to_string(j);
    const double q = rng.uniform01() * 100;
    job.queue = q < kRealisticShares[0]                         ? kRealisticQueues[0]
                : q < kRealisticShares[0] + kRealisticShares[1] ? kRealisticQueues[1]
                                                                : kRealisticQueues[2];
    job.user = "user" + std::to_string(j % 97);
    job.amResource = Resource::of(1024, 1);
    double at;
    do {
      at = rng.uniform01() * dayMs;
    } while (rng.uniform01() * 2 > 1 + std::sin(2 * M_PI * (at / dayMs - 0.25)));
    job.startMs = static_cast<int64_t>(at);
    const double u = std::max(rng.uniform01(), 1e-12);
    const int64_t maps =
        std::clamp<int64_t>(static_cast<int64_t>(std::floor(std::pow(u, -1.0 / 0.7))), 1, 20'000);
    const int64_t reduces = maps < 5 ? 0 : std::max<int64_t>(1, maps / 20);
    const int64_t mapMb = 1024 * rng.uniformInt(1, 2);
    for (int64_t m = 0; m < maps; ++m) {
      TraceTask task;
      task.priority = 20;
      task.durationMs = realisticLogNormal(rng, 900'000, 1.0);
      task.resource = Resource::of(mapMb, 1);
      // HDFS default placement: a node anywhere, then two nodes on one other rack.
      const int first = static_cast<int>(rng.uniformInt(0, w.nodes - 1));
      const int firstRack = first / kRack;
      int otherRack = firstRack;
      if (racks > 1) {
        otherRack = static_cast<int>(rng.uniformInt(0, racks - 2));
        if (otherRack >= firstRack) ++otherRack;
      }
      const int second = nodeOnRack(otherRack);
      int third = nodeOnRack(otherRack);
      for (int tries = 0; third == second && tries < 8; ++tries) third = nodeOnRack(otherRack);
      task.host = t.nodes[first].name;
      task.rack = t.nodes[first].rack;
      task.otherHosts = {{t.nodes[second].name, t.nodes[second].rack}};
      if (third != second) task.otherHosts.push_back({t.nodes[third].name, t.nodes[third].rack});
      job.tasks.push_back(std::move(task));
    }
    for (int64_t r = 0; r < reduces; ++r) {
      TraceTask task;
      task.type = TaskType::kReduce;
      task.priority = 10;
      task.durationMs = realisticLogNormal(rng, 1200'000, 0.8);
      task.resource = Resource::of(2048, 1);
      job.tasks.push_back(std::move(task));
    }
    tasks += maps + reduces;
    t.jobs.push_back(std::move(job));
  }
  std::stable_sort(t.jobs.begin(), t.jobs.end(),
                   [](const TraceJob& a, const TraceJob& b) { return a.startMs < b.startMs; });
  return t;
}

// Three Capacity queues at 50/30/20% with a maximum of 100% (user-limit-factor 2 so one user's
// job may grow past its queue's share, as production queues are set up).
inline void realisticCapacityConf(Configuration& conf) {
  conf.set("yarn.resourcemanager.scheduler.class", "capacity");
  conf.set("yarn.scheduler.capacity.root.queues", "prod,dev,adhoc");
  for (int i = 0; i < 3; ++i) {
    const std::string p = std::string("yarn.scheduler.capacity.root.") + kRealisticQueues[i];
    conf.set(p + ".capacity", std::to_string(kRealisticShares[i]));
    conf.set(p + ".maximum-capacity", "100");
    conf.set(p + ".user-limit-factor", "2");
  }
}

// The Fair Scheduler's allocation file for the same queues: weights 5/3/2.
inline std::string realisticFairAllocations() {
  std::string xml = "<?xml version=\"1.0\"?>\n<allocations>\n";
  for (int i = 0; i < 3; ++i) {
    xml += std::string("  <queue name=\"") + kRealisticQueues[i] + "\"><weight>" +
           std::to_string(kRealisticShares[i] / 10) + "</weight></queue>\n";
  }
  return xml + "</allocations>\n";
}

}  // namespace spindle::sim
