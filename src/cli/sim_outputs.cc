#include "cli/sim_outputs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/jobs.h"

namespace spindle::cli {

namespace fs = std::filesystem;

const std::vector<std::string> kSimOutputFiles = {
    "jobruntime.csv",  "jobs.csv",         "realtimetrack.json",       "report.html",
    "report.html.tmp", "decisions.jsonl",  "preemption.csv",           "preemption-rounds.csv",
    "placement.csv",   "reservations.csv", "reservation-metrics.json", "run.json",
    "snapshot.json"};

namespace {

// Removes what a previous run wrote; other files stay.
Status clearOutputs(const fs::path& dir) {
  std::error_code ec;
  for (const std::string& name : kSimOutputFiles) {
    fs::remove(dir / name, ec);
    if (ec)
      return invalidArgument("--overwrite: cannot remove {}: {}", (dir / name).string(),
                             ec.message());
  }
  const fs::path metrics = dir / "metrics";
  if (!fs::is_directory(metrics, ec)) return Status::ok();
  for (const fs::directory_entry& e : fs::directory_iterator(metrics, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".csv") continue;
    fs::remove(e.path(), ec);
    if (ec)
      return invalidArgument("--overwrite: cannot remove {}: {}", e.path().string(), ec.message());
  }
  if (fs::is_empty(metrics, ec)) fs::remove(metrics, ec);
  return Status::ok();
}

}  // namespace

Status prepareOutputDir(const std::string& dir, bool overwrite) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return invalidArgument("--output-dir {}: exists and is not a folder", dir);
  }
  if (fs::is_directory(dir, ec) && !fs::is_empty(dir, ec)) {
    if (!overwrite) {
      return invalidArgument(
          "--output-dir {} is not empty; pass --overwrite to replace the outputs of a previous "
          "run there (other files are kept), or name a new folder",
          dir);
    }
    SPINDLE_RETURN_IF_ERROR(clearOutputs(dir));
  }
  fs::create_directories(dir, ec);
  if (ec) return invalidArgument("--output-dir {}: {}", dir, ec.message());
  return Status::ok();
}

int64_t rejectedJobs(const std::vector<sim::JobResult>& jobs) {
  return std::count_if(jobs.begin(), jobs.end(),
                       [](const sim::JobResult& j) { return j.state == "REJECTED"; });
}

namespace {

// "rejected 6:" and the three most common reasons, each with its count.
std::string reasonsLine(const std::vector<sim::JobResult>& jobs, const std::string& state) {
  std::map<std::string, int64_t> byReason;
  int64_t total = 0;
  for (const sim::JobResult& j : jobs) {
    if (j.state != state) continue;
    ++total;
    ++byReason[j.note.empty() ? "no reason recorded" : report::reasonWithoutAppIds(j.note)];
  }
  if (total == 0) return "";
  std::vector<std::pair<std::string, int64_t>> sorted(byReason.begin(), byReason.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (size_t i = 0; i < sorted.size() && i < 3; ++i) {
    out += fmt::format("\n  {} ({})", sorted[i].first, sorted[i].second);
  }
  if (sorted.size() > 3) out += fmt::format("\n  ... {} other reason(s)", sorted.size() - 3);
  std::string lower = state;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return fmt::format("{} {}:{}\n", lower, total, out);
}

}  // namespace

std::string runSummary(const std::vector<sim::JobResult>& jobs, const sim::RunStats& stats,
                       const std::string& dir, const std::vector<std::string>& written,
                       const std::string& noReport) {
  std::map<std::string, int64_t> states;
  for (const sim::JobResult& j : jobs) ++states[j.state];
  const int64_t unfinished = static_cast<int64_t>(jobs.size()) - states["FINISHED"] -
                             states["FAILED"] - states["KILLED"] - states["REJECTED"];
  std::string out = fmt::format(
      "spindle sim: {} job(s): {} finished, {} failed, {} killed, {} rejected{}; makespan "
      "{:.3f} s simulated; wall time {:.2f} s\n",
      jobs.size(), states["FINISHED"], states["FAILED"], states["KILLED"], states["REJECTED"],
      unfinished > 0 ? fmt::format(", {} unfinished", unfinished) : "",
      static_cast<double>(stats.endMs) / 1000.0, stats.wallSeconds);
  for (const char* state : {"REJECTED", "KILLED", "FAILED"}) out += reasonsLine(jobs, state);
  std::string files;
  for (const std::string& f : written) files += (files.empty() ? "" : ", ") + f;
  out += fmt::format("outputs in {}: {}\n", dir, files);
  if (!noReport.empty()) out += fmt::format("no report.html: {}\n", noReport);
  return out;
}

nlohmann::json containerTotals(const sim::RunStats& s) {
  return {{"allocated", s.allocations},      {"am", s.amAllocations},
          {"completed", s.endedCompleted},   {"released", s.endedReleased},
          {"killed", s.endedKilled},         {"preempted", s.endedPreempted},
          {"running_at_end", s.runningAtEnd}};
}

Status writeRunJson(const std::string& path, const RunInfo& info, const sim::RunStats& stats) {
  nlohmann::json j = {{"scheduler", info.scheduler},
                      {"configuration", info.configuration},
                      {"trace", info.trace},
                      {"trace_type", info.traceType},
                      {"seed", info.seed},
                      {"version", SPINDLE_VERSION},
                      {"containers", containerTotals(stats)}};
  if (!info.nodes.empty()) j["nodes"] = info.nodes;
  std::ofstream out(path);
  out << j.dump(2) << '\n';
  out.close();
  if (!out) return invalidArgument("cannot write {}", path);
  return Status::ok();
}

}  // namespace spindle::cli
