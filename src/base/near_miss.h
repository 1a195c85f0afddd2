// Near-miss names for "did you mean" hints on misspelled configuration keys.
//
//   std::string_view known[] = {"capacity", "maximum-capacity"};
//   std::optional<std::string> hint = closestName("capcity", known);  // "capacity"
//
// The distance is Levenshtein's (insert, delete, substitute one character); a candidate is
// offered when it is at most 2 edits away, or 3 for words of 10 characters or more, and the
// closest one wins (the first listed on a tie).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle {

inline size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

template <typename Names>
std::optional<std::string> closestName(std::string_view word, const Names& candidates) {
  const size_t limit = word.size() >= 10 ? 3 : 2;
  std::optional<std::string> best;
  size_t bestDistance = limit + 1;
  for (const auto& c : candidates) {
    const size_t d = editDistance(word, c);
    if (d > 0 && d < bestDistance) {
      bestDistance = d;
      best = std::string(c);
    }
  }
  return best;
}

}  // namespace spindle
