// The comparison of simulator runs of one trace under several configurations (`spindle whatif`):
// per-group job statistics side by side, each run's difference from the first (the baseline),
// paired job-level differences and the headline of the largest changes.
//
//   std::vector<RunOutput> runs = {{"baseline", "out/runs/baseline"}, {"fair", "out/runs/fair"}};
//   SPINDLE_ASSIGN_OR_RETURN(Comparison c, compareRuns(runs));
//   c.groups[0].perRun[1].wait.p95;  // the second run's 95th-percentile wait over all jobs
//   c.headline;                      // the largest relative changes against the baseline
//
// Every run's jobs come from its jobs.csv (report::readJobs). Groups: "all" (every job), one per
// queue and one per user, in name order. Waits count jobs that started (start - submit);
// runtimes jobs that finished (end - start). Percentiles are nearest rank (report/stats.h), so
// every reported figure is a value some job had.
//
// Pairing: a job id present in both the baseline and a run is a pair; the paired figures are the
// median of the per-job wait differences (run - baseline) and the shares of pairs whose wait grew
// or shrank by more than kPairedToleranceMs. Paired differences remove the job mix from the
// comparison: the same job under two configurations.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "whatif/run_figures.h"

namespace spindle::whatif {

// Two waits within this many ms are "the same" in the paired shares (one NM heartbeat).
inline constexpr int64_t kPairedToleranceMs = 1000;
// The headline ranks a time figure's change against max(baseline, this): a change of waits under
// a minute counts as a change of a minute's wait.
inline constexpr double kTimeFloorMs = 60000;

struct RunOutput {
  std::string label;
  std::filesystem::path dir;  // a `spindle sim` output folder
  // The same configuration under further seeds (`--seeds K`): their spread tells a real change
  // from run-to-run noise. Every run of a comparison has the same number.
  std::vector<std::filesystem::path> otherSeeds = {};
};

// The smallest and largest value of a figure over a run's seeds.
struct Range {
  double min = 0;
  double max = 0;
};

struct Figures {
  int64_t count = 0;
  std::optional<double> mean;
  std::optional<int64_t> p50, p95, p99;
};

struct GroupStats {
  int64_t jobs = 0;
  int64_t finished = 0, failed = 0, killed = 0, rejected = 0, unfinished = 0;
  Figures wait;     // ms, jobs that started
  Figures runtime;  // ms, jobs that finished
  // Preemption and AM restarts under any scheduler, summed over the group's jobs (jobs.csv's
  // preemption columns; 0 when the run wrote none): containers marked for preemption, running
  // containers the AMs gave back for it, containers killed as preempted, the time the given-back
  // and killed ones had run (ms: the work lost unless work-preserving preemption checkpoints
  // it), and new AM attempts.
  int64_t preemptionMarked = 0, preemptionReleased = 0, preempted = 0, preemptedRunMs = 0,
          amRestarts = 0;
};

struct Group {
  std::string kind;                // "all", "queue" or "user"
  std::string name;                // "" for "all"
  std::vector<GroupStats> perRun;  // one per run, in run order (its first seed)
  // Per run, each headline figure's range over its seeds; empty with one seed.
  std::vector<std::map<std::string, Range>> spread;
};

struct Paired {
  int64_t pairs = 0;
  std::optional<int64_t> medianWaitDiffMs;  // run - baseline, nearest rank
  double shareWaitLonger = 0;               // of pairs, (run - baseline) > tolerance
  double shareWaitShorter = 0;              // of pairs, (baseline - run) > tolerance
};

struct Change {
  std::string group;   // "all", "queue root.a", "user alice"
  std::string metric;  // "wait p95", "wait mean", "runtime p95", "jobs finished"
  std::string run;
  double baseline = 0;
  double value = 0;
  std::optional<double> relative;  // (value - baseline) / baseline; none when baseline is 0
  // With several seeds: whether the run's range of the figure and the baseline's do not overlap
  // (a change the seeds' noise does not explain).
  std::optional<bool> beyondSpread;
};

struct Comparison {
  std::vector<std::string> labels;     // run order; labels[0] is the baseline
  std::vector<Group> groups;           // "all", then queues, then users
  std::vector<Paired> paired;          // per run; paired[0] is the baseline against itself
  std::vector<Change> headline;        // largest changes first (ranked as compareRuns says)
  size_t seeds = 1;                    // runs per configuration
  std::vector<RunFigures> runFigures;  // per run (its first seed): utilisation, preemption, ...
  static constexpr size_t kHeadlineSize = 10;
};

// The figures the headline and the spread cover: "wait p95", "wait mean", "runtime p95",
// "jobs finished".
std::vector<std::string> headlineMetrics();
std::optional<double> metricOf(const GroupStats& s, std::string_view metric);

// Reads every run's jobs and compares them. At least two runs; labels must be distinct; every
// run has the same number of other seeds.
Result<Comparison> compareRuns(const std::vector<RunOutput>& runs);

}  // namespace spindle::whatif
