// realtimetrack.json read into time series: one per global key, one per (queue metric, queue).
//
//   SPINDLE_ASSIGN_OR_RETURN(MetricsTrack t, readTrackFile(dir / "realtimetrack.json"));
//   const std::vector<Point>* mem = t.global("cluster.allocated.memory");   // nullptr if absent
//   for (const auto& [queue, pts] : t.queueMetric("allocated.memory")) { ... }
//
// File format (SLS's realtimetrack.json, written in Hadoop by sls/scheduler/SchedulerMetrics.java
// and replayed by html/showSimulationTrace.html; plus Spindle extras): a JSON array with one object
// per sample; `time` (simulated seconds) is required in every sample and must not decrease; every
// other member is a number (null means "absent in this sample"). A key missing from a sample
// leaves a gap in that series only.
//
// Queue keys. Queue names may contain dots (`queue.root.a.allocated.memory` is queue `root.a`),
// so keys are split by suffix, in two passes:
// 1. A key `queue.<q>.<m>` whose tail `<m>` is one of kKnownQueueMetrics (longest match wins)
//    names queue <q> and metric <m>. These keys define the set of queues.
// 2. Any other `queue.` key is matched against the known queues (longest queue name that is a
//    prefix followed by '.'); the rest is an extra per-queue metric (e.g. a metric a later
//    experiment adds). When no known queue matches, the key stays a global series.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "report/series.h"

namespace spindle::report {

// Per-queue metric suffixes the report knows by name (charted in fixed sections). Extend here
// (and add a chart in report_charts.cc) when the simulator writes new per-queue series.
extern const std::vector<std::string> kKnownQueueMetrics;

class MetricsTrack {
 public:
  using QueueSeries = std::map<std::string, std::vector<Point>>;  // queue -> points

  size_t sampleCount() const { return sampleCount_; }
  double firstTime() const { return firstTime_; }
  double lastTime() const { return lastTime_; }

  // nullptr when the key never occurred.
  const std::vector<Point>* global(std::string_view key) const;
  const std::map<std::string, std::vector<Point>, std::less<>>& globals() const { return global_; }
  // queue -> points for a per-queue metric; empty when absent.
  const QueueSeries& queueMetric(std::string_view metric) const;
  const std::map<std::string, QueueSeries, std::less<>>& queueMetrics() const { return perQueue_; }
  const std::set<std::string>& queues() const { return queues_; }

  // Builds the track from raw columns (key -> points in sample order), applying the queue rules.
  static MetricsTrack fromColumns(std::map<std::string, std::vector<Point>> columns,
                                  size_t sampleCount, double firstTime, double lastTime);

 private:
  size_t sampleCount_ = 0;
  double firstTime_ = 0;
  double lastTime_ = 0;
  std::map<std::string, std::vector<Point>, std::less<>> global_;
  std::map<std::string, QueueSeries, std::less<>> perQueue_;
  std::set<std::string> queues_;
};

// Parses realtimetrack.json content; `fileName` is used in messages, which name the line and
// column of a syntax error, or the sample index and key of a bad value.
Result<MetricsTrack> parseTrack(std::string_view text, const std::string& fileName);
// Streams the file (day-long runs are large; no DOM is built).
Result<MetricsTrack> readTrackFile(const std::filesystem::path& path);

}  // namespace spindle::report
