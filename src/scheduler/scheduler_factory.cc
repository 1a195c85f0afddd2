#include "scheduler/scheduler_factory.h"

#include <fmt/ranges.h>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fifo/fifo_scheduler.h"

namespace spindle {
namespace {

struct Entry {
  const char* shortName;
  const char* className;
  Result<std::unique_ptr<Scheduler>> (*make)(const Configuration&, const Clock&, Rng&);
};

// Every scheduler class has `static Result<std::unique_ptr<S>> create(conf, clock, rng)`.
template <class S>
Result<std::unique_ptr<Scheduler>> make(const Configuration& conf, const Clock& clock, Rng& rng) {
  SPINDLE_ASSIGN_OR_RETURN(auto s, S::create(conf, clock, rng));
  return std::unique_ptr<Scheduler>(std::move(s));
}

constexpr Entry kRegistry[] = {
    {"fifo", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler",
     make<FifoScheduler>},
    {"capacity",
     "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
     make<CapacityScheduler>},
    {"fair", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler",
     make<FairScheduler>},
};

}  // namespace

Result<std::unique_ptr<Scheduler>> createScheduler(const Configuration& conf, const Clock& clock,
                                                   Rng& rng) {
  // YARN's default scheduler is the Capacity Scheduler (YarnConfiguration.DEFAULT_RM_SCHEDULER).
  std::string name = conf.get(kSchedulerClassKey, "capacity");
  std::string trimmed = name;
  while (!trimmed.empty() && isspace(static_cast<unsigned char>(trimmed.back())))
    trimmed.pop_back();
  while (!trimmed.empty() && isspace(static_cast<unsigned char>(trimmed.front())))
    trimmed.erase(0, 1);
  for (const Entry& e : kRegistry) {
    if (trimmed == e.shortName || trimmed == e.className) {
      // The scheduler's own errors name the file, line and property that are wrong; wrapping
      // them in the scheduler-class property would point at the wrong one.
      return e.make(conf, clock, rng);
    }
  }
  return invalidArgument("{}unknown scheduler '{}'; known: {}", conf.where(kSchedulerClassKey),
                         trimmed, fmt::join(knownSchedulers(), ", "));
}

std::vector<std::string> knownSchedulers() {
  std::vector<std::string> names;
  for (const Entry& e : kRegistry) names.push_back(e.shortName);
  return names;
}

}  // namespace spindle
