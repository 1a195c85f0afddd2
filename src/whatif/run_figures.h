// Figures of one simulator run as a whole, beside the per-group job figures of comparison.h:
// each queue's utilisation, the containers capacity preemption took, the rejected jobs by
// reason and, for a run with the reservation system on, its reservation figures.
//
//   SPINDLE_ASSIGN_OR_RETURN(RunFigures f, readRunFigures("out/runs/baseline"));
//   f.queueUtilisation["prod"];  // prod's mean share of the cluster's memory over the run
//
// Sources (docs/simulator.md): metrics/counter.queue.<q>.allocated.memory.csv against
// metrics/variable.cluster.allocated.memory.csv + .available.memory.csv (the cluster's total at
// each sample); preemption-rounds.csv (summed over the rounds; written only once a
// capacity-preemption round ran); jobs.csv's `state` and `reason`; reservation-metrics.json. A
// source a run did not write leaves its figure unset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "base/status.h"

namespace spindle::whatif {

struct ReservationFigures {
  int64_t asked = 0, accepted = 0;
  double acceptanceRatio = 0;
  int64_t acceptedMetDeadline = 0;
  double deadlineShare = 0;  // of the accepted, those that finished by their deadline
};

struct RunFigures {
  // Queue -> mean over the metric samples of its allocated memory / the cluster's memory.
  std::map<std::string, double> queueUtilisation;
  // Capacity preemption over the run: containers marked (the AM was told) and killed after
  // max_wait_before_kill; unset when no round ran.
  std::optional<int64_t> preemptedMarked, preemptedKilled;
  // Jobs REJECTED or KILLED with a reason, by reason (application ids left out).
  std::map<std::string, int64_t> rejectedReasons;
  std::optional<ReservationFigures> reservations;
};

// Reads the figures of the `spindle sim` output folder `dir`. Malformed files are errors naming
// the file; missing ones leave their figures unset.
Result<RunFigures> readRunFigures(const std::filesystem::path& dir);

}  // namespace spindle::whatif
