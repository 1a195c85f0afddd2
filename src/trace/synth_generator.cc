#include "trace/synth_generator.h"

#include <algorithm>
#include <cmath>

#include "trace/job_policy.h"
#include "trace/json_stream.h"
#include "trace/nodes_reader.h"

namespace spindle {
namespace {

// Index drawn with probability weights[i] / sum (one uniform01 draw; zero weights never win).
size_t weightedPick(const std::vector<double>& weights, Rng& rng) {
  double total = 0;
  for (double w : weights) total += w;
  const double r = rng.uniform01() * total;
  double cum = 0;
  size_t lastPositive = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0) continue;
    cum += weights[i];
    lastPositive = i;
    if (r < cum) return i;
  }
  return lastPositive;  // rounding left r at the very top
}

// The weights of every weighted choice in a spec, gathered once.
struct WeightTables {
  std::vector<double> workloads;
  std::vector<std::vector<double>> classes;  // per workload
  std::vector<std::vector<double>> buckets;  // per workload: time_distribution

  explicit WeightTables(const SynthSpec& spec) {
    for (const SynthWorkload& w : spec.workloads) {
      workloads.push_back(w.weight);
      classes.emplace_back();
      for (const SynthJobClass& c : w.classes) classes.back().push_back(c.weight);
      buckets.emplace_back();
      for (const SynthTimeBucket& b : w.timeDistribution) buckets.back().push_back(b.weight);
    }
  }
};

// A start time in seconds from the workload's buckets (one pick and one uniform draw).
double drawStartSec(const SynthWorkload& w, const std::vector<double>& bucketWeights, Rng& rng) {
  const auto& b = w.timeDistribution;
  const size_t i = weightedPick(bucketWeights, rng);
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
    case SynthSample::Dist::kConstant: return s.val;
    case SynthSample::Dist::kNormal: return rng.normal(s.val, s.std);
    case SynthSample::Dist::kLogNormal: {
      // Mean val and standard deviation std of the log-normal itself (SynthUtils'
      // getLogNormalDist): sigma^2 = ln(1 + std^2 / val^2), mu = ln(val) - sigma^2 / 2.
      const double sigma2 = std::log1p((s.std * s.std) / (s.val * s.val));
      return rng.logNormal(std::log(s.val) - sigma2 / 2, std::sqrt(sigma2));
    }
    case SynthSample::Dist::kDiscrete: {
      return s.discrete[weightedPick(s.weights, rng)];
    }
  }
  return s.val;
}

namespace {

// A drawn time beyond kMaxTraceTimeMs (trace.h) is refused: the simulator's sums of times must
// not overflow.
Status checkDrawnTime(std::string_view what, int64_t ms) {
  if (ms <= kMaxTraceTimeMs) return Status::ok();
  return invalidArgument("a drawn {} of {} ms is beyond the largest time a trace may give ({} ms)",
                         what, ms, kMaxTraceTimeMs);
}

// Step 3.6 of the algorithm: one task group's containers, appended to job.tasks.
Status drawTasks(const SynthTaskSpec& t, const std::vector<TraceNode>& nodes,
                 const TraceReadOptions& options, Rng& rng, TraceJob& job) {
  const int64_t count = roundNonNegative(drawSample(t.count, rng));
  const int64_t room = options.sls.maxContainersPerJob - static_cast<int64_t>(job.tasks.size());
  if (count > room) {
    return invalidArgument(
        "{} drawn containers take the job beyond spindle.sls.max-containers-per-job ({})",
        count + static_cast<int64_t>(job.tasks.size()), options.sls.maxContainersPerJob);
  }
  Resource r = options.sls.containerResource;
  if (t.maxMemory.given) {
    r.setMemoryMb(std::max<int64_t>(1, roundNonNegative(drawSample(t.maxMemory, rng))));
  }
  if (t.maxVcores.given) {
    r.setVcores(std::max<int64_t>(1, roundNonNegative(drawSample(t.maxVcores, rng))));
  }
  const int64_t lastNode = static_cast<int64_t>(nodes.size()) - 1;
  for (int64_t k = 0; k < count; ++k) {
    TraceTask task;
    task.type = t.type;
    task.priority = t.priority;
    task.executionType = t.executionType;
    task.resource = r;
    task.durationMs = std::max<int64_t>(1, secondsToMs(drawSample(t.timeSec, rng)));
    SPINDLE_RETURN_IF_ERROR(checkDrawnTime("task duration", task.durationMs));
    const TraceNode& node = nodes[static_cast<size_t>(rng.uniformInt(0, lastNode))];
    task.host = node.name;
    task.rack = node.rack;
    job.tasks.push_back(std::move(task));
  }
  return Status::ok();
}

// Steps 3.3 to 3.6 for one job of workload w and class c (id and order come later).
Result<TraceJob> drawJob(const SynthWorkload& w, const std::vector<double>& bucketWeights,
                         const SynthJobClass& c, const std::vector<TraceNode>& nodes,
                         const TraceReadOptions& options, Rng& rng) {
  TraceJob job;
  job.queue = w.queue;
  job.user = c.user;
  job.amType = c.amType;
  job.amResource = options.sls.amResource;
  job.startMs = secondsToMs(drawStartSec(w, bucketWeights, rng));
  SPINDLE_RETURN_IF_ERROR(checkDrawnTime("start", job.startMs));
  if (c.durationSec.given) {
    const int64_t durMs = std::max<int64_t>(1, secondsToMs(drawSample(c.durationSec, rng)));
    SPINDLE_RETURN_IF_ERROR(checkDrawnTime("job duration", durMs));
    job.endMs = job.startMs + durMs;
  }
  const double chance = drawSample(c.reservation, rng);
  const bool coin = rng.uniform01() < chance;
  const double factor = drawSample(c.deadlineFactor, rng);
  if (coin && job.endMs) {
    job.wantsReservation = true;
    const double durMs = static_cast<double>(*job.endMs - job.startMs);
    const double late = std::ceil(std::max(0.0, factor) * durMs);
    if (!(late <= static_cast<double>(kMaxTraceTimeMs))) {
      return invalidArgument("a drawn deadline_factor of {} puts the deadline beyond {} ms", factor,
                             kMaxTraceTimeMs);
    }
    job.deadlineMs = job.startMs + static_cast<int64_t>(late);
  }
  for (const SynthTaskSpec& t : c.tasks) {
    SPINDLE_RETURN_IF_ERROR(drawTasks(t, nodes, options, rng, job));
  }
  return job;
}

}  // namespace

Result<Trace> generateSynthTrace(const SynthSpec& spec, const std::vector<TraceNode>& nodes,
                                 uint64_t seed, const TraceReadOptions& options,
                                 std::string_view source) {
  if (nodes.empty()) {
    return invalidArgument("{}: no nodes to place SYNTH tasks on (num_nodes is 0 and no --nodes)",
                           source);
  }
  Rng rng(seed);
  const WeightTables weights(spec);
  std::vector<TraceJob> drawn;
  std::vector<size_t> workloadOf;
  if (spec.numJobs > options.sls.maxContainers) {
    return invalidArgument("{}: field num_jobs: {} jobs exceed spindle.sls.max-containers ({})",
                           source, spec.numJobs, options.sls.maxContainers);
  }
  int64_t containers = 0;
  for (int64_t n = 0; n < spec.numJobs; ++n) {
    const size_t wi = weightedPick(weights.workloads, rng);
    const SynthWorkload& w = spec.workloads[wi];
    const size_t ci = weightedPick(weights.classes[wi], rng);
    const SynthJobClass& c = w.classes[ci];
    Result<TraceJob> job = drawJob(w, weights.buckets[wi], c, nodes, options, rng);
    if (!job) {
      return job.status().withContext(
          fmt::format("{}: drawn job #{} (workloads[{}].job_classes[{}])", source, n + 1, wi, ci));
    }
    containers += 1 + static_cast<int64_t>(job->tasks.size());
    if (containers > options.sls.maxContainers) {
      return invalidArgument(
          "{}: drawn job #{} (workloads[{}].job_classes[{}]) takes the trace beyond "
          "spindle.sls.max-containers ({})",
          source, n + 1, wi, ci, options.sls.maxContainers);
    }
    drawn.push_back(std::move(job).value());
    workloadOf.push_back(wi);
  }
  // Step 4: submission order, then names; step 5: the queue check.
  std::vector<size_t> order(drawn.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return drawn[a].startMs < drawn[b].startMs; });
  Trace trace;
  trace.jobs.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    TraceJob& job = drawn[order[i]];
    job.id = fmt::format("job_{}", i + 1);
    Status queueOk = checkKnownQueue(job.queue, options,
                                     fmt::format("workloads[{}].queue_name", workloadOf[order[i]]));
    if (!queueOk.isOk()) {
      SPINDLE_RETURN_IF_ERROR(handleBadJob(
          queueOk.withContext(fmt::format("{}: job #{} (id {})", source, i + 1, job.id)), options,
          trace));
      continue;
    }
    trace.jobs.push_back(std::move(job));
  }
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
    SPINDLE_ASSIGN_OR_RETURN(
        nodes, readNodesFile(options.nodesFile, options.types, options.sls.nodeResource));
  } else {
    if (spec.numNodes > options.sls.maxNodes) {
      return invalidArgument("{}: field num_nodes: {} nodes exceed spindle.sls.max-nodes ({})",
                             files[0], spec.numNodes, options.sls.maxNodes);
    }
    nodes = generateNodes(spec.numNodes, std::max<int64_t>(1, spec.numNodes / spec.nodesPerRack),
                          options.sls.nodeResource);
  }
  const uint64_t seed = options.seedGiven || !spec.randSeed ? options.seed : *spec.randSeed;
  return generateSynthTrace(spec, nodes, seed, options, files[0]);
}

}  // namespace spindle
