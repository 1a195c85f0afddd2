// The SYNTH workload generator (--tracetype SYNTH): a JSON spec of workloads and job classes
// from which a seeded generator draws jobs, after SLS's SynthTraceJobProducer (the Hadoop
// SLS docs, 'SYNTH JSON input file format'). The exact algorithm, every key and its unit are in
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
#include "trace/synth_spec.h"
#include "trace/trace.h"

namespace spindle {

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
