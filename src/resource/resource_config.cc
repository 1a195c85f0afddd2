#include "resource/resource_config.h"

#include <array>
#include <cctype>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/strings.h"

namespace spindle {
namespace {

constexpr std::string_view kResourceTypes = "yarn.resource-types";

// UnitsConversionUtil.KNOWN_UNITS.
constexpr std::array<std::string_view, 15> kKnownUnits = {
    "p", "n", "u", "m", "", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi"};

std::string typeKey(std::string_view type, std::string_view suffix) {
  return fmt::format("{}.{}.{}", kResourceTypes, type, suffix);
}

bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// One namespace label: letters, digits and inner dashes.
bool isLabel(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  for (char c : s) {
    if (!isAlnum(c) && c != '-') return false;
  }
  return true;
}

// ResourceUtils.validateNameOfResourceNameAndThrowException: optional "a.b-c/" namespace, then
// a letter followed by letters, digits, '.', '_' or '-'.
bool isValidResourceName(std::string_view name) {
  size_t slash = name.find('/');
  if (slash != std::string_view::npos) {
    std::string_view ns = name.substr(0, slash);
    size_t start = 0;
    while (true) {
      size_t dot = ns.find('.', start);
      if (!isLabel(ns.substr(start, dot == std::string_view::npos ? ns.npos : dot - start))) {
        return false;
      }
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    name.remove_prefix(slash + 1);
  }
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name.front()))) return false;
  for (char c : name) {
    if (!isAlnum(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

Result<ResourceTypeInfo> readResourceType(const Configuration& conf, const std::string& name) {
  for (std::string_view mandatory : {"memory", "memory-mb", "vcores"}) {
    if (name == mandatory) {
      return invalidArgument("{}Attempt to re-define mandatory resource '{}'.",
                             conf.where(kResourceTypes), name);
    }
  }
  if (!isValidResourceName(name)) {
    return invalidArgument(
        "{}'{}' is not a valid resource name. A valid resource name must begin with a letter "
        "and contain only letters, numbers, and any of: '.', '_', or '-'. A valid resource name "
        "may also be optionally preceded by a name space followed by a slash. A valid name space "
        "consists of period-separated groups of letters, numbers, and dashes.",
        conf.where(kResourceTypes), name);
  }
  std::string unitsKey = typeKey(name, "units");
  std::string units(trimView(conf.get(unitsKey, "")));
  bool known = false;
  for (std::string_view u : kKnownUnits) known = known || u == units;
  if (!known) {
    return invalidArgument("{}Unknown unit '{}'. Known units are {}", conf.where(unitsKey), units,
                           "[p, n, u, m, , k, M, G, T, P, Ki, Mi, Gi, Ti, Pi]");
  }
  return ResourceTypeInfo{name, units};
}

// A bound and the property it was read from (for error messages).
struct Bound {
  int64_t value;
  std::string key;
};

// ResourceUtils.getAllocation: the resource-types key unless absent or -1, else the scheduler key.
Result<Bound> mandatoryBound(const Configuration& conf, const std::string& typeKeyName,
                             const std::string& schedulerKey, int64_t schedulerDefault) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t v, conf.getLong(typeKeyName, -1));
  if (v != -1) return Bound{v, typeKeyName};
  SPINDLE_ASSIGN_OR_RETURN(int64_t s, conf.getLong(schedulerKey, schedulerDefault));
  return Bound{s, schedulerKey};
}

struct MinMax {
  Bound min;
  Bound max;
};

Result<MinMax> readMinMax(const Configuration& conf, int index, const std::string& name) {
  std::string minTypeKey = typeKey(name, "minimum-allocation");
  std::string maxTypeKey = typeKey(name, "maximum-allocation");
  if (index == kMemoryIndex || index == kVcoresIndex) {
    const char* unit = index == kMemoryIndex ? "mb" : "vcores";
    int64_t minDefault = index == kMemoryIndex ? 1024 : 1;
    int64_t maxDefault = index == kMemoryIndex ? 8192 : 4;
    SPINDLE_ASSIGN_OR_RETURN(
        Bound min,
        mandatoryBound(conf, minTypeKey, fmt::format("yarn.scheduler.minimum-allocation-{}", unit),
                       minDefault));
    SPINDLE_ASSIGN_OR_RETURN(
        Bound max,
        mandatoryBound(conf, maxTypeKey, fmt::format("yarn.scheduler.maximum-allocation-{}", unit),
                       maxDefault));
    return MinMax{min, max};
  }
  SPINDLE_ASSIGN_OR_RETURN(int64_t min, conf.getLong(minTypeKey, 0));
  SPINDLE_ASSIGN_OR_RETURN(int64_t max,
                           conf.getLong(maxTypeKey, std::numeric_limits<int64_t>::max()));
  return MinMax{{min, minTypeKey}, {max, maxTypeKey}};
}

// FairScheduler.validateConf / CapacityScheduler (CapacitySchedulerConfigValidator) and
// FifoScheduler validateConf; see the header for which applies where.
Status validateMinMax(const Configuration& conf, const MinMax& b, std::string_view label,
                      bool fairRule) {
  bool minInvalid = fairRule ? b.min.value < 0 : b.min.value <= 0;
  if (!minInvalid && b.min.value <= b.max.value) return Status::ok();
  // Blame the minimum when it is wrong on its own or was set; else the maximum that undercuts
  // the default minimum.
  const std::string& blame =
      minInvalid || conf.contains(b.min.key) || !conf.contains(b.max.key) ? b.min.key : b.max.key;
  if (fairRule) {
    return invalidArgument(
        "{}Invalid resource scheduler {} allocation configuration: {}={}, {}={}.  Both values "
        "must be greater than or equal to 0and the maximum allocation value must be greater "
        "than or equal to the minimum allocation value.",
        conf.where(blame), label, b.min.key, b.min.value, b.max.key, b.max.value);
  }
  return invalidArgument(
      "{}Invalid resource scheduler {} allocation configuration, {}={}, {}={}, min and max "
      "should be greater than 0, max should be no smaller than min.",
      conf.where(blame), label, b.min.key, b.min.value, b.max.key, b.max.value);
}

// FairSchedulerConfiguration.getIncrementAllocation.
Result<int64_t> fairIncrement(const Configuration& conf, int index, const std::string& name) {
  std::string key = typeKey(name, "increment-allocation");
  if (!conf.contains(key)) {
    if (index == kMemoryIndex) key = "yarn.scheduler.increment-allocation-mb";
    if (index == kVcoresIndex) key = "yarn.scheduler.increment-allocation-vcores";
  }
  int64_t fallback = index == kMemoryIndex ? 1024 : 1;
  SPINDLE_ASSIGN_OR_RETURN(int64_t inc, conf.getLong(key, fallback));
  if (inc < 0) {
    return invalidArgument("{}increment allocation must be >= 0, got {}", conf.where(key), inc);
  }
  return inc;
}

}  // namespace

Result<ResourceTypes> resourceTypesFromConfig(const Configuration& conf) {
  std::vector<ResourceTypeInfo> extras;
  for (const std::string& name : conf.getStrings(kResourceTypes)) {
    SPINDLE_ASSIGN_OR_RETURN(ResourceTypeInfo info, readResourceType(conf, name));
    for (const ResourceTypeInfo& seen : extras) {
      if (seen.name == name) {
        return invalidArgument("{}Error in config, key '{}' specified twice",
                               conf.where(kResourceTypes), name);
      }
    }
    extras.push_back(std::move(info));
  }
  // withExtras enforces kMaxResourceTypes; its message names yarn.resource-types itself.
  Result<ResourceTypes> types = ResourceTypes::withExtras(extras);
  if (!types) {
    return Status(types.status().code(),
                  fmt::format("{}{}", conf.where(kResourceTypes), types.status().message()));
  }
  return types;
}

Result<AllocationBounds> allocationBoundsFromConfig(const Configuration& conf,
                                                    const ResourceTypes& types,
                                                    bool fairIncrements) {
  AllocationBounds bounds;
  for (int i = 0; i < types.count(); ++i) {
    const std::string& name = types.info(i).name;
    SPINDLE_ASSIGN_OR_RETURN(MinMax mm, readMinMax(conf, i, name));
    std::string_view label = name;
    if (i == kMemoryIndex) label = "memory";
    if (i == kVcoresIndex) label = "vcores";
    bool mandatory = i == kMemoryIndex || i == kVcoresIndex;
    SPINDLE_RETURN_IF_ERROR(validateMinMax(conf, mm, label, fairIncrements || !mandatory));
    bounds.minimum.set(i, mm.min.value);
    bounds.maximum.set(i, mm.max.value);
    if (fairIncrements) {
      SPINDLE_ASSIGN_OR_RETURN(int64_t inc, fairIncrement(conf, i, name));
      bounds.increment.set(i, inc);
    } else {
      bounds.increment.set(i, mm.min.value);
    }
  }
  return bounds;
}

}  // namespace spindle
