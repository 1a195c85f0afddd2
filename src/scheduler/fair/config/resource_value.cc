#include "scheduler/fair/config/resource_value.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  const auto begin = s.find_first_not_of(" \t\r\n\f\v");
  if (begin == std::string_view::npos) return {};
  const auto end = s.find_last_not_of(" \t\r\n\f\v");
  return s.substr(begin, end - begin + 1);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

// Java's Float.valueOf(text).intValue(): float rounding, then truncation saturating at int.
int64_t javaFloatToInt(const std::string& text) {
  const float f = std::strtof(text.c_str(), nullptr);
  if (std::isnan(f)) return 0;
  if (f >= 2147483647.0f) return INT32_MAX;
  if (f <= -2147483648.0f) return INT32_MIN;
  return static_cast<int64_t>(static_cast<int32_t>(f));
}

// findResource: the first "(-?(\d+)(\.\d*)?)\s*<units>" in `val` (already lower-case).
Result<int64_t> findResource(const std::string& val, const std::string& units) {
  const std::regex pattern("(-?(\\d+)(\\.\\d*)?)\\s*" + units);
  std::smatch m;
  if (!std::regex_search(val, m, pattern)) return invalidArgument("Missing resource: {}", units);
  return javaFloatToInt(m[1].str());
}

// findPercentage: the first "(-?(\d+)(\.\d*)?)\s*%\s*<units>" in `val`.
Result<double> findPercentage(const std::string& val, const std::string& units) {
  const std::regex pattern("(-?(\\d+)(\\.\\d*)?)\\s*%\\s*" + units);
  std::smatch m;
  if (!std::regex_search(val, m, pattern)) {
    if (units.empty()) return invalidArgument("Invalid percentage: {}", val);
    return invalidArgument("Missing resource: {}", units);
  }
  const double percentage = std::strtod(m[1].str().c_str(), nullptr);
  if (percentage < 0) {
    return invalidArgument("Invalid percentage of {}: {}, percentage should not be negative!",
                           units.empty() ? std::string("resource") : units, val);
  }
  return percentage;
}

Result<ConfigurableResource> parseOldStylePercentage(const std::string& val,
                                                     const ResourceTypes& types) {
  std::array<double, kMaxResourceTypes> fractions{};
  if (split(val, ',').size() == 1) {
    SPINDLE_ASSIGN_OR_RETURN(double percentage, findPercentage(val, ""));
    for (int i = 0; i < types.count(); ++i) fractions[static_cast<size_t>(i)] = percentage / 100;
  } else {
    SPINDLE_ASSIGN_OR_RETURN(double memory, findPercentage(val, "memory"));
    SPINDLE_ASSIGN_OR_RETURN(double cpu, findPercentage(val, "cpu"));
    fractions[kMemoryIndex] = memory / 100;
    fractions[kVcoresIndex] = cpu / 100;
  }
  return ConfigurableResource::percentages(fractions);
}

Result<ConfigurableResource> parseOldStyleAbsolute(const std::string& val, int64_t missing) {
  std::array<int64_t, kMaxResourceTypes> values;
  values.fill(missing);
  SPINDLE_ASSIGN_OR_RETURN(int64_t memory, findResource(val, "mb"));
  if (memory < 0) {
    return invalidArgument("Invalid value of memory: {}, value should not be negative!", memory);
  }
  SPINDLE_ASSIGN_OR_RETURN(int64_t vcores, findResource(val, "vcores"));
  if (vcores < 0) {
    return invalidArgument("Invalid value of vcores: {}, value should not be negative!", vcores);
  }
  values[kMemoryIndex] = memory;
  values[kVcoresIndex] = vcores;
  return ConfigurableResource::absolute(values);
}

Status configError(std::string_view value, const std::string& message) {
  return invalidArgument("Error reading resource config--invalid resource definition: {}. {}",
                         value, message);
}

// parseNewStyleResource: "name=value" pairs, all absolute or all percentages.
Result<ConfigurableResource> parseNewStyle(std::string_view value, const ResourceTypes& types,
                                           int64_t missing) {
  const bool asPercent = value.find('%') != std::string_view::npos;
  std::array<int64_t, kMaxResourceTypes> values;
  values.fill(missing);
  std::array<double, kMaxResourceTypes> fractions{};
  for (int i = 0; i < types.count(); ++i) fractions[static_cast<size_t>(i)] = 1.0;
  for (std::string_view resource : split(value, ',')) {
    const std::vector<std::string_view> parts = split(resource, '=');
    if (parts.size() != 2)
      return configError(value, "Every resource must be of the form: name=value.");
    const std::string name(trim(parts[0]));
    const std::string text(trim(parts[1]));
    const std::optional<int> index = types.indexOf(name);
    if (!index) {
      return configError(value, fmt::format("The resource name, \"{}\" was not recognized. Please "
                                            "check the value of yarn.resource-types in the "
                                            "Resource Manager's configuration files.",
                                            name));
    }
    if (asPercent) {
      auto percentage = findPercentage(text, "");
      if (!percentage.isOk()) {
        return configError(value, fmt::format("The resource values must all be percentages. "
                                              "\"{}\" is either not a non-negative number or "
                                              "does not include the '%' symbol.",
                                              text));
      }
      fractions[static_cast<size_t>(*index)] = *percentage / 100;
      continue;
    }
    int64_t parsed = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
      return configError(value, fmt::format("The resource values must all be integers. \"{}\" is "
                                            "not an integer.",
                                            text));
    }
    if (parsed < 0) {
      return invalidArgument("Invalid value of {}: {}, value should not be negative!", name,
                             parsed);
    }
    values[static_cast<size_t>(*index)] = parsed;
  }
  if (asPercent) return ConfigurableResource::percentages(fractions);
  return ConfigurableResource::absolute(values);
}

}  // namespace

ConfigurableResource ConfigurableResource::absolute(
    const std::array<int64_t, kMaxResourceTypes>& values) {
  ConfigurableResource r;
  r.values_ = values;
  return r;
}

ConfigurableResource ConfigurableResource::percentages(
    const std::array<double, kMaxResourceTypes>& fractions) {
  ConfigurableResource r;
  r.fractions_ = fractions;
  return r;
}

int64_t ConfigurableResource::get(int i, const Resource& cluster) const {
  const size_t k = static_cast<size_t>(i);
  if (!fractions_) return values_[k];
  return javaLongCast(static_cast<double>(cluster.get(i)) * (*fractions_)[k]);
}

Resource ConfigurableResource::resolve(const Resource& cluster, int typeCount) const {
  Resource r;
  for (int i = 0; i < typeCount; ++i) r.set(i, get(i, cluster));
  return r;
}

ResourceLimit ConfigurableResource::resolveLimit(const Resource& cluster, int typeCount) const {
  ResourceLimit limit = ResourceLimit::unbounded();
  for (int i = 0; i < typeCount; ++i) limit.set(i, get(i, cluster));
  return limit;
}

Result<ConfigurableResource> parseResourceConfigValue(std::string_view value,
                                                      const ResourceTypes& types, int64_t missing) {
  if (trim(value).empty()) {
    return invalidArgument("Error reading resource config--the resource string is empty.");
  }
  if (value.find('=') != std::string_view::npos) return parseNewStyle(value, types, missing);
  const std::string lowered = lower(value);
  if (value.find('%') != std::string_view::npos) return parseOldStylePercentage(lowered, types);
  return parseOldStyleAbsolute(lowered, missing);
}

}  // namespace spindle::fair
