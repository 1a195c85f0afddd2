// Small string helpers shared by the config and trace parsers and the daemon's clients.
//
//   std::string_view name = trimView("  DominantResourceCalculator\n");
//   // name == "DominantResourceCalculator"
//   std::vector<std::string> f = splitTrimmed("u: alice :root.a", ":");
//   // f == {"u", "alice", "root.a"}
//
// The default whitespace is spaces, tabs, CR and LF; callers that follow Java's String.trim or
// StringUtils.getTrimmedStrings (which also drop form feed and vertical tab) pass kJavaSpace.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spindle {

inline constexpr std::string_view kSpace = " \t\r\n";
inline constexpr std::string_view kJavaSpace = " \t\n\r\f\v";

// `s` without leading and trailing characters of `space`; empty when nothing else is left.
inline std::string_view trimView(std::string_view s, std::string_view space = kSpace) {
  const size_t begin = s.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  const size_t end = s.find_last_not_of(space);
  return s.substr(begin, end - begin + 1);
}

// The parts of `s` between any of the `separators`, each trimmed of `space`, empty ones dropped
// (StringTokenizer / StringUtils.getTrimmedStrings).
inline std::vector<std::string> splitTrimmed(std::string_view s, std::string_view separators,
                                             std::string_view space = kSpace) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= s.size()) {
    size_t stop = s.find_first_of(separators, start);
    if (stop == std::string_view::npos) stop = s.size();
    std::string_view item = trimView(s.substr(start, stop - start), space);
    if (!item.empty()) items.emplace_back(item);
    start = stop + 1;
  }
  return items;
}

// `s` with ASCII letters in upper case (Java's toUpperCase for the enum names YARN parses).
inline std::string toUpper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

// The non-empty parts of `s` between `separator`s, as views into `s` (untrimmed): "a,,b" gives
// {"a", "b"} (Java's String.split with empty parts dropped).
inline std::vector<std::string_view> splitNonEmpty(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= s.size()) {
    size_t stop = s.find(separator, start);
    if (stop == std::string_view::npos) stop = s.size();
    if (stop > start) parts.push_back(s.substr(start, stop - start));
    start = stop + 1;
  }
  return parts;
}

}  // namespace spindle
