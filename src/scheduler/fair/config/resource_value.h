// Resource values of the allocation file (minResources, maxResources, maxChildResources,
// maxContainerAllocation, queueMaxResourcesDefault): YARN's
// FairSchedulerConfiguration.parseResourceConfigValue and ConfigurableResource. See the
// Hadoop docs' FairScheduler page, 'Allocation file format'; vectors CFG-1..4.
//
//   auto v = parseResourceConfigValue("memory-mb=50%, vcores=50%", types,
//   /*missing=*/kResourceMax); Resource r = v->resolve(cluster, types.count());   // percentages of
//   the cluster, truncated
//
// Forms (chosen as YARN chooses: contains '=' -> new form; else contains '%' -> old percentage
// form; else old absolute form):
//  1. Old absolute "X mb, Y vcores": order-free, case-insensitive, spaces optional, both
//     required ("Missing resource: mb" / "Missing resource: vcores"); the number is read as a
//     Java float and truncated to int (5120.3 -> 5120); negatives: "Invalid value of memory: -5120,
//     value should not be negative!". Extra resource types get `missing`.
//  2. Old percentage "X% memory, Y% cpu" (both required: "Missing resource: memory" / "cpu") or a
//     single "X%" for every type; other types of the two-part form are 0 %. Negative percentages
//     are rejected ("... percentage should not be negative!").
//  3. New "name=value, ...": all absolute (Long.parseLong, in the type's default units;
//     unspecified types = `missing`) or all percentages (unspecified types = 100 %). Unknown
//     names, non-integers, and non-percentages in a percentage list are errors with YARN's texts.
// A percentage resolves to (long)(cluster_i x percent / 100), i.e. truncated (10.9 % of 10240 MB
// is 1116): double maths as YARN's ConfigurableResource.getResource.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "resource/resource.h"

namespace spindle::fair {

class ConfigurableResource {
 public:
  // Absolute amounts; types >= count hold `fill`.
  static ConfigurableResource absolute(const std::array<int64_t, kMaxResourceTypes>& values);
  // Fractions of the cluster (0.5 = 50 %).
  static ConfigurableResource percentages(const std::array<double, kMaxResourceTypes>& fractions);

  bool isPercentage() const { return fractions_.has_value(); }
  // The amount of type i: the absolute value, or (long)(cluster_i x fraction_i).
  int64_t get(int i, const Resource& cluster) const;
  // Every type of the registry resolved against `cluster` (types >= typeCount are 0).
  Resource resolve(const Resource& cluster, int typeCount) const;
  // As a limit: absolute kResourceMax stays unbounded.
  ResourceLimit resolveLimit(const Resource& cluster, int typeCount) const;
  // The absolute value of type i (only meaningful when !isPercentage()).
  int64_t absoluteValue(int i) const { return values_[static_cast<size_t>(i)]; }
  double fraction(int i) const { return fractions_ ? (*fractions_)[static_cast<size_t>(i)] : 0; }

 private:
  std::array<int64_t, kMaxResourceTypes> values_{};
  std::optional<std::array<double, kMaxResourceTypes>> fractions_;
};

// Parses one value. `missing` is what unspecified types get in the absolute forms: 0 for
// minResources, kResourceMax for the max-type fields. Errors carry YARN's message only; the
// caller adds file, line and element.
Result<ConfigurableResource> parseResourceConfigValue(std::string_view value,
                                                      const ResourceTypes& types, int64_t missing);

}  // namespace spindle::fair
