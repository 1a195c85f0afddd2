#include "sim/config_warnings.h"

#include <fmt/format.h>

#include "base/clock.h"
#include "base/near_miss.h"
#include "base/rng.h"
#include "resource/resource_config.h"
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/config/allocation_config.h"
#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/scheduler_factory.h"

namespace spindle::sim {
namespace {

// Every spindle.* key Spindle reads (docs/configuration.md, docs/simulator.md, docs/daemon.md).
constexpr std::string_view kSpindleKeys[] = {
    "spindle.cluster.timestamp",
    "spindle.fair.allocation-xml",
    "spindle.nodemanager.allow-root",
    "spindle.nodemanager.registration.secret",
    "spindle.resourcemanager.io-threads",
    "spindle.resourcemanager.scheduler.gather-us",
    "spindle.scheduler.fair.preemption.design",
    "spindle.sls.am.honour-preemption",
    "spindle.sls.am.preemption.work-preserving",
    "spindle.sls.max-containers",
    "spindle.sls.max-containers-per-job",
    "spindle.sls.max-nodes",
};
// Keys below these prefixes are named by the user (a global placement constraint per name).
constexpr std::string_view kSpindlePrefixes[] = {"spindle.placement-constraints.global."};

void warnUnknownSpindleKeys(const Configuration& conf, std::vector<std::string>& out) {
  for (const std::string& key : conf.namesWithPrefix("spindle.")) {
    bool known = false;
    for (std::string_view k : kSpindleKeys) known = known || key == k;
    for (std::string_view p : kSpindlePrefixes) known = known || key.starts_with(p);
    if (known) continue;
    const std::optional<std::string> hint = closestName(key, kSpindleKeys);
    out.push_back(fmt::format("'{}' is not a setting Spindle reads; ignored{}", key,
                              hint ? fmt::format(" (did you mean '{}'?)", *hint) : ""));
  }
}

}  // namespace

std::vector<std::string> configurationWarnings(const Configuration& conf) {
  std::vector<std::string> out;
  SimulatedClock clock;
  Rng rng(1);
  auto scheduler = createScheduler(conf, clock, rng);
  if (scheduler) {
    if (const auto* cs = dynamic_cast<const CapacityScheduler*>(scheduler->get())) {
      out = cs->config().warnings;
    } else if (dynamic_cast<const FairScheduler*>(scheduler->get()) != nullptr) {
      auto types = resourceTypesFromConfig(conf);
      auto fair = types ? fair::parseFairSchedulerConfig(conf, *types, "")
                        : Result<fair::FairSchedulerConfig>(types.status());
      if (fair) out = fair->allocation.warnings;
    }
  }
  warnUnknownSpindleKeys(conf, out);
  return out;
}

}  // namespace spindle::sim
