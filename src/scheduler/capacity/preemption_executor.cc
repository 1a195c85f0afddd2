#include "scheduler/capacity/preemption_executor.h"

#include <algorithm>

namespace spindle {

PreemptionExecutor::Step PreemptionExecutor::advance(
    const std::vector<preemption::PreemptionCandidate>& candidates, TimeMs now,
    int64_t maxWaitBeforeKillMs) {
  Step step;
  std::set<ContainerId> seen;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const preemption::PreemptionCandidate& c = candidates[i];
    if (c.isReservation || killable_.contains(c.container)) continue;
    if (!seen.insert(c.container).second) continue;
    auto it = firstMarked_.find(c.container);
    if (it == firstMarked_.end()) {
      firstMarked_.emplace(c.container, now);
      step.marked.push_back(i);
    } else if (it->second + c.killWaitMs <= now) {
      firstMarked_.erase(it);
      step.due.push_back(i);
    }
  }
  for (auto it = firstMarked_.begin(); it != firstMarked_.end();) {
    if (it->second + 2 * maxWaitBeforeKillMs < now) {
      step.stale.push_back(it->first);
      it = firstMarked_.erase(it);
    } else {
      ++it;
    }
  }
  return step;
}

void PreemptionExecutor::makeKillable(ContainerId c) {
  firstMarked_.erase(c);
  killable_.insert(c);
}

void PreemptionExecutor::forget(ContainerId c) {
  firstMarked_.erase(c);
  killable_.erase(c);
}

std::vector<ContainerId> PreemptionExecutor::containersOf(AppId app) const {
  std::vector<ContainerId> out;
  const ContainerId from{AttemptId{app, 0}, 0};
  for (auto it = firstMarked_.lower_bound(from); it != firstMarked_.end() && it->first.app() == app;
       ++it) {
    out.push_back(it->first);
  }
  for (auto it = killable_.lower_bound(from); it != killable_.end() && it->app() == app; ++it) {
    out.push_back(*it);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace spindle
