#include "scheduler/fair/config/allocation_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/strings.h"

namespace spindle::fair::alloc {
namespace {

template <typename T>
Result<T> parseInteger(std::string_view text, const char* what) {
  std::string_view s = text;
  if (s.starts_with('+')) {
    s.remove_prefix(1);
    if (s.starts_with('-')) return invalidArgument("'{}' is not {}", text, what);
  }
  T value{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) {
    return invalidArgument("'{}' is not {}", text, what);
  }
  return value;
}

}  // namespace

ParseState::ParseState(std::string source, std::string_view text, const ResourceTypes& types)
    : source_(std::move(source)), types_(types) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') newlines_.push_back(static_cast<ptrdiff_t>(i));
  }
}

int ParseState::lineOf(const pugi::xml_node& node) const {
  const ptrdiff_t offset = node.offset_debug();
  if (offset < 0) return 0;
  auto passed = std::lower_bound(newlines_.begin(), newlines_.end(), offset);
  return 1 + static_cast<int>(passed - newlines_.begin());
}

std::string ParseState::where(const pugi::xml_node& node, std::string_view context) const {
  std::string out = fmt::format("{}:{}: <{}>", source_, lineOf(node), node.name());
  if (!context.empty()) out += fmt::format(" ({})", context);
  return out;
}

void ParseState::error(const pugi::xml_node& node, std::string_view context,
                       std::string_view message) {
  errors_.emplace_back(lineOf(node), fmt::format("{}: {}", where(node, context), message));
}

void ParseState::warn(const pugi::xml_node& node, std::string_view context,
                      std::string_view message) {
  warnings_.push_back(fmt::format("{}: {}", where(node, context), message));
}

void ParseState::errorAt(int line, std::string_view message) {
  errors_.emplace_back(line, fmt::format("{}:{}: {}", source_, line, message));
}

Status ParseState::toStatus() const {
  if (errors_.empty()) return Status::ok();
  std::vector<std::pair<int, std::string>> sorted = errors_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [line, message] : sorted) {
    if (!out.empty()) out += '\n';
    out += message;
  }
  return invalidArgument("{}", out);
}

std::optional<std::string> elementText(const pugi::xml_node& node, bool keepSpaces) {
  const pugi::xml_node first = node.first_child();
  if (!first || (first.type() != pugi::node_pcdata && first.type() != pugi::node_cdata)) {
    return std::nullopt;
  }
  std::string_view text = first.value();
  if (!keepSpaces) text = trimView(text, kJavaSpace);
  return std::string(text);
}

Result<int32_t> parseJavaInt(std::string_view text) {
  return parseInteger<int32_t>(text, "an integer");
}

Result<int64_t> parseJavaLong(std::string_view text) {
  return parseInteger<int64_t>(text, "a long integer");
}

Result<float> parseJavaFloat(std::string_view text) {
  std::string s(trimView(text, kJavaSpace));
  if (!s.empty() && std::string_view("fFdD").find(s.back()) != std::string_view::npos) s.pop_back();
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' ||
           c == 'e' || c == 'E';
  });
  char* end = nullptr;
  const float value = plain ? std::strtof(s.c_str(), &end) : 0.0f;
  if (!plain || end != s.c_str() + s.size()) return invalidArgument("'{}' is not a number", text);
  return value;
}

Result<bool> parseStrictBool(std::string_view text) {
  std::string lower(trimView(text, kJavaSpace));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return invalidArgument("'{}' is not a boolean (true or false)", text);
}

}  // namespace spindle::fair::alloc
