// Small string helpers shared by the config parsers (no allocation: views into the input).
//
//   std::string_view name = trimView("  DominantResourceCalculator\n");
//   // name == "DominantResourceCalculator"
//
// trimView strips spaces, tabs, CR and LF only (what Hadoop's String.trim callers meet in
// config values); it keeps inner whitespace. Callers that need Java's full String.trim set
// (form feed, vertical tab) keep their own.
#pragma once

#include <string_view>

namespace spindle {

// `s` without leading and trailing ' ', '\t', '\r' and '\n'; empty when nothing else is left.
inline std::string_view trimView(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  const size_t end = s.find_last_not_of(kSpace);
  return s.substr(begin, end - begin + 1);
}

}  // namespace spindle
