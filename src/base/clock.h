// Time for the scheduler core: an injected Clock, never the wall clock directly.
//
//   SimulatedClock clock(0);
//   Scheduler sched(config, clock, rng);
//   clock.advanceMs(1000);            // the simulator and tests move time explicitly
//
// The daemon passes a RealClock; the simulator and every test a SimulatedClock. Times are
// milliseconds since the epoch (real) or since the start of the scenario (simulated).
#pragma once

#include <cstdint>

namespace spindle {

using TimeMs = int64_t;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimeMs nowMs() const = 0;
};

// Wall-clock time. Only front ends (the daemon, progress bars) may construct one.
class RealClock final : public Clock {
 public:
  TimeMs nowMs() const override;
};

// Time that moves only when told to. Thread-compatible, not thread-safe.
class SimulatedClock final : public Clock {
 public:
  explicit SimulatedClock(TimeMs start = 0) : now_(start) {}
  TimeMs nowMs() const override { return now_; }
  void advanceMs(TimeMs delta) { now_ += delta; }
  // Moves to `t`; time never goes backwards, so an earlier `t` is ignored.
  void setMs(TimeMs t) {
    if (t > now_) now_ = t;
  }

 private:
  TimeMs now_;
};

}  // namespace spindle
