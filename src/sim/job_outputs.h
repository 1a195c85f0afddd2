// Per-job output files of `spindle sim`: jobruntime.csv (SLS's format) and jobs.csv (Spindle's
// fuller table). Columns are documented in docs/simulator.md.
//
//   SPINDLE_RETURN_IF_ERROR(writeJobRuntimeCsv("out/jobruntime.csv", engine.jobs()));
//   SPINDLE_RETURN_IF_ERROR(writeJobsCsv("out/jobs.csv", engine.jobs()));
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "sim/engine.h"

namespace spindle::sim {

// JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time: the trace's
// start/end and the simulated submission/finish (simulated ms); unknown values are empty.
Status writeJobRuntimeCsv(const std::string& path, const std::vector<JobResult>& jobs);
// JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state.
Status writeJobsCsv(const std::string& path, const std::vector<JobResult>& jobs);

}  // namespace spindle::sim
