// The SYNTH workload generator (--tracetype SYNTH): a JSON spec of workloads and job classes
// from which a seeded generator draws jobs, after SLS's SynthTraceJobProducer (reference
// sls-simulator.md §6). The exact algorithm, every key and its unit are in
// docs/trace-formats.md; in short:
//
//   SynthSpec spec = parseSynthSpec(text, "syn.json", opt).value();
//   Trace t = generateSynthTrace(spec, nodes, /*seed=*/2, opt, "syn.json").value();
//
//  1. One Rng(seed) drives everything; seed = rand_seed unless options.seedGiven.
//  2. For each of num_jobs jobs, in this order: pick a workload by workload_weight, a job class
//     by class_weight, a time_distribution bucket by weight and a uniform time in it; draw the
//     duration, the reservation coin and the deadline factor; then per task group the count,
//     memory and vcores, and per task its time and a uniformly chosen preferred node.
//  3. A value {val, std} is constant when std is 0 or absent, else LogNormal with that mean and
//     standard deviation; {discrete, weights} is a weighted choice.
//  4. Jobs are sorted by start time (stable) and named job_1 .. job_N in that order.
// The same spec, nodes and seed give the same trace on every platform (Rng is portable).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/rng.h"
#include "base/status.h"
#include "trace/readers.h"
#include "trace/trace.h"

namespace spindle {

// A random value: a constant, LogNormal(mean val, stddev std), Normal(val, std) or a weighted
// choice among `discrete` values (SynthTraceJobProducer.Sample).
struct SynthSample {
  enum class Dist { kConstant, kLogNormal, kNormal, kDiscrete };
  Dist dist = Dist::kConstant;
  double val = 0;
  double std = 0;
  std::vector<double> discrete;
  std::vector<double> weights;
  bool given = false;  // false: the key was absent (the caller's default applies)
};

struct SynthTaskSpec {
  TaskType type = TaskType::kMap;
  int32_t priority = 20;
  ExecutionType executionType = ExecutionType::kGuaranteed;
  SynthSample count;      // tasks of this group per job
  SynthSample timeSec;    // each task's duration, seconds
  SynthSample maxMemory;  // MB per task (absent: yarn.sls.container.memory.mb)
  SynthSample maxVcores;  // vcores per task (absent: yarn.sls.container.vcores)
};

struct SynthJobClass {
  std::string name;
  double weight = 1;
  std::string user = "default";
  std::string amType = "mapreduce";
  SynthSample durationSec;     // the job's expected length, seconds (reports and deadline)
  SynthSample reservation;     // chance in [0, 1] that the job asks for a reservation
  SynthSample deadlineFactor;  // deadline = start + factor x duration
  std::vector<SynthTaskSpec> tasks;
};

struct SynthTimeBucket {
  double timeSec = 0;
  double weight = 0;
};

struct SynthWorkload {
  std::string name;
  double weight = 1;
  std::string queue;
  std::vector<SynthJobClass> classes;
  std::vector<SynthTimeBucket> timeDistribution;  // sorted by time
};

struct SynthSpec {
  std::string description;
  int64_t numNodes = 0;
  int64_t nodesPerRack = 1;
  int64_t numJobs = 0;
  std::optional<uint64_t> randSeed;
  std::vector<SynthWorkload> workloads;
};

// Parses and validates a spec; errors name the file and the JSON path ("workloads[0].
// job_classes[1].mtasks_avg: ...").
Result<SynthSpec> parseSynthSpec(std::string_view text, std::string_view source,
                                 const TraceReadOptions& options);

// One draw of `s` (rule 3).
double drawSample(const SynthSample& s, Rng& rng);

// Generates the jobs on `nodes` (hosts are drawn from them). Jobs whose queue is not in
// options.knownQueues are bad jobs (fail, or skipped and counted).
Result<Trace> generateSynthTrace(const SynthSpec& spec, const std::vector<TraceNode>& nodes,
                                 uint64_t seed, const TraceReadOptions& options,
                                 std::string_view source);

// Reads the one spec file and generates its trace; nodes come from options.nodesFile when set,
// else num_nodes / nodes_per_rack (generateNodes in nodes_reader.h).
Result<Trace> readSynthTrace(const std::vector<std::string>& files,
                             const TraceReadOptions& options);

}  // namespace spindle
