// The scheduler's invariant checker, run once after a benchmark's timed loop: a benchmark that
// measures a scheduler whose caches went wrong reports an error instead of a number.
//
//   for (auto _ : state) sched->handle(...);
//   checkInvariantsAtEnd(state, *sched);   // untimed: the loop has ended
//
// A failure is printed to stderr with the checker's message (which names the cache, the queue
// or app, and the kept and recomputed values) and marks the benchmark with SkipWithError, so its
// row reads ERROR. The check is linear in nodes + apps + containers (Scheduler::checkInvariants).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "scheduler/scheduler.h"

namespace spindle {

inline void checkInvariantsAtEnd(benchmark::State& state, const Scheduler& sched) {
  const Status s = sched.checkInvariants();
  if (s.isOk()) return;
  const std::string msg = "checkInvariants failed: " + s.message();
  std::fprintf(stderr, "%s\n", msg.c_str());
  state.SkipWithError(msg.c_str());
}

// The checker itself as the timed work (BM_*CheckInvariants): one full check per iteration;
// the first failure ends the loop and marks the row ERROR.
inline void timeInvariantChecks(benchmark::State& state, const Scheduler& sched) {
  for (auto _ : state) {
    const Status s = sched.checkInvariants();
    if (!s.isOk()) {
      state.SkipWithError(s.message().c_str());
      break;
    }
  }
}

}  // namespace spindle
