#include "scenario/json_reader.h"

#include <charconv>
#include <cmath>

#include "base/json_parse.h"

namespace spindle {

using nlohmann::json;

namespace {
std::string brief(const json& j) { return briefJson(j); }
}  // namespace

bool JsonReader::has(std::string_view key) const { return j_->is_object() && j_->contains(key); }

std::string JsonReader::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

Result<JsonReader> JsonReader::child(std::string_view key) const {
  if (!j_->is_object()) return error("expected an object, got {}", brief(*j_));
  auto it = j_->find(key);
  if (it == j_->end()) return error("missing required field '{}'", key);
  return JsonReader(*it, pathOf(key));
}

JsonReader JsonReader::at(size_t i) const {
  return JsonReader((*j_)[i], fmt::format("{}[{}]", path_, i));
}

Status JsonReader::expectObject() const {
  return j_->is_object() ? Status::ok() : error("expected an object, got {}", brief(*j_));
}

Status JsonReader::expectArray() const {
  return j_->is_array() ? Status::ok() : error("expected an array, got {}", brief(*j_));
}

Status JsonReader::onlyKeys(const std::set<std::string>& allowed) const {
  SPINDLE_RETURN_IF_ERROR(expectObject());
  for (const auto& [k, v] : j_->items()) {
    if (!allowed.count(k)) return error("unknown field '{}'", k);
  }
  return Status::ok();
}

Result<std::string> JsonReader::getString(std::string_view key) const {
  SPINDLE_ASSIGN_OR_RETURN(JsonReader c, child(key));
  if (!c.json().is_string()) return c.error("expected a string, got {}", brief(c.json()));
  return c.json().get<std::string>();
}

Result<std::string> JsonReader::getString(std::string_view key, std::string_view def) const {
  if (!has(key)) return std::string(def);
  return getString(key);
}

Result<int64_t> JsonReader::getInt(std::string_view key) const {
  SPINDLE_ASSIGN_OR_RETURN(JsonReader c, child(key));
  const nlohmann::json& v = c.json();
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return c.error("integer out of the 64-bit range, got {}", brief(v));
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    // 2^63 is exact as a double; anything at or beyond it does not fit an int64_t.
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.2e18) {
      return static_cast<int64_t>(d);
    }
  }
  return c.error("expected an integer, got {}", brief(v));
}

Result<int64_t> JsonReader::getInt(std::string_view key, int64_t def) const {
  if (!has(key)) return def;
  return getInt(key);
}

Result<double> JsonReader::getDouble(std::string_view key, double def) const {
  if (!has(key)) return def;
  SPINDLE_ASSIGN_OR_RETURN(JsonReader c, child(key));
  if (!c.json().is_number()) return c.error("expected a number, got {}", brief(c.json()));
  return c.json().get<double>();
}

Result<bool> JsonReader::getBool(std::string_view key, bool def) const {
  if (!has(key)) return def;
  SPINDLE_ASSIGN_OR_RETURN(JsonReader c, child(key));
  if (!c.json().is_boolean()) return c.error("expected true or false, got {}", brief(c.json()));
  return c.json().get<bool>();
}

Result<std::vector<std::string>> JsonReader::getStrings(std::string_view key) const {
  std::vector<std::string> out;
  if (!has(key)) return out;
  SPINDLE_ASSIGN_OR_RETURN(JsonReader c, child(key));
  SPINDLE_RETURN_IF_ERROR(c.expectArray());
  for (size_t i = 0; i < c.json().size(); ++i) {
    if (!c.json()[i].is_string()) return c.at(i).error("expected a string");
    out.push_back(c.json()[i].get<std::string>());
  }
  return out;
}

Result<int64_t> parseDurationMs(const json& j, std::string_view path) {
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return invalidArgument("{}: duration out of the 64-bit range", path);
  }
  if (j.is_number_integer()) {
    if (j.get<int64_t>() < 0) return invalidArgument("{}: negative duration", path);
    return j.get<int64_t>();
  }
  if (!j.is_string()) return invalidArgument("{}: expected a duration, got {}", path, brief(j));
  const std::string s = j.get<std::string>();
  int64_t n = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || n < 0) {
    return invalidArgument("{}: '{}' is not a duration like 500ms, 5s, 2m", path, s);
  }
  std::string_view unit(ptr, s.data() + s.size() - ptr);
  const std::pair<std::string_view, int64_t> units[] = {
      {"", 1}, {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}};
  for (const auto& [u, scale] : units) {
    if (unit != u) continue;
    if (n > INT64_MAX / scale) return invalidArgument("{}: '{}' is out of range", path, s);
    return n * scale;
  }
  return invalidArgument("{}: unknown duration unit '{}' in '{}'", path, unit, s);
}

}  // namespace spindle
