// Warnings about a configuration that runs but may not mean what was written: settings the
// scheduler ignores, with the nearest known name when one is close (a misspelling).
//
//   for (const std::string& w : sim::configurationWarnings(conf)) std::cerr << "warning: " << w;
//
// What is reported:
//  1. Capacity Scheduler: the warnings of its configuration parse (per-queue keys that name
//     neither a child queue nor a known setting, "did you mean" the nearest setting; values
//     YARN adjusts).
//  2. Fair Scheduler: the allocation file's warnings, YARN's AllocationFileLoaderService
//     "Bad element in allocations file" for an unknown element among them.
//  3. Every scheduler: spindle.* keys that Spindle does not read, with the nearest known key.
// Warnings never stop a run; a configuration error is left to the scheduler's own build.
#pragma once

#include <string>
#include <vector>

#include "config/configuration.h"

namespace spindle::sim {

std::vector<std::string> configurationWarnings(const Configuration& conf);

}  // namespace spindle::sim
