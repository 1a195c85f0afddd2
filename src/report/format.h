// Text helpers shared by the report's HTML and SVG writers: escaping and fixed number formats.
// Every number the report prints goes through these, so output is byte-identical across runs.
//
//   escapeHtml("a<b & \"c\"");     // "a&lt;b &amp; &quot;c&quot;"
//   fixed(2.0 / 3.0, 2);            // "0.67"; fixed(-0.001, 2) is "0.00", never "-0.00"
//   formatSeconds(90500);           // "90.500 s"  (input in ms)
//   formatDuration(3723000);        // "1h 02m 03s" (input in ms; "—" style is up to callers)
//   formatPercent(0.4567);          // "45.67%"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spindle::report {

// Escapes & < > " ' for text and attribute values.
std::string escapeHtml(std::string_view s);

// Fixed-point decimal with `decimals` digits; a value that rounds to zero prints unsigned.
std::string fixed(double v, int decimals);

// Milliseconds as seconds with three decimals and the unit: "12.345 s".
std::string formatSeconds(double ms);

// Milliseconds as "Hh MMm SSs" (or "MMm SSs", "S.sss s" below a minute), for long spans.
std::string formatDuration(int64_t ms);

// A ratio in [0, 1] as a percentage with two decimals: "45.67%".
std::string formatPercent(double ratio);

// Keeps at most `maxChars` UTF-8 characters, ending with "…" when cut (for legend labels).
std::string truncateUtf8(std::string_view s, size_t maxChars);

// Number of UTF-8 characters (code points) in `s`.
size_t utf8Length(std::string_view s);

}  // namespace spindle::report
