// `spindle sls --compare SIMDIR`: the simulator's and the daemon's per-job times side by side,
// from the jobruntime.csv of each run (same trace, simulated ms).
//
//   auto sim = readRuntimes("sim-out/jobruntime.csv");   // spindle sim's
//   auto sls = readRuntimes("sls-out/jobruntime.csv");   // spindle sls's
//   RunComparison c = compareRuns(*sim, *sls);
//   std::cout << formatComparison(c);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace spindle::sls {

// One row of jobruntime.csv: the submission and the end, simulated ms (end empty: unfinished).
struct JobRuntime {
  std::string id;
  std::optional<int64_t> startMs, endMs;
};

Result<std::vector<JobRuntime>> readRuntimes(const std::string& path);

struct JobPair {
  std::string id;
  std::optional<int64_t> simStart, simEnd, slsStart, slsEnd;
  // sls minus sim, when both are known.
  std::optional<int64_t> startDelta() const;
  std::optional<int64_t> endDelta() const;
};

struct RunComparison {
  std::vector<JobPair> jobs;  // the simulator's order, then jobs only the daemon run has
  std::vector<std::string> onlySim, onlySls;
  int64_t simMakespanMs = 0, slsMakespanMs = 0;  // the last end of each run
  int unfinishedSim = 0, unfinishedSls = 0;
  double makespanRatio() const;  // sls / sim; 0 when the simulator's is 0
  // Mean and largest absolute end delta over the jobs both runs finished.
  double meanAbsEndDeltaMs = 0;
  int64_t maxAbsEndDeltaMs = 0;
};

RunComparison compareRuns(const std::vector<JobRuntime>& sim, const std::vector<JobRuntime>& sls);
// A table: job, start and end in both runs, the deltas; then the makespans and their ratio.
std::string formatComparison(const RunComparison& c);

}  // namespace spindle::sls
