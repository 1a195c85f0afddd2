#include "scheduler/capacity/config/capacity_value.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

namespace spindle::capacity_config {
namespace {

// UnitsConversionUtil's converters as numerator / denominator of one unit in base units.
struct UnitFactor {
  std::string_view unit;
  int64_t numerator;
  int64_t denominator;
};
constexpr std::array<UnitFactor, 15> kUnits = {{
    {"p", 1, 1'000'000'000'000},
    {"n", 1, 1'000'000'000},
    {"u", 1, 1'000'000},
    {"m", 1, 1'000},
    {"", 1, 1},
    {"k", 1'000, 1},
    {"M", 1'000'000, 1},
    {"G", 1'000'000'000, 1},
    {"T", 1'000'000'000'000, 1},
    {"P", 1'000'000'000'000'000, 1},
    {"Ki", int64_t{1} << 10, 1},
    {"Mi", int64_t{1} << 20, 1},
    {"Gi", int64_t{1} << 30, 1},
    {"Ti", int64_t{1} << 40, 1},
    {"Pi", int64_t{1} << 50, 1},
}};

bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Float.parseFloat on trimmed text (no NaN or infinity).
std::optional<float> parseJavaFloat(std::string_view s) {
  if (s.starts_with('+') && !s.starts_with("+-")) s.remove_prefix(1);
  float value = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (s.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The RESOURCE_PATTERN character class: word characters, '.', ',', '-', '_', '=', ' ', '/'.
bool matchesResourcePattern(std::string_view s) {
  if (s.size() < 3 || s.front() != '[' || s.back() != ']') return false;
  for (char c : s.substr(1, s.size() - 2)) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ',' ||
              c == '-' || c == '=' || c == ' ' || c == '/';
    if (!ok) return false;
  }
  return true;
}

// "memory" and "memory-mb" are memory, then the registry (which also knows "memory").
std::optional<int> typeIndex(std::string_view name, const ResourceTypes& types) {
  if (name == "memory" || name == "memory-mb") return kMemoryIndex;
  return types.indexOf(name);
}

// A count with an optional unit suffix: "10240", "10Gi".
struct Amount {
  int64_t value = 0;
  std::string unit;
};
Result<Amount> parseAmount(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && isDigit(text[digits])) ++digits;
  std::string_view unit = trimView(text.substr(digits));
  if (digits == 0) {
    return invalidArgument("'{}' is not a non-negative integer with an optional unit", text);
  }
  for (char c : unit) {
    if (!isAlpha(c)) {
      return invalidArgument("'{}' is not a non-negative integer with an optional unit", text);
    }
  }
  Amount amount;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + digits, amount.value);
  if (ec != std::errc()) return invalidArgument("'{}' does not fit in 64 bits", text);
  amount.unit = std::string(unit);
  return amount;
}

Status parseAbsolutePair(std::string_view pair, const ResourceTypes& types, std::set<int>& seen,
                         Resource& out) {
  size_t eq = pair.find('=');
  if (eq == std::string_view::npos || pair.find('=', eq + 1) != std::string_view::npos) {
    return invalidArgument("'{}' is not a name=value pair", trimView(pair));
  }
  std::string_view name = trimView(pair.substr(0, eq));
  std::optional<int> index = typeIndex(name, types);
  if (!index) return invalidArgument("unknown resource type '{}'", name);
  if (!seen.insert(*index).second) return invalidArgument("resource type '{}' given twice", name);
  auto amount = parseAmount(trimView(pair.substr(eq + 1)));
  if (!amount) return amount.status();
  int64_t value = amount->value;
  if (!amount->unit.empty()) {
    if (*index != kMemoryIndex) {
      return invalidArgument("a unit ('{}') is only allowed for memory, not for '{}'", amount->unit,
                             name);
    }
    auto converted = convertToMebibytes(value, amount->unit);
    if (!converted) return converted.status();
    value = *converted;
  }
  out.set(*index, value);
  return Status::ok();
}

Result<Resource> parseAbsolute(std::string_view text, const ResourceTypes& types) {
  if (!matchesResourcePattern(text)) {
    return invalidArgument(
        "'{}' is not an absolute resource such as [memory=10240,vcores=12] (pattern "
        "^\\[[\\w\\.,\\-_=\\ /]+\\]$)",
        text);
  }
  Resource resource;
  std::set<int> seen;
  std::string_view body = text.substr(1, text.size() - 2);
  size_t start = 0;
  while (start <= body.size()) {
    size_t comma = body.find(',', start);
    if (comma == std::string_view::npos) comma = body.size();
    std::string_view pair = body.substr(start, comma - start);
    if (!trimView(pair).empty()) {
      Status s = parseAbsolutePair(pair, types, seen, resource);
      if (!s.isOk()) return invalidArgument("absolute resource '{}': {}", text, s.message());
    }
    start = comma + 1;
  }
  return resource;
}

}  // namespace

Result<int64_t> convertToMebibytes(int64_t value, std::string_view unit) {
  for (const UnitFactor& from : kUnits) {
    if (from.unit != unit) continue;
    // (value * from.num / from.den) / 2^20, as UnitsConversionUtil.convert to "Mi".
    __int128 numerator = static_cast<__int128>(value) * from.numerator;
    __int128 denominator = static_cast<__int128>(from.denominator) << 20;
    __int128 result = numerator / denominator;
    if (result > std::numeric_limits<int64_t>::max()) {
      return invalidArgument("{}{} overflows when converted to Mi", value, unit);
    }
    return static_cast<int64_t>(result);
  }
  return invalidArgument(
      "Unknown unit '{}'. Known units are [p, n, u, m, , k, M, G, T, P, Ki, "
      "Mi, Gi, Ti, Pi]",
      unit);
}

Result<CapacityText> parseCapacityText(std::string_view raw, const ResourceTypes& types) {
  std::string_view text = trimView(raw);
  CapacityText out;
  if (text.ends_with('w')) {
    std::optional<float> weight = parseJavaFloat(trimView(text.substr(0, text.size() - 1)));
    if (!weight) return invalidArgument("'{}' is not a weight such as 2w or 2.5w", text);
    out.mode = CapacityMode::kWeight;
    out.number = *weight;
    return out;
  }
  if (text.starts_with('[')) {
    auto absolute = parseAbsolute(text, types);
    if (!absolute) return absolute.status();
    out.mode = CapacityMode::kAbsolute;
    // CapacitySchedulerConfiguration.getMinimumResourceRequirement: "Memory has to be
    // configured always": without memory the value is Resources.none(), a zero resource.
    if (absolute->memoryMb() == 0) {
      out.droppedWithoutMemory = !absolute->isZero();
      return out;
    }
    out.absolute = *absolute;
    return out;
  }
  std::optional<float> percent = parseJavaFloat(text);
  if (!percent) {
    return invalidArgument(
        "'{}' is not a capacity: expected a percent (12.5), a weight (2w) or an absolute "
        "resource ([memory=10240,vcores=12])",
        text);
  }
  out.number = *percent;
  return out;
}

Result<ResourcePairs> parseResourcePairs(std::string_view raw, const ResourceTypes& types) {
  ResourcePairs out;
  std::string_view text = trimView(raw);
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view pair = trimView(text.substr(start, comma - start));
    start = comma + 1;
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0 || pair.find('=', eq + 1) != pair.npos) {
      return invalidArgument(
          "\"{}\" is not a valid resource type/amount pair. Please provide key=amount pairs "
          "separated by commas.",
          pair);
    }
    std::string_view name = trimView(pair.substr(0, eq));
    std::string canonical(name);
    if (name == "gpu") canonical = "yarn.io/gpu";
    if (name == "fpga") canonical = "yarn.io/fpga";
    std::optional<int> index = typeIndex(canonical, types);
    if (!index) return invalidArgument("unknown resource type '{}' in '{}'", name, text);
    if (out.present[*index]) {
      return invalidArgument("resource type '{}' given twice in '{}'", name, text);
    }
    auto amount = parseAmount(trimView(pair.substr(eq + 1)));
    if (!amount) return amount.status();
    int64_t value = amount->value;
    if (!amount->unit.empty()) {
      // ResourceUtils.parseResourcesString: M/m and G/g only, meaning Mi and Gi.
      std::string_view unit = amount->unit;
      if (unit != "M" && unit != "m" && unit != "G" && unit != "g") {
        return invalidArgument("'{}': Acceptable units are M/G or empty", pair);
      }
      if (*index != kMemoryIndex) {
        return invalidArgument("'{}': a unit is only allowed for memory", pair);
      }
      auto converted = convertToMebibytes(value, (unit == "M" || unit == "m") ? "Mi" : "Gi");
      if (!converted) return converted.status();
      value = *converted;
    }
    out.values.set(*index, value);
    out.present[*index] = true;
  }
  return out;
}

std::string javaFloat(float value) {
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  float magnitude = std::fabs(value);
  if (magnitude >= 1e-3f && magnitude < 1e7f) {
    // Shortest round-trip digits in plain notation, with at least one fractional digit.
    std::string s = fmt::format("{:f}", value);
    std::string shortest = fmt::format("{}", value);
    if (shortest.find('e') == std::string::npos) s = shortest;
    if (s.find('.') == std::string::npos) s += ".0";
    return s;
  }
  // Computerized scientific notation: "1.0E-4", "1.2345678E7".
  std::string s = fmt::format("{:e}", value);  // 1.000000e-04
  std::string shortest = fmt::format("{}", value);
  size_t e = shortest.find('e');
  std::string mantissa = e == std::string::npos ? shortest : shortest.substr(0, e);
  int exponent = std::stoi(s.substr(s.find('e') + 1));
  if (e == std::string::npos) {
    // fmt printed plain digits; rebuild the mantissa from the scientific form.
    mantissa = fmt::format("{}", value / std::pow(10.0f, static_cast<float>(exponent)));
  }
  if (mantissa.find('.') == std::string::npos) mantissa += ".0";
  return fmt::format("{}E{}", mantissa, exponent);
}

}  // namespace spindle::capacity_config
