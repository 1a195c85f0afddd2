#include "sim/job_outputs.h"

#include <algorithm>
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

Status writeJobsCsv(const std::string& path, const std::vector<JobResult>& jobs, bool placement) {
  // Why jobs were rejected or killed: a last column, written only when some job has a reason.
  const bool withReasons =
      std::any_of(jobs.begin(), jobs.end(), [](const JobResult& j) { return !j.note.empty(); });
  // Preemption and AM restarts: four columns, written only when some job had either.
  const bool withPreemption = std::any_of(jobs.begin(), jobs.end(), [](const JobResult& j) {
    return j.preemptionMarked > 0 || j.preemptionReleased > 0 || j.preempted > 0 ||
           j.amRestarts > 0;
  });
  std::string out =
      "JobID,queue,user,am_type,submit_ms,start_ms,end_ms,wait_ms,runtime_ms,tasks,state";
  if (placement) out += ",rejected,rejection_reasons";
  if (withPreemption) {
    out += ",preemption_marked,preemption_released,preempted_killed,preempted_run_ms,am_restarts";
  }
  if (withReasons) out += ",reason";
  out += '\n';
  for (const JobResult& j : jobs) {
    const bool ended = j.state == "FINISHED" || j.state == "KILLED" || j.state == "FAILED" ||
                       j.state == "REJECTED";
    std::optional<int64_t> end = ended ? j.endMs : std::nullopt;
    std::optional<int64_t> wait, runtime;
    if (j.startMs) wait = *j.startMs - j.submitMs;
    if (j.startMs && end) runtime = *end - *j.startMs;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}", field(j.id), field(j.queue),
                       field(j.user), field(j.amType), j.submitMs, opt(j.startMs), opt(end),
                       opt(wait), opt(runtime), j.tasks, j.state);
    if (placement) {
      int64_t rejected = 0;
      std::string reasons;
      for (const auto& [reason, n] : j.rejections) {
        rejected += n;
        reasons += fmt::format("{}{}={}", reasons.empty() ? "" : ";", reason, n);
      }
      out += fmt::format(",{},{}", rejected, reasons);
    }
    if (withPreemption) {
      out += fmt::format(",{},{},{},{},{}", j.preemptionMarked, j.preemptionReleased, j.preempted,
                         j.preemptedRunMs, j.amRestarts);
    }
    if (withReasons) {
      out += ',';
      out += field(j.note);
    }
    out += '\n';
  }
  return writeFile(path, out);
}

namespace {

bool metDeadline(const JobResult& j) {
  return j.state == "FINISHED" && j.deadlineMs && j.endMs && *j.endMs <= *j.deadlineMs;
}

}  // namespace

ReservationMetrics reservationMetrics(const std::vector<JobResult>& jobs, const RunStats& stats) {
  ReservationMetrics m;
  std::vector<int64_t> latencies;
  for (const JobResult& j : jobs) {
    const bool accepted = !j.reservationId.empty();
    if (j.reservationAsked) {
      ++m.asked;
      if (metDeadline(j)) ++m.askedMetDeadline;
    }
    if (accepted) {
      ++m.accepted;
      if (j.state == "FINISHED") ++m.acceptedFinished;
      if (metDeadline(j)) ++m.metDeadline;
    } else if (j.state == "FINISHED" && j.endMs) {
      latencies.push_back(*j.endMs - j.submitMs);
    }
  }
  if (m.asked > 0) m.acceptanceRatio = static_cast<double>(m.accepted) / m.asked;
  if (m.accepted > 0) m.deadlineShare = static_cast<double>(m.metDeadline) / m.accepted;
  if (m.asked > 0) m.askedDeadlineShare = static_cast<double>(m.askedMetDeadline) / m.asked;
  if (stats.clusterMb > 0 && stats.endMs > 0) {
    m.utilisation = stats.allocatedMbMs /
                    (static_cast<double>(stats.clusterMb) * static_cast<double>(stats.endMs));
  }
  m.bestEffortJobs = static_cast<int64_t>(latencies.size());
  if (!latencies.empty()) {
    std::sort(latencies.begin(), latencies.end());
    double sum = 0;
    for (int64_t l : latencies) sum += static_cast<double>(l);
    m.bestEffortMeanMs = sum / static_cast<double>(latencies.size());
    const size_t rank = (latencies.size() * 95 + 99) / 100;  // nearest rank, 1-based
    m.bestEffortP95Ms = static_cast<double>(latencies[std::max<size_t>(rank, 1) - 1]);
  }
  return m;
}

Status writeReservationsCsv(const std::string& path, const std::vector<JobResult>& jobs) {
  std::string out =
      "job,queue,reservation_id,accepted,deadline_ms,submit_ms,end_ms,state,met_deadline,note\n";
  for (const JobResult& j : jobs) {
    if (!j.reservationAsked) continue;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", field(j.id), field(j.queue),
                       j.reservationId, j.reservationId.empty() ? "false" : "true",
                       opt(j.deadlineMs), j.submitMs, opt(j.endMs), j.state,
                       metDeadline(j) ? "true" : "false", field(j.reservationNote));
  }
  return writeFile(path, out);
}

Status writeReservationMetrics(const std::string& path, const ReservationMetrics& m) {
  return writeFile(
      path,
      fmt::format(
          "{{\n  \"reservationsAsked\": {},\n  \"reservationsAccepted\": {},\n"
          "  \"acceptanceRatio\": {:.4f},\n  \"acceptedFinished\": {},\n"
          "  \"acceptedMetDeadline\": {},\n  \"deadlineShare\": {:.4f},\n"
          "  \"askedMetDeadline\": {},\n  \"askedDeadlineShare\": {:.4f},\n"
          "  \"clusterUtilisation\": {:.4f},\n  \"bestEffortJobs\": {},\n"
          "  \"bestEffortMeanLatencyMs\": {:.1f},\n  \"bestEffortP95LatencyMs\": {:.1f}\n}}\n",
          m.asked, m.accepted, m.acceptanceRatio, m.acceptedFinished, m.metDeadline,
          m.deadlineShare, m.askedMetDeadline, m.askedDeadlineShare, m.utilisation,
          m.bestEffortJobs, m.bestEffortMeanMs, m.bestEffortP95Ms));
}

}  // namespace spindle::sim
