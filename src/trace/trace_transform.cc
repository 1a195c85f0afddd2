#include "trace/trace_transform.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "base/rng.h"

namespace spindle {

namespace {

constexpr double kMaxLoadScale = 100;
constexpr int64_t kMaxNodeCount = 1000000;

void scaleLoad(Trace& trace, double scale, uint64_t seed) {
  Rng rng(seed);
  const double whole = std::floor(scale);
  const double extra = scale - whole;
  std::vector<TraceJob> out;
  out.reserve(static_cast<size_t>(static_cast<double>(trace.jobs.size()) * scale) + 1);
  const auto n = static_cast<int64_t>(trace.jobs.size());
  for (const TraceJob& job : trace.jobs) {
    int64_t times = static_cast<int64_t>(whole);
    if (extra > 0 && rng.uniform01() < extra) ++times;
    for (int64_t k = 0; k < times; ++k) {
      TraceJob copy = job;
      if (k > 0) {
        // A further appearance arrives when a job drawn at random from the trace does.
        const int64_t shift =
            trace.jobs[static_cast<size_t>(rng.uniformInt(0, n - 1))].startMs - job.startMs;
        copy.id = fmt::format("{}#{}", job.id, k + 1);
        copy.startMs += shift;
        if (copy.endMs) *copy.endMs += shift;
        if (copy.deadlineMs) *copy.deadlineMs += shift;
      }
      out.push_back(std::move(copy));
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const TraceJob& a, const TraceJob& b) { return a.startMs < b.startMs; });
  trace.jobs = std::move(out);
}

void scaleNodes(Trace& trace, size_t count) {
  if (count <= trace.nodes.size()) {
    trace.nodes.resize(count);
    return;
  }
  std::set<std::string> names;
  for (const TraceNode& n : trace.nodes) names.insert(n.name);
  const size_t original = trace.nodes.size();
  for (size_t i = original, k = 1; trace.nodes.size() < count; ++i) {
    if (i == original * (k + 1)) ++k;
    TraceNode copy = trace.nodes[i % original];
    copy.name = fmt::format("{}-{}", copy.name, k);
    // A copy's name may already be a host of the trace ("h1-1"): take the next free suffix.
    for (int64_t extra = 1; names.contains(copy.name); ++extra) {
      copy.name = fmt::format("{}-{}-{}", trace.nodes[i % original].name, k, extra);
    }
    names.insert(copy.name);
    trace.nodes.push_back(std::move(copy));
  }
}

}  // namespace

Result<std::pair<std::string, std::string>> parseQueueMapping(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    return invalidArgument("--queue-map '{}': expected OLD=NEW with both names given", text);
  }
  return std::pair<std::string, std::string>(std::string(text.substr(0, eq)),
                                             std::string(text.substr(eq + 1)));
}

Status applyTransform(Trace& trace, const TraceTransform& x, uint64_t seed) {
  if (!(x.loadScale > 0) || x.loadScale > kMaxLoadScale) {
    return invalidArgument("--scale-load {}: must be above 0 and at most {}", x.loadScale,
                           kMaxLoadScale);
  }
  if (x.nodeCount && (*x.nodeCount < 1 || *x.nodeCount > kMaxNodeCount)) {
    return invalidArgument("--scale-nodes {}: must be between 1 and {}", *x.nodeCount,
                           kMaxNodeCount);
  }
  if (x.nodeCount && trace.nodes.empty()) {
    return invalidArgument("--scale-nodes {}: the trace has no nodes to scale", *x.nodeCount);
  }
  if (!x.queueMap.empty()) {
    for (TraceJob& j : trace.jobs) {
      auto it = x.queueMap.find(j.queue);
      if (it != x.queueMap.end()) j.queue = it->second;
    }
  }
  if (x.loadScale != 1.0) scaleLoad(trace, x.loadScale, seed);
  if (x.nodeCount) scaleNodes(trace, static_cast<size_t>(*x.nodeCount));
  return Status::ok();
}

}  // namespace spindle
