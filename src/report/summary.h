// The report's summary numbers, computed from the parsed inputs (no formatting here).
//
//   ReportSummary s = computeSummary(track, jobs);
//   s.makespanMs;            // last job end - first job submit, when any job ended
//   s.overall.wait.p95;      // nearest-rank p95 of wait_ms over jobs that started
//   s.meanMemoryUtilisation; // mean over samples of allocated / (allocated + available)
//
// Definitions (docs/report.md repeats them for users):
// - makespan = max(end) over jobs with an end - min(submit) over jobs with a submit time.
//   `makespanIsLowerBound` is set when some job was unfinished when the run stopped.
// - finished, failed, killed, rejected: states FINISHED, FAILED, KILLED, REJECTED; unfinished:
//   any other state (NEW ... RUNNING, FINAL_SAVING, FINISHING, KILLING: still in flight).
// - wait: jobs with a wait_ms; runtime: jobs with a runtime_ms; turnaround: end - submit for
//   jobs with both. Without jobs.csv only turnaround exists (see jobs.h).
// - utilisation of a sample = allocated / (allocated + available), for memory and vcores
//   separately, over samples that carry both keys with a positive sum; the mean is the plain
//   mean over those samples (samples are evenly spaced, so this is the time average).
// - peaks are maxima over all samples of running.containers / running.applications.
// - queue usage: mean and maximum of queue.<q>.allocated.* and queue.<q>.pending.memory over
//   the samples that carry each key.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/jobs.h"
#include "report/stats.h"
#include "report/track.h"

namespace spindle::report {

struct JobGroupStats {
  std::string queue;  // "" for the overall row or unknown queue
  int64_t jobs = 0;
  int64_t finished = 0;
  int64_t unfinished = 0;  // still in flight when the run stopped (see outcomeOf)
  int64_t failed = 0;
  int64_t killed = 0;
  int64_t rejected = 0;
  Distribution wait;
  Distribution runtime;
  Distribution turnaround;
};

// A queue's resources over the run, from realtimetrack.json: mean and peak over the samples
// that carry the key (memory in GB).
struct QueueUsage {
  std::string queue;
  std::optional<double> meanAllocatedMemory, peakAllocatedMemory;
  std::optional<double> meanAllocatedVcores, peakAllocatedVcores;
  std::optional<double> meanPendingMemory, peakPendingMemory;
  // Allocated memory over the cluster's memory (allocated + available) per sample: a ratio.
  std::optional<double> meanShare, peakShare;
  // The last sample's configured guarantee and maximum (GB) and preemption totals, when the
  // track has them.
  std::optional<double> guaranteeMemory, maximumMemory, containersMarked, containersPreempted;
};

struct ReportSummary {
  bool hasQueues = false;
  JobGroupStats overall;
  std::vector<JobGroupStats> perQueue;  // by queue name; empty without jobs.csv
  std::optional<int64_t> firstSubmitMs;
  std::optional<int64_t> lastEndMs;
  std::optional<int64_t> makespanMs;
  bool makespanIsLowerBound = false;

  size_t samples = 0;
  double firstSampleTime = 0;  // seconds
  double lastSampleTime = 0;
  std::optional<double> meanMemoryUtilisation;  // ratio in [0, 1]
  std::optional<double> meanVcoresUtilisation;
  std::optional<double> peakRunningContainers;
  std::optional<double> peakRunningApplications;
  std::vector<QueueUsage> queueUsage;  // by queue name, every queue of the track
};

// Per-sample allocated / (allocated + available) where both series have a point at the same
// time and the sum is positive. Points are matched in time order.
std::vector<Point> utilisationSeries(const std::vector<Point>& allocated,
                                     const std::vector<Point>& available);

ReportSummary computeSummary(const MetricsTrack& track, const JobSet& jobs);

}  // namespace spindle::report
