// The per-job inputs of the report: jobs.csv (Spindle's per-job table) and jobruntime.csv
// (SLS's), read into one JobRecord list.
//
//   SPINDLE_ASSIGN_OR_RETURN(JobSet jobs, readJobs(outputDir));
//   if (jobs.hasQueues) { ... per-queue tables ... }
//   for (const JobRecord& j : jobs.jobs) if (j.waitMs) waits.push_back(*j.waitMs);
//
// Source rules (documented in docs/report.md):
// 1. jobruntime.csv is required; it is always parsed and validated.
// 2. When jobs.csv exists, it is the job list: queue, user, state, submit/start/end, wait and
//    runtime come from it, exactly as the simulator wrote them. Job ids found in only one of
//    the two files are reported in JobSet::notes (the first few by name, then a count).
// 3. Without jobs.csv, each jobruntime.csv row is a job with queue "" (unknown), submit =
//    simulate_start_time, end = simulate_end_time, no start and no wait, runtime absent and
//    turnaround = end - submit; state FINISHED when simulate_end_time is set (the job ended:
//    jobruntime.csv does not say how), else RUNNING.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace spindle::report {

// jobs.csv `state`: the application's state when the run stopped, named as YARN's RMAppState
// (RMAppImpl) names them, plus Spindle's REJECTED for a submission the RM refused.
enum class JobState {
  kNew,
  kNewSaving,
  kSubmitted,
  kAccepted,
  kRunning,
  kFinalSaving,
  kFinishing,
  kFinished,
  kFailed,
  kKilling,
  kKilled,
  kRejected,
};
const char* jobStateName(JobState s);  // "FINISHED", "NEW_SAVING", ...

// How the summary counts a state: FINISHED, FAILED, KILLED and REJECTED are outcomes; every
// other state means the job was still in flight when the run stopped.
enum class JobOutcome { kFinished, kFailed, kKilled, kRejected, kUnfinished };
JobOutcome outcomeOf(JobState s);

struct JobRecord {
  std::string id;
  std::string queue;  // "" when unknown (no jobs.csv)
  std::string user;
  std::string amType;
  JobState state = JobState::kFinished;
  std::optional<int64_t> submitMs;  // simulated ms
  std::optional<int64_t> startMs;   // AM container allocated
  std::optional<int64_t> endMs;
  std::optional<int64_t> waitMs;     // start - submit
  std::optional<int64_t> runtimeMs;  // end - start
  std::optional<int64_t> tasks;
  std::string reason;  // why it was rejected or killed (jobs.csv's optional "reason" column)
  // jobs.csv's optional preemption columns (0 when absent): containers marked for preemption,
  // given back by the AM for it, killed as preempted, the ms the given-back and killed ones had
  // run, AM restarts (new attempts).
  int64_t preemptionMarked = 0, preemptionReleased = 0, preempted = 0, preemptedRunMs = 0,
          amRestarts = 0;
  // end - submit; set whenever both are known.
  std::optional<int64_t> turnaroundMs() const;
};

// A rejection or kill reason without the application id it names ("application_0_0012" ->
// "application_*"), so jobs refused for the same reason count together.
std::string reasonWithoutAppIds(const std::string& reason);

struct JobSet {
  bool hasQueues = false;       // true when read from jobs.csv
  std::vector<JobRecord> jobs;  // file order
  // Plain-text findings worth a reader's attention, e.g. job ids that only one of the two
  // files lists. Not errors: the report is still written.
  std::vector<std::string> notes;
};

// Parses jobruntime.csv content (`fileName` is used in messages).
Result<std::vector<JobRecord>> parseJobRuntimeCsv(std::string_view text, std::string fileName);
// Parses jobs.csv content.
Result<std::vector<JobRecord>> parseJobsCsv(std::string_view text, std::string fileName);

// The jobs in submit order (ties and jobs without a submit time by id; those last): the row
// order of the job timeline and the job list.
std::vector<const JobRecord*> jobsBySubmit(const JobSet& jobs);

// Reads `dir`/jobruntime.csv (required) and `dir`/jobs.csv (optional) by the rules above.
Result<JobSet> readJobs(const std::filesystem::path& dir);

}  // namespace spindle::report
