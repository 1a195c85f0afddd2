// What the last capacity-preemption round saw and chose, per queue and partition: the figures
// YARN's ProportionalCapacityPreemptionPolicy keeps in TempQueuePerPartition (guaranteed, used,
// pending, ideal assignment, ideal and actual preemption). Reports, the scenario `preemption:`
// view and the simulator's metrics read it through Scheduler::lastPreemptionRound().
//
//   if (const PreemptionRoundReport* r = sched.lastPreemptionRound()) {
//     for (const QueuePreemptionFigures& q : r->queues) plot(q.queue, q.idealAssigned);
//   }
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "resource/resource.h"

namespace spindle {

struct QueuePreemptionFigures {
  std::string queue;      // full path, e.g. "root.a"
  std::string partition;  // "" is the default partition
  Resource guaranteed, maximum, used;
  Resource pending;                // considering user limits (YARN's pending for preemption)
  Resource idealAssigned;          // the ideal assignment of the round
  Resource toBePreempted;          // ideal preemption, before the dead zone and natural termination
  Resource actuallyToBePreempted;  // after them
  Resource preemptableExtra, untouchableExtra;
  Resource selected;  // sum of the containers the round selected from this queue (all selectors)
};

struct PreemptionRoundReport {
  TimeMs timeMs = 0;
  bool observeOnly = false;
  std::vector<QueuePreemptionFigures> queues;  // pre-order, per partition
  int containersMarked = 0;                    // newly marked this round (AMs told)
  int containersKilled = 0;  // killed this round (marked at least max_wait_before_kill ago)
};

}  // namespace spindle
