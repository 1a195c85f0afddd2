// report.html for a simulator output folder: the simulator's entry point into this library.
//
//   Status s = writeHtmlReport("/tmp/run1");   // reads the folder, writes /tmp/run1/report.html
//   if (!s) std::cerr << s.toString() << "\n"; // e.g. "InvalidArgument: /tmp/run1/jobs.csv:
//                                              //  line 4: column 'wait_ms': expected an
//                                              integer..."
//
// Inputs (formats in docs/report.md): realtimetrack.json and jobruntime.csv are required;
// jobs.csv is optional (without it the report has no queues, wait or runtime, and uses
// turnaround from jobruntime.csv). A missing required file is NotFound, a malformed one
// InvalidArgument; both name the file and the line or sample and field. On error no
// report.html is written.
//
// Output is deterministic: the same input files give a byte-identical report.html (no clock,
// no path, fixed number formats, sorted queues).
#pragma once

#include <string>

#include "base/status.h"
#include "report/report_charts.h"

namespace spindle {

Status writeHtmlReport(const std::string& outputDir);
Status writeHtmlReport(const std::string& outputDir, const report::ReportOptions& options);

// The page writeHtmlReport would write, without writing it.
Result<std::string> renderHtmlReport(const std::string& outputDir,
                                     const report::ReportOptions& options = {});

}  // namespace spindle
