// A SYNTH workload spec (--tracetype SYNTH), parsed and validated: workloads, job classes,
// task groups and the samples their values are drawn from (hadoop-sls SynthTraceJobProducer's
// JSON; every key in docs/trace-formats.md). synth_generator.h draws jobs from it.
//
//   Result<SynthSpec> spec = parseSynthSpec(text, "syn.json", options);
//   // spec->workloads[0].classes[0].tasks[0].count is a SynthSample {val, std, ...}
//
// Both job-class forms are read into the same SynthTaskSpec list: the generic
// "tasks": [{type, priority, count, time, max_memory, max_vcores}] and the older flat keys
// (mtasks_avg/_stddev, mtime_*, map_max_memory_*, ... and the r*/reduce_* twins).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "trace/readers.h"
#include "trace/trace.h"

namespace spindle {

// A random value: a constant, LogNormal(mean val, stddev std), Normal(val, std) or a weighted
// choice among `discrete` values (SynthTraceJobProducer.Sample).
struct SynthSample {
  enum class Dist { kConstant, kLogNormal, kNormal, kDiscrete };
  Dist dist = Dist::kConstant;
  double val = 0;
  double std = 0;
  std::vector<double> discrete;
  std::vector<double> weights;
  bool given = false;  // false: the key was absent (the caller's default applies)
};

struct SynthTaskSpec {
  TaskType type = TaskType::kMap;
  int32_t priority = 20;
  ExecutionType executionType = ExecutionType::kGuaranteed;
  SynthSample count;      // tasks of this group per job
  SynthSample timeSec;    // each task's duration, seconds
  SynthSample maxMemory;  // MB per task (absent: yarn.sls.container.memory.mb)
  SynthSample maxVcores;  // vcores per task (absent: yarn.sls.container.vcores)
};

struct SynthJobClass {
  std::string name;
  double weight = 1;
  std::string user = "default";
  std::string amType = "mapreduce";
  SynthSample durationSec;     // the job's expected length, seconds (reports and deadline)
  SynthSample reservation;     // chance in [0, 1] that the job asks for a reservation
  SynthSample deadlineFactor;  // deadline = start + factor x duration
  std::vector<SynthTaskSpec> tasks;
};

struct SynthTimeBucket {
  double timeSec = 0;
  double weight = 0;
};

struct SynthWorkload {
  std::string name;
  double weight = 1;
  std::string queue;
  std::vector<SynthJobClass> classes;
  std::vector<SynthTimeBucket> timeDistribution;  // sorted by time
};

struct SynthSpec {
  std::string description;
  int64_t numNodes = 0;
  int64_t nodesPerRack = 1;
  int64_t numJobs = 0;
  std::optional<uint64_t> randSeed;
  std::vector<SynthWorkload> workloads;
};

// Parses and validates a spec; errors name the file and the JSON path ("workloads[0].
// job_classes[1].mtasks_avg: ...").
Result<SynthSpec> parseSynthSpec(std::string_view text, std::string_view source,
                                 const TraceReadOptions& options);

}  // namespace spindle
