#include "protocol/json_fields.h"

#include <limits>

#include "base/json_parse.h"

namespace spindle::protocol {

using nlohmann::json;

namespace {

const json& emptyObject() {
  static const json kEmpty = json::object();
  return kEmpty;
}

std::string shortDump(const json& v) { return briefJson(v); }

}  // namespace

JsonFields::JsonFields(const json& j, std::string path)
    : JsonFields(j, std::move(path), std::make_shared<Status>()) {}

JsonFields::JsonFields(const json& j, std::string path, std::shared_ptr<Status> error)
    : j_(&j), path_(std::move(path)), error_(std::move(error)) {
  if (!j_->is_object() && error_->isOk()) {
    *error_ = invalidArgument("{}: expected an object, got {}", path_, shortDump(*j_));
  }
}

std::string JsonFields::pathOf(std::string_view key) const {
  return path_ + "." + std::string(key);
}

void JsonFields::fail(std::string_view key, std::string_view what) {
  if (error_->isOk()) *error_ = invalidArgument("{}: {}", pathOf(key), what);
}

bool JsonFields::has(std::string_view key) const {
  if (!j_->is_object()) return false;
  auto it = j_->find(key);
  return it != j_->end() && !it->is_null();
}

const json* JsonFields::member(std::string_view key, bool required) {
  if (!j_->is_object()) return nullptr;
  auto it = j_->find(key);
  if (it == j_->end() || it->is_null()) {
    if (required) fail(key, "required field is missing");
    return nullptr;
  }
  return &*it;
}

std::string JsonFields::str(std::string_view key) {
  const json* v = member(key, true);
  if (v == nullptr) return {};
  if (!v->is_string()) {
    fail(key, "expected a string, got " + shortDump(*v));
    return {};
  }
  return v->get<std::string>();
}

std::string JsonFields::str(std::string_view key, std::string_view def) {
  if (!has(key)) return std::string(def);
  return str(key);
}

namespace {

// A number written as text: `parse` (std::stoll, std::stod) must take the whole string.
template <typename Parse>
auto parseWholeText(const json& v, Parse parse)
    -> std::optional<decltype(parse(std::string(), nullptr))> {
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  size_t used = 0;
  try {
    auto n = parse(s, &used);
    if (used == s.size() && !s.empty()) return n;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

int64_t JsonFields::int64(std::string_view key) {
  const json* v = member(key, true);
  if (v == nullptr) return 0;
  if (v->is_number_integer()) return v->get<int64_t>();
  // Jersey sometimes writes numbers as strings ("memory":"1024"); accept whole numbers only.
  auto whole = [](const std::string& s, size_t* used) { return std::stoll(s, used); };
  if (auto n = parseWholeText(*v, whole)) return *n;
  fail(key, "expected an integer, got " + shortDump(*v));
  return 0;
}

int64_t JsonFields::int64(std::string_view key, int64_t def) {
  if (!has(key)) return def;
  return int64(key);
}

int32_t JsonFields::int32(std::string_view key) {
  const int64_t n = int64(key);
  if (n < std::numeric_limits<int32_t>::min() || n > std::numeric_limits<int32_t>::max()) {
    fail(key, "out of the 32-bit range: " + std::to_string(n));
    return 0;
  }
  return static_cast<int32_t>(n);
}

int32_t JsonFields::int32(std::string_view key, int32_t def) {
  if (!has(key)) return def;
  return int32(key);
}

double JsonFields::number(std::string_view key, double def) {
  const json* v = member(key, false);
  if (v == nullptr) return def;
  if (v->is_number()) return v->get<double>();
  // As int64: a number written as a string ("0.5", an XML body's text).
  auto number = [](const std::string& s, size_t* used) { return std::stod(s, used); };
  if (auto n = parseWholeText(*v, number)) return *n;
  fail(key, "expected a number, got " + shortDump(*v));
  return def;
}

bool JsonFields::boolean(std::string_view key, bool def) {
  const json* v = member(key, false);
  if (v == nullptr) return def;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_string() && (*v == "true" || *v == "false")) return *v == "true";
  fail(key, "expected true or false, got " + shortDump(*v));
  return def;
}

std::vector<std::string> JsonFields::strings(std::string_view key) {
  const json* v = member(key, false);
  std::vector<std::string> out;
  if (v == nullptr) return out;
  if (v->is_string()) {
    out.push_back(v->get<std::string>());
    return out;
  }
  if (!v->is_array()) {
    fail(key, "expected a list of strings, got " + shortDump(*v));
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) {
      fail(std::string(key) + "[" + std::to_string(i) + "]",
           "expected a string, got " + shortDump((*v)[i]));
      return {};
    }
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> JsonFields::stringMap(std::string_view key) {
  const json* v = member(key, false);
  std::map<std::string, std::string> out;
  if (v == nullptr) return out;
  if (!v->is_object()) {
    fail(key, "expected an object of strings, got " + shortDump(*v));
    return out;
  }
  for (const auto& [k, x] : v->items()) {
    if (!x.is_string()) {
      fail(std::string(key) + "." + k, "expected a string, got " + shortDump(x));
      return {};
    }
    out.emplace(k, x.get<std::string>());
  }
  return out;
}

JsonFields JsonFields::object(std::string_view key) {
  const json* v = member(key, true);
  return JsonFields(v != nullptr ? *v : emptyObject(), pathOf(key), error_);
}

std::optional<JsonFields> JsonFields::optObject(std::string_view key) {
  const json* v = member(key, false);
  if (v == nullptr) return std::nullopt;
  return JsonFields(*v, pathOf(key), error_);
}

std::vector<JsonFields> JsonFields::objects(std::string_view key) {
  const json* v = member(key, false);
  std::vector<JsonFields> out;
  if (v == nullptr) return out;
  if (v->is_object()) {
    out.push_back(JsonFields(*v, pathOf(key), error_));
    return out;
  }
  if (!v->is_array()) {
    fail(key, "expected a list of objects, got " + shortDump(*v));
    return out;
  }
  out.reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i) {
    out.push_back(JsonFields((*v)[i], pathOf(key) + "[" + std::to_string(i) + "]", error_));
  }
  return out;
}

Result<json> parseJsonBody(std::string_view body, std::string_view what) {
  if (body.empty()) return invalidArgument("{}: the request body is empty", what);
  json j;
  if (std::optional<JsonParseError> e = parseJson(body, j)) {
    // The byte is 1-based, as nlohmann's parse_error counts it.
    return invalidArgument("{}: malformed JSON at byte {}{}", what, e->offset + 1,
                           e->message.starts_with("syntax error") ? "" : ": " + e->message);
  }
  return j;
}

}  // namespace spindle::protocol
