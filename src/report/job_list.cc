#include "report/job_list.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "report/format.h"
#include "report/report_charts.h"

namespace spindle::report {

namespace {

std::string sec(std::optional<int64_t> ms) {
  return ms ? fixed(static_cast<double>(*ms) / 1000.0, 3) : std::string("\u2014");
}

std::string cells(const std::vector<std::string>& values) {
  std::string out = "<tr>";
  for (const std::string& v : values) out += fmt::format("<td>{}</td>", v);
  return out + "</tr>\n";
}

std::string row(const JobSet& jobs, const JobRecord& j, bool reasons) {
  if (!jobs.hasQueues) {
    return cells({escapeHtml(j.id), jobStateName(j.state), sec(j.submitMs), sec(j.endMs),
                  sec(j.turnaroundMs())});
  }
  std::vector<std::string> values = {
      escapeHtml(j.id),   escapeHtml(j.queue.empty() ? "(unknown queue)" : j.queue),
      escapeHtml(j.user), jobStateName(j.state),
      sec(j.submitMs),    sec(j.startMs),
      sec(j.endMs),       sec(j.waitMs),
      sec(j.runtimeMs),   j.tasks ? std::to_string(*j.tasks) : std::string("\u2014")};
  if (reasons) values.push_back(escapeHtml(j.reason));
  return cells(values);
}

// "Rejected 6: unknown queue 'x' (6)" for each of REJECTED, KILLED and FAILED with reasons,
// most common reason first; empty when no job has one.
std::string reasonSummary(const JobSet& jobs) {
  std::string out;
  for (JobState state : {JobState::kRejected, JobState::kKilled, JobState::kFailed}) {
    std::map<std::string, int64_t> byReason;
    int64_t total = 0;
    for (const JobRecord& j : jobs.jobs) {
      if (j.state != state || j.reason.empty()) continue;
      ++byReason[reasonWithoutAppIds(j.reason)];
      ++total;
    }
    if (total == 0) continue;
    std::vector<std::pair<std::string, int64_t>> sorted(byReason.begin(), byReason.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out += fmt::format("<li>{} {}:<ul>", jobStateName(state), total);
    for (const auto& [reason, n] : sorted) {
      out += fmt::format("<li>{} ({})</li>", escapeHtml(reason), n);
    }
    out += "</ul></li>\n";
  }
  return out.empty() ? out : "<ul id=\"job-reasons\">\n" + out + "</ul>\n";
}

}  // namespace

std::string renderJobList(const JobSet& jobs) {
  if (jobs.jobs.empty()) return "";
  std::string out = "<section id=\"job-list\">\n<h2>Job list</h2>\n";
  out += reasonSummary(jobs);
  const bool reasons = std::any_of(jobs.jobs.begin(), jobs.jobs.end(),
                                   [](const JobRecord& j) { return !j.reason.empty(); });
  if (jobs.jobs.size() > kMaxTimelineJobs) {
    return out + fmt::format(
                     "<p class=\"note\">The job list is shown for runs of at most {} jobs; this "
                     "run has {}.</p>\n</section>\n",
                     kMaxTimelineJobs, jobs.jobs.size());
  }
  out += "<table id=\"job-table\">\n<thead><tr>";
  out += jobs.hasQueues
             ? "<th>job</th><th>queue</th><th>user</th><th>state</th><th>submit (s)</th>"
               "<th>AM start (s)</th><th>end (s)</th><th>wait (s)</th><th>runtime (s)</th>"
               "<th>tasks</th>"
             : "<th>job</th><th>state</th><th>submit (s)</th><th>end (s)</th>"
               "<th>turnaround (s)</th>";
  if (jobs.hasQueues && reasons) out += "<th>reason</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const JobRecord* j : jobsBySubmit(jobs)) out += row(jobs, *j, reasons);
  out += "</tbody></table>\n</section>\n";
  return out;
}

}  // namespace spindle::report
