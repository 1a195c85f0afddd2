// Resource types and allocation bounds read from a Hadoop Configuration (yarn-site.xml,
// resource-types.xml merged in by the caller).
//
//   auto conf = Configuration::parseFile("conf/yarn-site.xml");
//   SPINDLE_ASSIGN_OR_RETURN(ResourceTypes types, resourceTypesFromConfig(*conf));
//   SPINDLE_ASSIGN_OR_RETURN(AllocationBounds bounds,
//                            allocationBoundsFromConfig(*conf, types, /*fairIncrements=*/false));
//   Resource ask = normalizeRequest(*rc, raw, bounds);
//
// Mirrors ResourceUtils (resource types, per-type minimum/maximum allocation), the schedulers'
// validateConf (CapacityScheduler / FifoScheduler and FairScheduler differ, see below) and
// FairSchedulerConfiguration.getIncrementAllocation. Every error names file, line and property
// through Configuration::where(). Pure functions of their inputs; thread-compatible.
#pragma once

#include "base/status.h"
#include "config/configuration.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle {

// ResourceUtils.initializeResourcesMap: memory-mb and vcores, then each name listed in
// yarn.resource-types (comma-separated, e.g. "yarn.io/gpu,yarn.io/fpga") with units from
// yarn.resource-types.<name>.units (default ""). Errors, as Hadoop's: a name that re-defines a
// mandatory resource (memory, memory-mb, vcores), an invalid name (a letter, then letters,
// digits, '.', '_' or '-', optionally after a "name.space/" prefix), an unknown unit, a name
// declared twice, more than kMaxResourceTypes types in all.
Result<ResourceTypes> resourceTypesFromConfig(const Configuration& conf);

// The scheduler's minimum, maximum and increment allocation, one slot per type of `types`.
//  1. Memory: yarn.resource-types.memory-mb.minimum-allocation / .maximum-allocation if set
//     (ResourceUtils.getAllocation), else yarn.scheduler.minimum-allocation-mb (1024) /
//     yarn.scheduler.maximum-allocation-mb (8192). Vcores likewise with
//     yarn.scheduler.{minimum,maximum}-allocation-vcores (1 / 4).
//  2. Extra types: yarn.resource-types.<name>.minimum-allocation (0) / .maximum-allocation
//     (Long.MAX_VALUE).
//  3. Increment: the minimum (Capacity and FIFO schedulers) when fairIncrements is false. When
//     true (Fair scheduler), yarn.resource-types.<name>.increment-allocation if set, else for
//     memory yarn.scheduler.increment-allocation-mb (1024), for vcores
//     yarn.scheduler.increment-allocation-vcores (1), for extras 1. Negative increments fail.
//  4. Validation follows the scheduler. Fair (FairScheduler.validateConf): min < 0 or min > max
//     fails with "Invalid resource scheduler memory allocation configuration:
//     yarn.scheduler.minimum-allocation-mb=2048, yarn.scheduler.maximum-allocation-mb=1024.
//     Both values must be greater than or equal to 0and the maximum ..." (YARN's text, typo
//     included). Capacity/FIFO (validateConf there): min <= 0 or min > max fails with "Invalid
//     resource scheduler memory allocation configuration, yarn.scheduler.minimum-allocation-mb=0,
//     yarn.scheduler.maximum-allocation-mb=8192, min and max should be greater than 0, max should
//     be no smaller than min." Vcores the same with "vcores"; extra types use the Fair form with
//     their own keys under either scheduler (Hadoop does not check them; Spindle does).
Result<AllocationBounds> allocationBoundsFromConfig(const Configuration& conf,
                                                    const ResourceTypes& types,
                                                    bool fairIncrements);

}  // namespace spindle
