#include "report/job_list.h"

#include <optional>

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

std::string row(const JobSet& jobs, const JobRecord& j) {
  if (!jobs.hasQueues) {
    return cells({escapeHtml(j.id), jobStateName(j.state), sec(j.submitMs), sec(j.endMs),
                  sec(j.turnaroundMs())});
  }
  return cells({escapeHtml(j.id), escapeHtml(j.queue.empty() ? "(unknown queue)" : j.queue),
                escapeHtml(j.user), jobStateName(j.state), sec(j.submitMs), sec(j.startMs),
                sec(j.endMs), sec(j.waitMs), sec(j.runtimeMs),
                j.tasks ? std::to_string(*j.tasks) : std::string("\u2014")});
}

}  // namespace

std::string renderJobList(const JobSet& jobs) {
  if (jobs.jobs.empty()) return "";
  std::string out = "<section id=\"job-list\">\n<h2>Job list</h2>\n";
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
  out += "</tr></thead>\n<tbody>\n";
  for (const JobRecord* j : jobsBySubmit(jobs)) out += row(jobs, *j);
  out += "</tbody></table>\n</section>\n";
  return out;
}

}  // namespace spindle::report
