#include "sim/job_outputs.h"

#include <fstream>

#include <fmt/format.h>

namespace spindle::sim {

namespace {

std::string opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : ""; }

// RFC 4180: a field with a comma, quote or newline is quoted, quotes doubled.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

Status writeFile(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  if (!f) return invalidArgument("cannot write {}", path);
  f << text;
  f.close();
  if (!f) return internalError("writing {} failed", path);
  return Status::ok();
}

}  // namespace

Status writeJobRuntimeCsv(const std::string& path, const std::vector<JobResult>& jobs) {
  std::string out = "JobID,real_start_time,real_end_time,simulate_start_time,simulate_end_time\n";
  for (const JobResult& j : jobs) {
    const bool finished = j.state == "FINISHED" || j.state == "KILLED" || j.state == "FAILED";
    out += fmt::format("{},{},{},{},{}\n", field(j.id), j.traceStartMs, opt(j.traceEndMs),
                       j.state == "REJECTED" ? "" : std::to_string(j.submitMs),
                       finished ? opt(j.endMs) : "");
  }
  return writeFile(path, out);
}

Status writeJobsCsv(const std::string& path, const std::vector<JobResult>& jobs) {
  std::string out =
      "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state\n";
  for (const JobResult& j : jobs) {
    const bool ended = j.state == "FINISHED" || j.state == "KILLED" || j.state == "FAILED" ||
                       j.state == "REJECTED";
    std::optional<int64_t> end = ended ? j.endMs : std::nullopt;
    std::optional<int64_t> wait, runtime;
    if (j.startMs) wait = *j.startMs - j.submitMs;
    if (j.startMs && end) runtime = *end - *j.startMs;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", field(j.id), field(j.queue),
                       field(j.user), field(j.amType), j.submitMs, opt(j.startMs), opt(end),
                       opt(wait), opt(runtime), j.tasks, j.state);
  }
  return writeFile(path, out);
}

}  // namespace spindle::sim
