// The workload model every trace reader produces and the simulator replays: jobs with task
// groups, and the node topology. Readers live beside this header (sls_reader.h, rumen_reader.h,
// synth_generator.h, nodes_reader.h); the simulator engine (src/sim/) consumes only these types.
//
//   SlsSettings sls = slsSettingsFromConfig(conf, types).value();
//   TraceReadOptions opt{.types = types, .sls = sls, .seed = 7};
//   Trace trace = readSlsTrace({"jobs.json"}, opt).value();
//   for (const TraceJob& job : trace.jobs) { ... job.startMs, job.tasks ... }
//
// Conventions (SLS's SLSRunner and its SLS, Rumen and SYNTH readers):
//  - times are simulated milliseconds from the start of the run (Rumen times are rebased so the
//    first job's submitTime is 0);
//  - a TraceTask is one container; readers expand `count` into copies, so tasks.size() is the
//    number of containers the job runs (AM excluded);
//  - resources are fully resolved: a task or AM without explicit sizes gets the sls-runner
//    defaults (yarn.sls.container.*, yarn.sls.am.container.*).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "resource/resource.h"

namespace spindle {

// The largest time a trace may give (a start, end, deadline, duration or delay, in ms): about
// 31,700 years, far beyond any trace, and small enough that the simulator's sums of such times
// never overflow 64 bits. Readers refuse larger values as bad jobs.
inline constexpr int64_t kMaxTraceTimeMs = 1'000'000'000'000'000;

enum class TaskType { kMap, kReduce };
enum class ExecutionType { kGuaranteed, kOpportunistic };

// A preferred host and its rack.
struct TraceHost {
  std::string host{};
  std::string rack{};
};

struct TraceTask {
  std::string host{};  // preferred host ("" = none); from container.host's last component
  std::string rack{};  // its rack ("" = none), e.g. "/default-rack"
  // Further preferred hosts (container.hosts after the first: a map's other input replicas).
  // The AM asks node-local on `host` and on each of these, rack-local on every distinct rack of
  // them, and off-switch, as a MapReduce AM asks for a split's hosts (RMContainerRequestor).
  std::vector<TraceHost> otherHosts{};
  int64_t durationMs = 0;  // > 0: the container runs this long once started
  int32_t priority = 20;   // container.priority (MR maps 20, reduces 10)
  TaskType type = TaskType::kMap;
  ExecutionType executionType = ExecutionType::kGuaranteed;
  int64_t allocationId = -1;   // container.allocation.id (-1 = not set)
  int64_t requestDelayMs = 0;  // container.request.delay: the DAG AM asks this long after start
  Resource resource{};
  // Placement (container.tags / job.tags, container.placement.spec / job.placement.spec): the
  // container's allocation tags and its constraint expression in the PlacementSpec grammar
  // (placement/spec_parser.h, parseExpression; checked by the reader). A task with either is
  // asked for with a SchedulingRequest instead of ResourceRequests.
  std::vector<std::string> allocationTags{};
  std::string placementSpec{};

  bool usesPlacement() const { return !allocationTags.empty() || !placementSpec.empty(); }
};

struct TraceJob {
  std::string id{};                  // job.id, or "job_<n>" (n-th job object read) when absent
  std::string amType = "mapreduce";  // am.type: mapreduce, stream, dag (or one registered)
  int64_t startMs = 0;               // job.start.ms: submission time
  std::optional<int64_t> endMs{};    // job.end.ms: only reported (jobruntime.csv), never simulated
  std::string queue{};               // job.queue.name
  std::string user = "default";      // job.user
  std::string labelExpression{};     // job.label.expression
  int32_t priority = 0;              // application priority (SYNTH/SLS do not set it: 0)
  Resource amResource{};
  std::vector<TraceTask> tasks{};
  // Whether the job asks for a reservation and its deadline, for the reservation system: SYNTH
  // (chance_of_reservation; startMs + deadline_factor x expected duration) and SLS
  // (job.deadline.ms).
  bool wantsReservation = false;
  std::optional<int64_t> deadlineMs{};
};

struct NodeLabelSpec {
  std::string name{};
  bool exclusive = true;
};

struct TraceNode {
  std::string name{};   // host name
  std::string rack{};   // "/default-rack" form
  Resource resource{};  // resolved: per-node sizes from the nodes file, else yarn.sls.nm.*
  std::vector<NodeLabelSpec> labels{};
  std::map<std::string, std::string> attributes{};  // node attributes (name -> value)
};

struct Trace {
  std::vector<TraceJob> jobs{};    // in submission order (stable by startMs, then file order)
  std::vector<TraceNode> nodes{};  // from --nodes, else every distinct task host (SLS rule)
  int skippedJobs = 0;             // bad jobs dropped under --skip-bad-jobs
  int skippedTasks = 0;  // Rumen tasks without a usable attempt (see docs/trace-formats.md)
  // Notes for the user: each skipped job's error, ignored unknown keys, clamped Rumen times.
  std::vector<std::string> warnings{};
};

}  // namespace spindle
