#include "report/format.h"

#include <cmath>

#include <fmt/format.h>

namespace spindle::report {

std::string escapeHtml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string fixed(double v, int decimals) {
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.starts_with('-') && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string formatSeconds(double ms) { return fixed(ms / 1000.0, 3) + " s"; }

std::string formatDuration(int64_t ms) {
  std::string sign = ms < 0 ? "-" : "";
  int64_t a = ms < 0 ? -ms : ms;
  if (a < 60'000) return sign + formatSeconds(static_cast<double>(a));
  int64_t totalS = a / 1000;
  int64_t h = totalS / 3600;
  int64_t m = (totalS / 60) % 60;
  int64_t s = totalS % 60;
  if (h == 0) return fmt::format("{}{}m {:02}s", sign, m, s);
  return fmt::format("{}{}h {:02}m {:02}s", sign, h, m, s);
}

std::string formatPercent(double ratio) { return fixed(ratio * 100.0, 2) + "%"; }

size_t utf8Length(std::string_view s) {
  size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string truncateUtf8(std::string_view s, size_t maxChars) {
  if (utf8Length(s) <= maxChars || maxChars == 0) return std::string(s);
  size_t chars = 0;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (chars == maxChars - 1) break;
      ++chars;
    }
  }
  return std::string(s.substr(0, i)) + "\u2026";
}

}  // namespace spindle::report
