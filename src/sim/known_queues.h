// The queues a trace's jobs may name, when the scheduler configuration fixes them, so a trace
// reader can refuse a job naming another queue before the run ("unknown queue 'x' (known: ...)")
// instead of the scheduler rejecting it silently during the run.
//
//   TraceReadOptions ro;
//   SPINDLE_ASSIGN_OR_RETURN(ro.knownQueues, sim::submittableQueues(conf));
//   // Capacity: {"root.default", "default", "root.prod", "prod", ...}; FIFO, Fair: {} (no check)
//
// Rules (what each scheduler does with a submission to a queue it lacks):
//  1. Capacity Scheduler (CapacityScheduler.placeApp): only leaf queues and plan (reservable)
//     queues take applications, named by full path or by a short name that is unique in the
//     tree. With queue-mappings-override.enable the mappings choose the queue, so no check.
//  2. FIFO Scheduler: every application goes to "default", whatever it names: no check.
//  3. Fair Scheduler: the placement policy may create the queue (QueuePlacementPolicy's
//     create="true"), so which names are unknown is decided at submission: no check.
#pragma once

#include <set>
#include <string>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::sim {

// Builds the scheduler `conf` names (an error is the scheduler's configuration error) and
// returns the names above; empty means "do not check".
Result<std::set<std::string>> submittableQueues(const Configuration& conf);

}  // namespace spindle::sim
