// The XML fuzz targets: a Hadoop configuration file (yarn-site.xml, capacity-scheduler.xml and
// sls-runner.xml share the format) parsed and then read as `spindle sim` reads it (resource
// types, sls-runner settings, the Capacity Scheduler built from it, so the capacity queue
// configuration is resolved), and a Fair Scheduler allocation file parsed, resolved and built
// into a Fair Scheduler's queues.
#include <string_view>

#include "base/clock.h"
#include "base/rng.h"
#include "config/configuration.h"
#include "fuzz/harness.h"
#include "resource/resource_config.h"
#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/fair/fair_scheduler.h"
#include "trace/sls_settings.h"

namespace spindle::fuzz {

int hadoopConf(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Configuration> conf = Configuration::parseString(text, "capacity-scheduler.xml");
  if (!conf) return 0;
  Result<ResourceTypes> types = resourceTypesFromConfig(*conf);
  if (types) (void)slsSettingsFromConfig(*conf, *types);
  SimulatedClock clock;
  Rng rng(1);
  (void)CapacityScheduler::create(*conf, clock, rng);
  return 0;
}

int fairAllocation(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  SimulatedClock clock;
  Rng rng(1);
  (void)FairScheduler::createWithAllocation(Configuration(), text, clock, rng);
  return 0;
}

}  // namespace spindle::fuzz
