#include "base/clock.h"

#include <chrono>

namespace spindle {

TimeMs RealClock::nowMs() const {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace spindle
