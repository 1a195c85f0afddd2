// The "Job list" section of report.html: one table row per job, for runs small enough to read
// job by job (at most kMaxTimelineJobs, the same bound as the job timeline).
//
//   std::string html = renderJobList(jobs);  // "<section id=\"job-list\">...</section>\n"
//
// Rows are in submit order (jobsBySubmit). With jobs.csv the columns are id, queue, user, state,
// submit, AM start, end, wait, runtime (seconds) and tasks; without it id, state, submit, end
// and turnaround. Unknown values print "—"; every input string is escaped.
#pragma once

#include <string>

#include "report/jobs.h"

namespace spindle::report {

// The section, or a section with a note when there are too many jobs; "" when there are none.
std::string renderJobList(const JobSet& jobs);

}  // namespace spindle::report
