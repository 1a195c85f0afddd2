// Load and cluster knobs applied to a trace after it is read (`spindle sim` and `spindle whatif`
// options --queue-map, --scale-load, --scale-nodes), identically in every run of a comparison.
//
//   TraceTransform x;
//   x.queueMap["prod"] = "root.production";
//   x.loadScale = 1.5;     // half as many jobs again
//   x.nodeCount = 20000;   // the cluster's nodes, cycled or cut
//   SPINDLE_RETURN_IF_ERROR(applyTransform(trace, x, seed));
//
// Rules (docs/trace-formats.md, "Load and cluster knobs"):
// - Queue map: a job whose queue is exactly `old` runs in `new`; other jobs are untouched.
// - Load scale F > 0: each job appears floor(F) times, plus once more with probability
//   F - floor(F) (a seeded draw per job, in trace order). The first appearance is the job itself;
//   each further one is a copy with id "<id>#<n>" submitted at the submission time of a job drawn
//   at random from the trace (the arrival pattern is kept, not the job's own time); its tasks are
//   the same (task times are relative to the job's start), and its reported end and deadline move
//   with it. So F = 0.5 keeps about half the jobs, F = 2 doubles them.
// - Node count N > 0: the first N nodes when the trace has more; otherwise every node, then copies
//   named "<host>-<k>" on the same rack with the same resources, labels and attributes, cycling
//   until there are N.
// The jobs are re-sorted by submission time (stable). Same trace, transform and seed: same result.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/status.h"
#include "trace/trace.h"

namespace spindle {

struct TraceTransform {
  std::map<std::string, std::string> queueMap;
  double loadScale = 1.0;
  std::optional<int64_t> nodeCount;

  bool empty() const { return queueMap.empty() && loadScale == 1.0 && !nodeCount; }
};

// "old=new" as --queue-map takes it; both sides non-empty.
Result<std::pair<std::string, std::string>> parseQueueMapping(std::string_view text);

// Validates the knobs (loadScale > 0 and at most 100, nodeCount in [1, 1000000], a node count
// asked of a trace without nodes) and applies them.
Status applyTransform(Trace& trace, const TraceTransform& transform, uint64_t seed);

}  // namespace spindle
