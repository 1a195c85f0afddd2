#include "trace/synth_generator.h"

#include <algorithm>
#include <cmath>

#include "trace/job_policy.h"
#include "trace/json_stream.h"
#include "trace/nodes_reader.h"

namespace spindle {
namespace {

// Index drawn with probability weight[i] / sum (one uniform01 draw).
template <typename Weight>
size_t weightedPick(size_t n, Weight weightOf, Rng& rng) {
  double total = 0;
  for (size_t i = 0; i < n; ++i) total += weightOf(i);
  const double r = rng.uniform01() * total;
  double cum = 0;
  size_t lastPositive = 0;
  for (size_t i = 0; i < n; ++i) {
    if (weightOf(i) <= 0) continue;
    cum += weightOf(i);
    lastPositive = i;
    if (r < cum) return i;
  }
  return lastPositive;  // rounding left r at the very top
}

// A start time in seconds from the workload's buckets (one pick and one uniform draw).
double drawStartSec(const SynthWorkload& w, Rng& rng) {
  const auto& b = w.timeDistribution;
  size_t i = weightedPick(b.size(), [&](size_t k) { return b[k].weight; }, rng);
  const double u = rng.uniform01();
  if (i + 1 >= b.size()) return b[i].timeSec;
  return b[i].timeSec + u * (b[i + 1].timeSec - b[i].timeSec);
}

int64_t roundNonNegative(double v) {
  if (!(v > 0)) return 0;
  if (v > 9.0e18) return INT64_MAX;
  return std::llround(v);
}

int64_t secondsToMs(double sec) { return roundNonNegative(sec * 1000.0); }

}  // namespace

double drawSample(const SynthSample& s, Rng& rng) {
  switch (s.dist) {
    case SynthSample::Dist::kConstant:
      return s.val;
    case SynthSample::Dist::kNormal:
      return rng.normal(s.val, s.std);
    case SynthSample::Dist::kLogNormal: {
      // Mean val and standard deviation std of the log-normal itself (SynthUtils'
      // getLogNormalDist): sigma^2 = ln(1 + std^2 / val^2), mu = ln(val) - sigma^2 / 2.
      const double sigma2 = std::log1p((s.std * s.std) / (s.val * s.val));
      return rng.logNormal(std::log(s.val) - sigma2 / 2, std::sqrt(sigma2));
    }
    case SynthSample::Dist::kDiscrete: {
      size_t i = weightedPick(s.weights.size(), [&](size_t k) { return s.weights[k]; }, rng);
      return s.discrete[i];
    }
  }
  return s.val;
}

Result<Trace> generateSynthTrace(const SynthSpec& spec, const std::vector<TraceNode>& nodes,
                                 uint64_t seed, const TraceReadOptions& options,
                                 std::string_view source) {
  if (nodes.empty()) {
    return invalidArgument("{}: no nodes to place SYNTH tasks on (num_nodes is 0 and no --nodes)",
                           source);
  }
  Rng rng(seed);
  Trace trace;
  std::vector<size_t> workloadOf;
  for (int64_t n = 0; n < spec.numJobs; ++n) {
    const size_t wi = weightedPick(spec.workloads.size(),
                                   [&](size_t k) { return spec.workloads[k].weight; }, rng);
    const SynthWorkload& w = spec.workloads[wi];
    const SynthJobClass& c =
        w.classes[weightedPick(w.classes.size(), [&](size_t k) { return w.classes[k].weight; }, rng)];
    TraceJob job;
    job.queue = w.queue;
    job.user = c.user;
    job.amType = c.amType;
    job.amResource = options.sls.amResource;
    job.startMs = secondsToMs(drawStartSec(w, rng));
    if (c.durationSec.given) {
      const int64_t durMs = std::max<int64_t>(1, secondsToMs(drawSample(c.durationSec, rng)));
      job.endMs = job.startMs + durMs;
    }
    const double chance = drawSample(c.reservation, rng);
    const bool coin = rng.uniform01() < chance;
    const double factor = drawSample(c.deadlineFactor, rng);
    if (coin && job.endMs) {
      job.wantsReservation = true;
      const int64_t durMs = *job.endMs - job.startMs;
      job.deadlineMs = job.startMs + static_cast<int64_t>(std::ceil(std::max(0.0, factor) *
                                                                    static_cast<double>(durMs)));
    }
    for (const SynthTaskSpec& t : c.tasks) {
      const int64_t count = roundNonNegative(drawSample(t.count, rng));
      Resource r = options.sls.containerResource;
      if (t.maxMemory.given) r.setMemoryMb(std::max<int64_t>(1, roundNonNegative(drawSample(t.maxMemory, rng))));
      if (t.maxVcores.given) r.setVcores(std::max<int64_t>(1, roundNonNegative(drawSample(t.maxVcores, rng))));
      for (int64_t k = 0; k < count; ++k) {
        TraceTask task;
        task.type = t.type;
        task.priority = t.priority;
        task.executionType = t.executionType;
        task.resource = r;
        task.durationMs = std::max<int64_t>(1, secondsToMs(drawSample(t.timeSec, rng)));
        const TraceNode& node =
            nodes[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(nodes.size()) - 1))];
        task.host = node.name;
        task.rack = node.rack;
        job.tasks.push_back(std::move(task));
      }
    }
    trace.jobs.push_back(std::move(job));
    workloadOf.push_back(wi);
  }
  // Rule 4: submission order, then names.
  std::vector<size_t> order(trace.jobs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return trace.jobs[a].startMs < trace.jobs[b].startMs;
  });
  std::vector<TraceJob> sorted;
  sorted.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    TraceJob& job = trace.jobs[order[i]];
    job.id = fmt::format("job_{}", i + 1);
    Status queueOk = checkKnownQueue(
        job.queue, options, fmt::format("workloads[{}].queue_name", workloadOf[order[i]]));
    if (!queueOk.isOk()) {
      SPINDLE_RETURN_IF_ERROR(handleBadJob(
          queueOk.withContext(fmt::format("{}: job #{} (id {})", source, i + 1, job.id)), options,
          trace));
      continue;
    }
    sorted.push_back(std::move(job));
  }
  trace.jobs = std::move(sorted);
  trace.nodes = nodes;
  return trace;
}

Result<Trace> readSynthTrace(const std::vector<std::string>& files,
                             const TraceReadOptions& options) {
  if (files.size() != 1) {
    return invalidArgument("SYNTH takes exactly one workload file, got {}", files.size());
  }
  Result<std::string> text = readTextFile(files[0]);
  if (!text) return text.status();
  SPINDLE_ASSIGN_OR_RETURN(SynthSpec spec, parseSynthSpec(*text, files[0], options));
  std::vector<TraceNode> nodes;
  if (!options.nodesFile.empty()) {
    SPINDLE_ASSIGN_OR_RETURN(nodes, readNodesFile(options.nodesFile, options.types,
                                                  options.sls.nodeResource));
  } else {
    nodes = generateNodes(spec.numNodes, std::max<int64_t>(1, spec.numNodes / spec.nodesPerRack),
                          options.sls.nodeResource);
  }
  const uint64_t seed = options.seedGiven || !spec.randSeed ? options.seed : *spec.randSeed;
  return generateSynthTrace(spec, nodes, seed, options, files[0]);
}

}  // namespace spindle
