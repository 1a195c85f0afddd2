#include "trace/json_fields.h"

#include <charconv>
#include <cmath>

#include "base/strings.h"

namespace spindle {

using nlohmann::json;

namespace {

// Blanks around a number in a string field; a newline inside is not accepted.
std::string_view trimmed(std::string_view s) { return trimView(s, " \t"); }

std::optional<double> jsonToDouble(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (!j.is_string()) return std::nullopt;
  std::string_view s = trimmed(j.get_ref<const std::string&>());
  double d = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return d;
}

}  // namespace

std::optional<int64_t> jsonToInt(const json& j) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      return std::nullopt;
    }
    return j.get<int64_t>();
  }
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9.2e18) {
      return static_cast<int64_t>(d);
    }
    return std::nullopt;
  }
  if (!j.is_string()) return std::nullopt;
  std::string_view s = trimmed(j.get_ref<const std::string&>());
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

bool JsonFields::has(std::string_view key) const {
  if (!j_->is_object()) return false;
  auto it = j_->find(key);
  return it != j_->end() && !it->is_null();
}

Result<std::optional<int64_t>> JsonFields::optInt(std::string_view key) const {
  if (!has(key)) return std::optional<int64_t>();
  const nlohmann::json& v = at(key);
  std::optional<int64_t> i = jsonToInt(v);
  if (!i) return error(key, "expected an integer, got {}", briefJson(v));
  return i;
}

Result<int64_t> JsonFields::requiredInt(std::string_view key) const {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> v, optInt(key));
  if (!v) return error(key, "missing (required)");
  return *v;
}

Result<int64_t> JsonFields::intOr(std::string_view key, int64_t def) const {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<int64_t> v, optInt(key));
  return v.value_or(def);
}

Result<std::optional<double>> JsonFields::optDouble(std::string_view key) const {
  if (!has(key)) return std::optional<double>();
  const nlohmann::json& v = at(key);
  std::optional<double> d = jsonToDouble(v);
  if (!d || !std::isfinite(*d)) return error(key, "expected a number, got {}", briefJson(v));
  return d;
}

Result<double> JsonFields::doubleOr(std::string_view key, double def) const {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<double> v, optDouble(key));
  return v.value_or(def);
}

Result<std::optional<std::string>> JsonFields::optString(std::string_view key) const {
  if (!has(key)) return std::optional<std::string>();
  const nlohmann::json& v = at(key);
  if (v.is_string()) return std::optional<std::string>(v.get<std::string>());
  if (v.is_number() || v.is_boolean()) return std::optional<std::string>(v.dump());
  return error(key, "expected a string, got {}", briefJson(v));
}

Result<std::string> JsonFields::requiredString(std::string_view key) const {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> v, optString(key));
  if (!v) return error(key, "missing (required)");
  std::string out = *v;
  return out;
}

Result<std::string> JsonFields::stringOr(std::string_view key, std::string_view def) const {
  SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> v, optString(key));
  if (!v) return std::string(def);
  std::string out = *v;
  return out;
}

}  // namespace spindle
