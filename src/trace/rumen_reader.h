// Rumen job-history traces (--tracetype RUMEN), as SLSRunner.startAMFromRumenTrace reads them
// (hadoop-rumen's LoggedJob / LoggedTask; docs/trace-formats.md).
//
//   Result<Trace> t = readRumenTrace({"2jobs2min-rumen-jh.json"}, opt);
//
// Algorithm:
//  1. Each file is a stream of concatenated LoggedJob objects; job #I counts them per file.
//  2. Per job: jobID (required), user and queue (default "default"), submitTime (required),
//     finishTime (optional, reported only). Everything else Rumen records is ignored.
//  3. Times are rebased on the first job read (across all files): start = submitTime - base.
//     A later job that would start before 0 starts at 0 and keeps its length, as SLS does.
//  4. Each of mapTasks[] and reduceTasks[] contributes one container from its LAST attempt:
//     rack and host from hostName ("/rack/host"), duration finishTime - startTime, size from
//     yarn.sls.container.*, priority 20 (maps) or 10 (reduces).
//  5. A task with no attempts, or whose last attempt lacks a time or has a non-positive
//     duration, is skipped and counted in Trace::skippedTasks (with a warning naming the
//     task); SLS would submit a zero-length container. A job left with no tasks still runs
//     (its AM alone). A job-level error (missing jobID or submitTime, a wrongly typed field,
//     unknown queue) is a bad job under the usual skipBadJobs rule.
//  6. Nodes: every distinct task host (SLS's rule without --nodes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "trace/readers.h"
#include "trace/trace.h"

namespace spindle {

Result<Trace> readRumenTrace(const std::vector<std::string>& files,
                             const TraceReadOptions& options);
// One file's text; `source` names it in messages.
Result<Trace> parseRumenTrace(std::string_view text, std::string_view source,
                              const TraceReadOptions& options);

}  // namespace spindle
