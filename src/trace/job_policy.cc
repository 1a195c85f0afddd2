#include "trace/job_policy.h"

#include <fmt/format.h>

namespace spindle {

Status checkKnownQueue(std::string_view queue, const TraceReadOptions& options,
                       std::string_view field) {
  if (options.knownQueues.empty()) return Status::ok();
  if (auto m = options.queueMap.find(std::string(queue)); m != options.queueMap.end()) {
    queue = m->second;
  }
  if (options.knownQueues.count(std::string(queue))) return Status::ok();
  std::string known;
  int shown = 0;
  for (const std::string& q : options.knownQueues) {
    if (shown == 20) {
      known += ", ...";
      break;
    }
    if (shown++ > 0) known += ", ";
    known += q;
  }
  return invalidArgument("field {}: unknown queue '{}' (known: {})", field, queue, known);
}

Status handleBadJob(const Status& jobError, const TraceReadOptions& options, Trace& trace) {
  if (jobError.isOk()) return jobError;
  if (!options.skipBadJobs) return jobError;
  ++trace.skippedJobs;
  trace.warnings.push_back(fmt::format("skipped bad job: {}", jobError.message()));
  return Status::ok();
}

}  // namespace spindle
