// Guaranteed against obtained share over time, per queue and run, for the what-if report: the
// share of the cluster's memory a queue held at each metric sample beside the share it was
// guaranteed at that sample.
//
//   SPINDLE_ASSIGN_OR_RETURN(QueueShareRuns s, readQueueShares(runs));
//   s["prod"][0].guaranteed;  // the first run's guaranteed share of prod, (t, share) points
//   page += shareChartsHtml(s, labels);
//
// Source: each run's realtimetrack.json (docs/simulator.md). Obtained: queue.<q>.allocated.memory
// over cluster.allocated.memory + cluster.available.memory at the same sample. Guaranteed: the
// Fair Scheduler's instantaneous fair share, queue.<q>.fairshare.memory, when the run records it
// (FSQueue getFairShare); otherwise the configured guarantee, queue.<q>.guarantee.memory (the
// Capacity Scheduler's effective capacity, CSQueue getEffectiveCapacity). A run without the file
// or without the queue has no entry for it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "report/series.h"
#include "whatif/comparison.h"

namespace spindle::whatif {

struct QueueShare {
  size_t run = 0;                                   // index into the comparison's runs
  std::vector<report::Point> obtained, guaranteed;  // x: simulated s; y: share of the cluster, 0-1
  std::string guaranteeSource;                      // "fair share" or "configured guarantee"
  // Over the samples: the mean obtained and guaranteed shares, and the share of samples in which
  // the queue had pending memory but held less than its guarantee (it waited below it).
  double meanObtained = 0, meanGuaranteed = 0, belowWhilePending = 0;
};

// Queue (as the metrics name it) -> its series, one per run that has the queue, in run order.
using QueueShareRuns = std::map<std::string, std::vector<QueueShare>>;

// Reads every run's realtimetrack.json. A malformed file is an error naming it.
Result<QueueShareRuns> readQueueShares(const std::vector<RunOutput>& runs);

// One chart per queue (one colour per run: solid obtained, dashed guaranteed; y in % of the
// cluster) and one table of the mean figures, under an <h2>; "" when no run has a queue.
std::string shareChartsHtml(const QueueShareRuns& shares, const std::vector<std::string>& labels);

}  // namespace spindle::whatif
