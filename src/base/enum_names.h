// Name tables for enums that follow YARN's printed names (state machines, event types).
//
//   constexpr std::array<const char*, 3> kNames = {"NEW", "RUNNING", "DONE"};
//   auto s = parseEnumName<State>("running", kNames, "node state");   // State::RUNNING
//   constexpr auto all = enumValues<State, 3>();
#pragma once

#include <array>
#include <string_view>

#include <fmt/ranges.h>

#include "base/status.h"

namespace spindle {

// ASCII case-insensitive equality.
constexpr bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = static_cast<char>(y - 'a' + 'A');
    if (x != y) return false;
  }
  return true;
}

// The enum value whose name (index = value) matches, ignoring case; an error listing the names.
template <typename Enum, size_t N>
Result<Enum> parseEnumName(std::string_view name, const std::array<const char*, N>& names,
                           std::string_view what) {
  for (size_t i = 0; i < N; ++i) {
    if (equalsIgnoreCase(name, names[i])) return static_cast<Enum>(i);
  }
  return invalidArgument("unknown {} '{}'; expected one of {}", what, name, fmt::join(names, ", "));
}

// Every value of a dense enum 0..N-1.
template <typename Enum, size_t N>
constexpr std::array<Enum, N> enumValues() {
  std::array<Enum, N> values{};
  for (size_t i = 0; i < N; ++i) values[i] = static_cast<Enum>(i);
  return values;
}

}  // namespace spindle
