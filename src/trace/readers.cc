#include "trace/readers.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "trace/job_policy.h"
#include "trace/nodes_reader.h"
#include "trace/rumen_reader.h"
#include "trace/sls_reader.h"
#include "trace/synth_generator.h"

namespace spindle {
namespace {

// A job id seen twice makes the later job bad: jobruntime.csv and --track-jobs key on ids.
Status dropDuplicateIds(const TraceReadOptions& options, Trace& trace) {
  std::unordered_map<std::string, size_t> firstIndex;
  std::vector<TraceJob> kept;
  kept.reserve(trace.jobs.size());
  for (size_t i = 0; i < trace.jobs.size(); ++i) {
    TraceJob& job = trace.jobs[i];
    auto [it, fresh] = firstIndex.emplace(job.id, i);
    if (!fresh) {
      SPINDLE_RETURN_IF_ERROR(handleBadJob(
          invalidArgument("job id '{}': field job.id: duplicate id (the trace's job with "
                          "start {} ms has it too)",
                          job.id, trace.jobs[it->second].startMs),
          options, trace));
      continue;
    }
    kept.push_back(std::move(job));
  }
  trace.jobs = std::move(kept);
  return Status::ok();
}

// Tasks preferring a host the nodes file lacks still run (their asks fall back to rack and
// any), but the user probably paired the wrong files: say so once.
void warnHostsMissingFromNodes(const std::string& nodesFile, Trace& trace) {
  std::unordered_set<std::string> known;
  for (const TraceNode& n : trace.nodes) known.insert(n.name);
  std::unordered_set<std::string> missing;
  std::string example;
  for (const TraceJob& job : trace.jobs) {
    for (const TraceTask& task : job.tasks) {
      auto check = [&](const std::string& host) {
        if (host.empty() || known.count(host)) return;
        if (missing.insert(host).second && example.empty()) example = host;
      };
      check(task.host);
      for (const TraceHost& h : task.otherHosts) check(h.host);
    }
  }
  if (missing.empty()) return;
  trace.warnings.push_back(fmt::format(
      "{}: {} host(s) the trace prefers are not in the nodes file (e.g. '{}'); their tasks "
      "fall back to rack or any-node placement",
      nodesFile, missing.size(), example));
}

}  // namespace

Result<TraceType> parseTraceType(std::string_view s) {
  std::string upper;
  for (char c : s) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "SLS") return TraceType::kSls;
  if (upper == "RUMEN") return TraceType::kRumen;
  if (upper == "SYNTH") return TraceType::kSynth;
  return invalidArgument("unknown trace type '{}' (expected SLS, RUMEN or SYNTH)", s);
}

Result<Trace> readTrace(TraceType type, const std::vector<std::string>& files,
                        const TraceReadOptions& options) {
  if (files.empty()) return invalidArgument("no trace file given (--tracelocation)");
  Result<Trace> read = Status(StatusCode::kInternal, "unreachable");
  switch (type) {
    case TraceType::kSls: read = readSlsTrace(files, options); break;
    case TraceType::kRumen: read = readRumenTrace(files, options); break;
    case TraceType::kSynth:
      // The generator places tasks on the nodes, so it reads --nodes itself.
      read = readSynthTrace(files, options);
      break;
  }
  if (!read) return read.status();
  Trace trace = std::move(read).value();
  if (type != TraceType::kSynth && !options.nodesFile.empty()) {
    SPINDLE_ASSIGN_OR_RETURN(
        trace.nodes, readNodesFile(options.nodesFile, options.types, options.sls.nodeResource));
    warnHostsMissingFromNodes(options.nodesFile, trace);
  }
  SPINDLE_RETURN_IF_ERROR(dropDuplicateIds(options, trace));
  std::stable_sort(trace.jobs.begin(), trace.jobs.end(),
                   [](const TraceJob& a, const TraceJob& b) { return a.startMs < b.startMs; });
  if (trace.nodes.empty()) {
    return invalidArgument(
        "{}: the trace names no hosts, so there are no nodes to simulate; give --nodes",
        files.front());
  }
  return trace;
}

}  // namespace spindle
