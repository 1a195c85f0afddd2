// Value syntaxes of capacity-scheduler.xml: capacities ("12.5", "2w", "[memory=10240,vcores=12]"),
// queue maximum-allocation resource strings, and Java's float printing for YARN's messages.
//
//   auto v = parseCapacityText("[memory=10Gi,vcores=12]", types);   // absolute, 10240 MB
//   auto w = parseCapacityText("2.5w", types);                      // weight 2.5
//   std::string s = javaFloat(120.0f);                              // "120.0", as Java prints
//
// Internal to spindle_capacity_config; pure functions, errors carry the reason only (callers
// prefix the property with Configuration::where).
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "base/strings.h"
#include "resource/resource.h"
#include "scheduler/capacity/config/capacity_config.h"

namespace spindle::capacity_config {

// A capacity as written: the mode, the number (percent or weight, as a Java float; 0 for
// absolute) and, for absolute mode, the resource.
struct CapacityText {
  CapacityMode mode = CapacityMode::kPercent;
  float number = 0;
  Resource absolute;
  // Absolute mode without memory but with other types ([vcores=4]): YARN reads it as none, so
  // `absolute` is zero and the other values are dropped (callers warn).
  bool droppedWithoutMemory = false;
};

// CapacitySchedulerConfiguration's three forms:
//  1. ends with 'w' (after trimming): a weight, the number before it (Float.parseFloat);
//  2. starts with '[': an absolute resource, matching ^\[[\w\.,\-_=\ /]+\]$, with
//     comma-separated name=value pairs. Names: memory or memory-mb, vcores, or a declared
//     resource type. A value is a non-negative integer with an optional unit (UnitsConversionUtil:
//     k, M, G, T, P, Ki, Mi, Gi, Ti, Pi, ...) converted to Mi, allowed for memory only. Without
//     memory (absent or 0) the value is a zero resource, as YARN reads it (Resources.none()):
//     [memory=0,vcores=0] is a zero guarantee in absolute mode.
//  3. anything else: a percent (Float.parseFloat).
// Range checks are the caller's: they need the queue and the key for YARN's messages.
Result<CapacityText> parseCapacityText(std::string_view text, const ResourceTypes& types);

// ResourceUtils.createResourceFromString, the form of the queue `maximum-allocation` key:
// "memory-mb=8192,vcores=4,yarn.io/gpu=2"; memory may carry M or G ("8G"). Every named type is
// set in the returned mask.
struct ResourcePairs {
  Resource values;
  std::array<bool, kMaxResourceTypes> present{};
};
Result<ResourcePairs> parseResourcePairs(std::string_view text, const ResourceTypes& types);

// UnitsConversionUtil.convert(unit, "Mi", value), truncating; error on an unknown unit or
// overflow.
Result<int64_t> convertToMebibytes(int64_t value, std::string_view unit);

// Java's Float.toString for the numbers in YARN's messages: "120.0", "0.085", "1.0E-4".
std::string javaFloat(float value);

// Surrounding whitespace removed (the shared helper in base/strings.h).
using spindle::trimView;

}  // namespace spindle::capacity_config
