// What `spindle sim` writes into --output-dir and says at the end of a run: the output folder's
// reuse rule (--overwrite), the end-of-run summary on stderr and --fail-on-rejected.
//
//   SPINDLE_RETURN_IF_ERROR(prepareOutputDir(dir, overwrite));    // refuses a non-empty folder
//   ...run...
//   std::cerr << runSummary(jobs, stats, dir, written, reportNote);
//
// prepareOutputDir removes only the files Spindle writes (kSimOutputFiles, and the *.csv files in
// metrics/), so an --output-dir that holds other files keeps them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/engine.h"

namespace spindle::cli {

// The files `spindle sim` may write at the top of --output-dir (metrics/ aside).
extern const std::vector<std::string> kSimOutputFiles;

// Creates `dir` if missing. A folder holding anything is refused unless `overwrite`; then the
// files Spindle writes are removed first (others are kept).
Status prepareOutputDir(const std::string& dir, bool overwrite);

// The few lines printed to stderr at the end of a run: jobs finished / failed / killed /
// rejected (with the most common reasons), unfinished, makespan, wall time, and where the
// outputs are. `written` lists the outputs of this run, `noReport` says why there is no
// report.html ("" when there is one).
std::string runSummary(const std::vector<sim::JobResult>& jobs, const sim::RunStats& stats,
                       const std::string& dir, const std::vector<std::string>& written,
                       const std::string& noReport);

// What ran, for run.json and the report's Run table.
struct RunInfo {
  std::string scheduler;      // the scheduler's class, e.g. "CapacityScheduler"
  std::string configuration;  // --conf folder ("" = the built-in defaults)
  std::string trace;          // --tracelocation
  std::string traceType;      // SLS, RUMEN or SYNTH
  std::string nodes;          // --nodes, "" when none
  uint64_t seed = 1;
};

// run.json: RunInfo, the version, and the container totals of `stats` (allocated, am,
// completed, released, killed, preempted, running_at_end: allocated = completed + released +
// killed + running_at_end).
Status writeRunJson(const std::string& path, const RunInfo& info, const sim::RunStats& stats);

// Jobs in state REJECTED.
int64_t rejectedJobs(const std::vector<sim::JobResult>& jobs);

}  // namespace spindle::cli
