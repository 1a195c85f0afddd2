#include "scheduler/fair/policy/fifo_policy.h"

#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {

int fifoCompare(const Schedulable& s1, const Schedulable& s2) {
  int res = signum(s2.priority, s1.priority);
  if (res == 0) res = signum(s1.startTime, s2.startTime);
  if (res == 0) res = compareNames(s1, s2);
  return res;
}

std::optional<size_t> fifoShareOwner(const std::vector<Schedulable>& schedulables) {
  std::optional<size_t> earliest;
  for (size_t i = 0; i < schedulables.size(); ++i) {
    if (!earliest || schedulables[i].startTime < schedulables[*earliest].startTime) earliest = i;
  }
  return earliest;
}

}  // namespace spindle::fair
