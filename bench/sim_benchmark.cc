// Macro benchmark of the replay engine (`spindle sim`'s core): a SYNTH-style day-long workload,
// generated in memory from a seed, replayed with the FIFO scheduler.
//
//   spindle_sim_bench                 # 1,000 and 10,000 nodes
//   spindle_sim_bench 50000           # one size
//   spindle_sim_bench 10000 --hours 2 --naive   # shorter day; every NM heartbeat processed
//   spindle_sim_bench 1000 --scheduler capacity # the same workload on another scheduler
//   spindle_sim_bench --realistic --scheduler capacity   # realistic_workload.h, 10,000 nodes
//   spindle_sim_bench --realistic --scheduler fair --tasks 300000 --hours 6
//
// Workload (per cluster of N nodes of 10240 MB / 10 vcores, 40 nodes per rack): 100 x N task
// containers in MapReduce jobs submitted over 24 simulated hours with a diurnal rate (peak at
// midday twice the mean); maps per job LogNormal(mean 50), reduces LogNormal(mean 5), map time
// LogNormal(mean 40 min), reduce time LogNormal(mean 20 min), each map preferring a random host.
// Prints wall time, simulated/real ratio, events/s, allocations/s and peak RSS (getrusage).
// After the run (outside the measured time) the scheduler's invariant checker runs once; a
// failure is printed and the benchmark exits with status 1.
// --realistic replays realistic_workload.h instead (a heavy-tailed day of MapReduce on 10,000
// nodes, each map asking for its block's three hosts, three queues) under Capacity or Fair; the
// figure to watch is CPU seconds per simulated day (target: at most 60, 1,440x real time).
// Not part of the test run; numbers go to bench/README.md.
#include <sys/resource.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/rng.h"
#include "realistic_workload.h"
#include "sim/engine.h"

namespace spindle::sim {
namespace {

int64_t logNormal(Rng& rng, double mean, double sigma) {
  // exp(N(mu, sigma)) has mean exp(mu + sigma^2 / 2).
  const double mu = std::log(mean) - sigma * sigma / 2;
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(rng.logNormal(mu, sigma))));
}

Trace dayLongWorkload(int nodes, double hours, uint64_t seed) {
  Rng rng(seed);
  Trace t;
  for (int i = 0; i < nodes; ++i) {
    t.nodes.push_back(TraceNode{
        "node" + std::to_string(i), "/rack" + std::to_string(i / 40), Resource::of(10240, 10), {}});
  }
  const int64_t targetContainers = static_cast<int64_t>(100.0 * nodes * hours / 24.0);
  const double dayMs = hours * 3600'000.0;
  int64_t containers = 0;
  for (int j = 0; containers < targetContainers; ++j) {
    TraceJob job;
    job.id = "job_" + std::to_string(j);
    job.queue = "default";
    job.user = "user" + std::to_string(j % 17);
    job.amResource = Resource::of(1024, 1);
    // Diurnal: accept a uniform time with probability (1 + sin) / 2 -> peak mid-day.
    double at;
    do {
      at = rng.uniform01() * dayMs;
    } while (rng.uniform01() * 2 > 1 + std::sin(2 * M_PI * (at / dayMs - 0.25)));
    job.startMs = static_cast<int64_t>(at);
    const int64_t maps = logNormal(rng, 50, 1.0), reduces = logNormal(rng, 5, 0.8);
    const int64_t mapMb = 1024 * rng.uniformInt(1, 2);
    for (int64_t m = 0; m < maps; ++m) {
      TraceTask task;
      task.priority = 20;
      task.durationMs = logNormal(rng, 2400'000, 0.8);
      task.resource = Resource::of(mapMb, 1);
      const int64_t host = rng.uniformInt(0, nodes - 1);
      task.host = t.nodes[host].name;
      task.rack = t.nodes[host].rack;
      job.tasks.push_back(std::move(task));
    }
    for (int64_t r = 0; r < reduces; ++r) {
      TraceTask task;
      task.type = TaskType::kReduce;
      task.priority = 10;
      task.durationMs = logNormal(rng, 1200'000, 0.6);
      task.resource = Resource::of(2048, 1);
      job.tasks.push_back(std::move(task));
    }
    containers += maps + reduces;
    t.jobs.push_back(std::move(job));
  }
  std::stable_sort(t.jobs.begin(), t.jobs.end(),
                   [](const TraceJob& a, const TraceJob& b) { return a.startMs < b.startMs; });
  return t;
}

double cpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

double peakRssMb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KB on Linux
}

struct BenchOptions {
  double hours = 24;
  bool naive = false;
  std::string scheduler = "fifo";
  bool realistic = false;
  int64_t tasks = 1'200'000;  // --realistic only
};

int runOne(int nodes, const BenchOptions& b) {
  const double hours = b.hours;
  const bool naive = b.naive;
  const std::string& scheduler = b.scheduler;
  const auto genStart = std::chrono::steady_clock::now();
  Trace trace = b.realistic ? realisticWorkload({nodes, hours, b.tasks}, 42)
                            : dayLongWorkload(nodes, hours, 42);
  int64_t tasks = 0;
  for (const TraceJob& j : trace.jobs) tasks += static_cast<int64_t>(j.tasks.size());
  const double genS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - genStart).count();
  EngineOptions opt;
  opt.sls.nodeResource = Resource::of(10240, 10);
  opt.sls.amResource = Resource::of(1024, 1);
  opt.sls.containerResource = Resource::of(1024, 1);
  opt.seed = 42;
  opt.timings = false;
  opt.heartbeatSkip = !naive;
  opt.conf.set("yarn.resourcemanager.scheduler.class", scheduler);
  std::string allocations;  // the Fair Scheduler's allocation file of --realistic, removed after
  if (b.realistic && scheduler == "capacity") realisticCapacityConf(opt.conf);
  if (b.realistic && scheduler == "fair") {
    allocations = (std::filesystem::temp_directory_path() /
                   ("spindle-sim-bench-" + std::to_string(::getpid()) + ".xml"))
                      .string();
    std::ofstream(allocations) << realisticFairAllocations();
    opt.conf.set("yarn.scheduler.fair.allocation.file", allocations);
  }
  const double cpuStart = cpuSeconds();
  auto engine = Engine::create(trace, opt);
  if (!engine) {
    std::fprintf(stderr, "error: %s\n", engine.status().message().c_str());
    return 2;
  }
  Status s = (*engine)->run();
  if (!allocations.empty()) std::filesystem::remove(allocations);
  if (!s.isOk()) {
    std::fprintf(stderr, "error: %s\n", s.message().c_str());
    return 1;
  }
  const double cpu = cpuSeconds() - cpuStart;
  // The scheduler's invariants once at the end (untimed): every cache against a recomputation.
  if (Status inv = (*engine)->scheduler().checkInvariants(); !inv.isOk()) {
    std::fprintf(stderr, "error: checkInvariants failed at the end of the run: %s\n",
                 inv.message().c_str());
    return 1;
  }
  const RunStats& st = (*engine)->stats();
  int finished = 0;
  for (const JobResult& j : (*engine)->jobs()) finished += j.state == "FINISHED" ? 1 : 0;
  const double wall = st.wallSeconds;
  const double simS = static_cast<double>(st.endMs) / 1000.0;
  const int64_t slots = static_cast<int64_t>(simS / 1.0) * nodes;  // NM heartbeat slots
  std::printf(
      "nodes %d  jobs %zu (finished %d)  task containers %lld  makespan %.0f s\n"
      "  generate %.2f s  run %.2f s wall (%.2f s CPU)  sim/real %.0fx\n"
      "  timed events %lld (%.2f M/s)  NM heartbeats processed %lld, skipped %lld, of ~%lld slots\n"
      "  allocations %lld (%.0f /s)  decisions %lld  peak RSS %.0f MB  scheduler %s%s%s\n"
      "  CPU per simulated day %.1f s  sim/CPU %.0fx\n",
      nodes, trace.jobs.size(), finished, static_cast<long long>(tasks), simS, genS, wall, cpu,
      simS / wall, static_cast<long long>(st.heapEvents),
      static_cast<double>(st.heapEvents + st.heartbeats) / wall / 1e6,
      static_cast<long long>(st.heartbeats), static_cast<long long>(st.heartbeatsSkipped),
      static_cast<long long>(slots), static_cast<long long>(st.allocations),
      static_cast<double>(st.allocations) / wall, static_cast<long long>(st.decisions), peakRssMb(),
      scheduler.c_str(), naive ? "  (naive: no heartbeat skip)" : "",
      b.realistic ? "  workload realistic" : "", cpu * 86400.0 / std::max(simS, 1.0),
      simS / std::max(cpu, 1e-9));
  std::fflush(stdout);
  return 0;
}

}  // namespace
}  // namespace spindle::sim

int main(int argc, char** argv) {
  std::vector<int> sizes;
  spindle::sim::BenchOptions
      b;  // scheduler fifo: the synthetic benchmark's; --scheduler to compare
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--hours") == 0 && i + 1 < argc) {
      b.hours = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--scheduler") == 0 && i + 1 < argc) {
      b.scheduler = argv[++i];
    } else if (std::strcmp(argv[i], "--tasks") == 0 && i + 1 < argc) {
      b.tasks = std::atoll(argv[++i]);
    } else if (std::strcmp(argv[i], "--naive") == 0) {
      b.naive = true;
    } else if (std::strcmp(argv[i], "--realistic") == 0) {
      b.realistic = true;
    } else {
      sizes.push_back(std::atoi(argv[i]));
    }
  }
  if (sizes.empty()) sizes = b.realistic ? std::vector<int>{10000} : std::vector<int>{1000, 10000};
  for (int n : sizes) {
    if (int rc = spindle::sim::runOne(n, b); rc != 0) return rc;
  }
  return 0;
}
