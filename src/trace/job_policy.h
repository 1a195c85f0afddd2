// Rules every trace reader applies to a job, whatever the format: the known-queue check and the
// bad-job policy (fail, or skip and count under --skip-bad-jobs).
//
//   Status bad = checkKnownQueue(job.queue, options, "job.queue.name");
//   SPINDLE_RETURN_IF_ERROR(handleBadJob(bad.withContext(where), options, trace));
//   // strict: the error comes back; skipBadJobs: ++trace.skippedJobs and a warning, OK.
#pragma once

#include <string_view>

#include "base/status.h"
#include "trace/readers.h"
#include "trace/trace.h"

namespace spindle {

// An error "field F: unknown queue 'q' (known: a, b, ...)" when options.knownQueues is non-empty
// and does not hold `queue` (the caller lists both leaf names and full paths).
Status checkKnownQueue(std::string_view queue, const TraceReadOptions& options,
                       std::string_view field);

// OK for an OK `jobError`. Otherwise: under options.skipBadJobs counts the job in
// trace.skippedJobs, records the message in trace.warnings and returns OK; else returns it.
Status handleBadJob(const Status& jobError, const TraceReadOptions& options, Trace& trace);

}  // namespace spindle
