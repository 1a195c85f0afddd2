// The SLS JSON job trace (--tracetype SLS), as hadoop-sls's AMRunner / AMDefinitionSLS /
// TaskContainerDefinition read it (the Hadoop SLS docs, 'SLS JSON input file format';
// docs/trace-formats.md).
//
//   TraceReadOptions opt{.types = types, .sls = sls};
//   Result<Trace> t = readSlsTrace({"jobs.json"}, opt);
//   // t->jobs in file order; t->nodes = header-generated nodes + every distinct task host.
//
// Algorithm:
//  1. Each file is a stream of concatenated objects (json_stream.h). An object with "num.nodes"
//     and none of job.start.ms / job.queue.name / job.tasks is a header: it adds the nodes
//     SLSUtils.generateNodes makes ("/rack<i % num.racks>/node<i>") and is not a job.
//  2. Every other object is job #I (1-based per file). It is parsed in full; the first bad
//     field makes the whole job bad, with the error "FILE: job #I (id X): field F: reason".
//  3. A bad job fails the read, or under skipBadJobs is dropped and counted (job_policy.h).
//  4. job.count = N > 1 submits N copies with ids "<id>_1" .. "<id>_N"; a job without job.id
//     gets "job_<n>", n counting job objects across all files from 1.
//  5. Task groups with count = K expand into K TraceTasks. Resources start from the sls-runner
//     defaults and are overridden by the trace's keys.
//  6. Unknown keys are ignored as SLS ignores them, with one warning per key and file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "trace/readers.h"
#include "trace/trace.h"

namespace spindle {

// Reads one or more SLS trace files; jobs in file order (readTrace sorts them by start time).
Result<Trace> readSlsTrace(const std::vector<std::string>& files, const TraceReadOptions& options);

// One file's text; `source` names it in messages. Tests use this directly.
Result<Trace> parseSlsTrace(std::string_view text, std::string_view source,
                            const TraceReadOptions& options);

}  // namespace spindle
