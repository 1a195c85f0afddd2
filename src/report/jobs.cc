#include "report/jobs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "report/csv.h"

namespace spindle::report {

namespace {

constexpr std::array<std::pair<JobState, const char*>, 12> kStateNames = {{
    {JobState::kNew, "NEW"},
    {JobState::kNewSaving, "NEW_SAVING"},
    {JobState::kSubmitted, "SUBMITTED"},
    {JobState::kAccepted, "ACCEPTED"},
    {JobState::kRunning, "RUNNING"},
    {JobState::kFinalSaving, "FINAL_SAVING"},
    {JobState::kFinishing, "FINISHING"},
    {JobState::kFinished, "FINISHED"},
    {JobState::kFailed, "FAILED"},
    {JobState::kKilling, "KILLING"},
    {JobState::kKilled, "KILLED"},
    {JobState::kRejected, "REJECTED"},
}};

Result<JobState> parseState(const CsvTable& t, const CsvRow& row) {
  const std::string& s = t.field(row, "state");
  for (const auto& [state, name] : kStateNames) {
    if (s == name) return state;
  }
  return invalidArgument(
      "{}: line {}: column 'state': expected an application state (NEW, NEW_SAVING, SUBMITTED, "
      "ACCEPTED, RUNNING, FINAL_SAVING, FINISHING, FINISHED, FAILED, KILLING, KILLED or "
      "REJECTED), got '{}'",
      t.fileName, row.line, s);
}

Status requireNonEmpty(const CsvTable& t, const CsvRow& row, std::string_view col) {
  if (t.field(row, col).empty()) {
    return invalidArgument("{}: line {}: column '{}' is empty", t.fileName, row.line, col);
  }
  return Status::ok();
}

}  // namespace

const char* jobStateName(JobState s) {
  for (const auto& [state, name] : kStateNames) {
    if (state == s) return name;
  }
  return "?";
}

JobOutcome outcomeOf(JobState s) {
  switch (s) {
    case JobState::kFinished: return JobOutcome::kFinished;
    case JobState::kFailed: return JobOutcome::kFailed;
    case JobState::kKilled: return JobOutcome::kKilled;
    case JobState::kRejected: return JobOutcome::kRejected;
    default: return JobOutcome::kUnfinished;
  }
}

std::optional<int64_t> JobRecord::turnaroundMs() const {
  if (!submitMs || !endMs) return std::nullopt;
  return *endMs - *submitMs;
}

Result<std::vector<JobRecord>> parseJobRuntimeCsv(std::string_view text, std::string fileName) {
  SPINDLE_ASSIGN_OR_RETURN(CsvTable t, parseCsv(text, std::move(fileName),
                                                {"JobID", "real_start_time", "real_end_time",
                                                 "simulate_start_time", "simulate_end_time"}));
  std::vector<JobRecord> out;
  for (const CsvRow& row : t.rows) {
    SPINDLE_RETURN_IF_ERROR(requireNonEmpty(t, row, "JobID"));
    // Validated although unused: the trace's own times must still be numbers.
    SPINDLE_RETURN_IF_ERROR(t.optionalInt(row, "real_start_time").status());
    SPINDLE_RETURN_IF_ERROR(t.optionalInt(row, "real_end_time").status());
    JobRecord j;
    j.id = t.field(row, "JobID");
    SPINDLE_ASSIGN_OR_RETURN(j.submitMs, t.optionalInt(row, "simulate_start_time"));
    SPINDLE_ASSIGN_OR_RETURN(j.endMs, t.optionalInt(row, "simulate_end_time"));
    j.state = j.endMs ? JobState::kFinished : JobState::kRunning;
    out.push_back(std::move(j));
  }
  return out;
}

Result<std::vector<JobRecord>> parseJobsCsv(std::string_view text, std::string fileName) {
  SPINDLE_ASSIGN_OR_RETURN(
      CsvTable t, parseCsv(text, std::move(fileName),
                           {"JobID", "queue", "user", "am_type", "submit_ms", "start_ms", "end_ms",
                            "wait_ms", "runtime_ms", "tasks", "state"}));
  // Written only when some job was rejected or killed for a reason.
  const bool hasReason = std::find(t.header.begin(), t.header.end(), "reason") != t.header.end();
  // Written only when some job was marked for preemption, preempted or restarted its AM.
  const bool hasPreemption =
      std::find(t.header.begin(), t.header.end(), "am_restarts") != t.header.end();
  std::vector<JobRecord> out;
  for (const CsvRow& row : t.rows) {
    SPINDLE_RETURN_IF_ERROR(requireNonEmpty(t, row, "JobID"));
    JobRecord j;
    j.id = t.field(row, "JobID");
    j.queue = t.field(row, "queue");
    j.user = t.field(row, "user");
    j.amType = t.field(row, "am_type");
    SPINDLE_ASSIGN_OR_RETURN(j.state, parseState(t, row));
    SPINDLE_ASSIGN_OR_RETURN(j.submitMs, t.optionalInt(row, "submit_ms"));
    SPINDLE_ASSIGN_OR_RETURN(j.startMs, t.optionalInt(row, "start_ms"));
    SPINDLE_ASSIGN_OR_RETURN(j.endMs, t.optionalInt(row, "end_ms"));
    SPINDLE_ASSIGN_OR_RETURN(j.waitMs, t.optionalInt(row, "wait_ms"));
    SPINDLE_ASSIGN_OR_RETURN(j.runtimeMs, t.optionalInt(row, "runtime_ms"));
    SPINDLE_ASSIGN_OR_RETURN(j.tasks, t.optionalInt(row, "tasks"));
    if (hasReason) j.reason = t.field(row, "reason");
    if (hasPreemption) {
      for (auto [column, into] :
           {std::pair<const char*, int64_t*>{"preemption_marked", &j.preemptionMarked},
            {"preemption_released", &j.preemptionReleased},
            {"preempted_killed", &j.preempted},
            {"preempted_run_ms", &j.preemptedRunMs},
            {"am_restarts", &j.amRestarts}}) {
        SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> v, t.optionalInt(row, column));
        *into = v.value_or(0);
      }
    }
    out.push_back(std::move(j));
  }
  return out;
}

std::string reasonWithoutAppIds(const std::string& reason) {
  static constexpr std::string_view kApp = "application_";
  std::string out;
  size_t i = 0;
  while (i < reason.size()) {
    if (reason.compare(i, kApp.size(), kApp) == 0) {
      out += kApp;
      out += '*';
      i += kApp.size();
      while (i < reason.size() &&
             (std::isdigit(static_cast<unsigned char>(reason[i])) || reason[i] == '_')) {
        ++i;
      }
    } else {
      out += reason[i++];
    }
  }
  return out;
}

std::vector<const JobRecord*> jobsBySubmit(const JobSet& jobs) {
  std::vector<const JobRecord*> out;
  for (const JobRecord& j : jobs.jobs) out.push_back(&j);
  std::stable_sort(out.begin(), out.end(), [](const JobRecord* a, const JobRecord* b) {
    if (a->submitMs.has_value() != b->submitMs.has_value()) return a->submitMs.has_value();
    if (a->submitMs != b->submitMs) return *a->submitMs < *b->submitMs;
    return a->id < b->id;
  });
  return out;
}

namespace {

// "3 job ids in a.csv are missing from b.csv: j1, j2, j3" (at most five named).
std::optional<std::string> missingIds(const std::vector<JobRecord>& from,
                                      const std::string& fromName, const std::vector<JobRecord>& in,
                                      const std::string& inName) {
  std::set<std::string> ids;
  for (const JobRecord& j : in) ids.insert(j.id);
  std::vector<std::string> missing;
  for (const JobRecord& j : from) {
    if (!ids.count(j.id)) missing.push_back(j.id);
  }
  if (missing.empty()) return std::nullopt;
  constexpr size_t kNamed = 5;
  std::string names;
  for (size_t i = 0; i < missing.size() && i < kNamed; ++i) {
    if (i > 0) names += ", ";
    names += missing[i];
  }
  if (missing.size() > kNamed) names += ", ...";
  return fmt::format("{} job id{} in {} {} missing from {}: {}", missing.size(),
                     missing.size() == 1 ? "" : "s", fromName, missing.size() == 1 ? "is" : "are",
                     inName, names);
}

}  // namespace

Result<JobSet> readJobs(const std::filesystem::path& dir) {
  JobSet set;
  std::filesystem::path runtimePath = dir / "jobruntime.csv";
  Result<std::string> runtimeText = readTextFile(runtimePath);
  if (!runtimeText) return runtimeText.status();
  SPINDLE_ASSIGN_OR_RETURN(std::vector<JobRecord> fromRuntime,
                           parseJobRuntimeCsv(*runtimeText, runtimePath.string()));

  std::filesystem::path jobsPath = dir / "jobs.csv";
  std::error_code ec;
  if (!std::filesystem::exists(jobsPath, ec)) {
    set.jobs = std::move(fromRuntime);
    return set;
  }
  Result<std::string> jobsText = readTextFile(jobsPath);
  if (!jobsText) return jobsText.status();
  SPINDLE_ASSIGN_OR_RETURN(set.jobs, parseJobsCsv(*jobsText, jobsPath.string()));
  set.hasQueues = true;
  if (auto n = missingIds(fromRuntime, "jobruntime.csv", set.jobs, "jobs.csv")) {
    set.notes.push_back(*n);
  }
  if (auto n = missingIds(set.jobs, "jobs.csv", fromRuntime, "jobruntime.csv")) {
    set.notes.push_back(*n);
  }
  return set;
}

}  // namespace spindle::report
