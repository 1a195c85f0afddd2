// `spindle conf explain`: the queue tree a configuration resolves to, each value with where it
// came from, and the difference between two configurations.
//
//   SPINDLE_ASSIGN_OR_RETURN(Explanation e, explainConfiguration(conf, Resource::of(102400, 100)));
//   std::cout << explanationText(e);
//   for (const std::string& line : compareExplanations(a, b)) std::cout << line << '\n';
//
// The scheduler is built from the configuration exactly as the simulator and the daemon build it,
// on a cluster of the given size (percentages resolve to resources against it), and read back
// through its REST view, so what is explained is what runs: YARN's resolution of capacities,
// user limits, AM limits and ordering policies, not a re-reading of the files.
//
// Sources: the file and line of the property that set a value (`capacity-scheduler.xml:14`),
// `inherited from <key>` when a scheduler-wide key set it, `default` when nothing did, or
// `derived` for figures computed from others (absolute capacities, resources, per-user limits).
// The Fair Scheduler's values come from the allocation file, named as the source.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "config/configuration.h"
#include "resource/resource.h"

namespace spindle::whatif {

struct ExplainedValue {
  std::string name;    // e.g. "capacity %"
  std::string value;   // as the REST view gives it, e.g. "40.0", "<memory:40960, vCores:40>"
  std::string source;  // "capacity-scheduler.xml:14", "default", "derived", ...
};

struct ExplainedQueue {
  std::string path;  // root.a.b
  std::vector<ExplainedValue> values;
};

struct Explanation {
  std::string scheduler;  // capacity, fair, fifo
  Resource cluster;
  std::vector<ExplainedValue> settings;  // scheduler-wide: preemption and monitor settings
  std::vector<ExplainedQueue> queues;    // pre-order
};

// Builds the scheduler on one node of `cluster`'s size and explains it. A configuration the
// scheduler refuses is returned as its error (file, line and property named).
Result<Explanation> explainConfiguration(const Configuration& conf, const Resource& cluster);

std::string explanationText(const Explanation& e);
nlohmann::json explanationJson(const Explanation& e);

// The differences of `b` against `a`, one line per changed value ("root.a capacity %: 40.0
// (capacity-scheduler.xml:14) -> 30.0 (capacity-scheduler.xml:14)"), queues only in one side,
// settings; empty when both resolve to the same values.
std::vector<std::string> compareExplanations(const Explanation& a, const Explanation& b);

}  // namespace spindle::whatif
