// Builds the scheduler that yarn.resourcemanager.scheduler.class names.
//
//   auto sched = createScheduler(conf, clock, rng);
//   if (!sched) { std::cerr << sched.status().toString(); return 2; }
//
// Accepts YARN's full class names and short names ("fifo"). The registry grows as the Capacity
// and Fair schedulers land; an unknown name is an error listing the known ones.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "scheduler/scheduler.h"

namespace spindle {

inline constexpr std::string_view kSchedulerClassKey = "yarn.resourcemanager.scheduler.class";

Result<std::unique_ptr<Scheduler>> createScheduler(const Configuration& conf, const Clock& clock,
                                                   Rng& rng);
// The short names createScheduler knows, for help texts.
std::vector<std::string> knownSchedulers();

}  // namespace spindle
