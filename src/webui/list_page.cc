#include "webui/list_page.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace spindle::webui {

using nlohmann::json;

namespace {

constexpr int64_t kDefaultLimit = 50;
constexpr int64_t kMaxLimit = 1000;

Result<int64_t> number(const std::map<std::string, std::string>& q, const char* key, int64_t dflt) {
  auto it = q.find(key);
  if (it == q.end()) return dflt;
  int64_t v = 0;
  const std::string& s = it->second;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0) {
    return invalidArgument("{}: '{}' is not a number of 0 or more", key, s);
  }
  return v;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Numbers before strings before anything else; missing (null) first.
bool less(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() < b.get<double>();
  if (a.is_string() && b.is_string())
    return a.get_ref<const std::string&>() < b.get_ref<const std::string&>();
  auto rank = [](const json& v) {
    return v.is_null() ? 0 : v.is_number() ? 1 : v.is_string() ? 2 : 3;
  };
  return rank(a) < rank(b);
}

}  // namespace

std::map<std::string, std::string> withoutPageParams(std::map<std::string, std::string> q) {
  for (const char* k : {"sort", "desc", "offset", "limit", "q"}) q.erase(k);
  return q;
}

Result<json> listPage(const json& entries, const std::map<std::string, std::string>& q) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t offset, number(q, "offset", 0));
  SPINDLE_ASSIGN_OR_RETURN(int64_t limit, number(q, "limit", kDefaultLimit));
  if (limit == 0) return invalidArgument("limit: must be at least 1");
  limit = std::min(limit, kMaxLimit);
  bool desc = false;
  if (auto it = q.find("desc"); it != q.end()) {
    if (it->second != "true" && it->second != "false") {
      return invalidArgument("desc: '{}' is neither true nor false", it->second);
    }
    desc = it->second == "true";
  }
  const std::string needle = q.contains("q") ? lower(q.at("q")) : "";
  std::vector<const json*> rows;
  if (entries.is_array()) {
    rows.reserve(entries.size());
    for (const json& e : entries) {
      if (!needle.empty() && lower(e.dump()).find(needle) == std::string::npos) continue;
      rows.push_back(&e);
    }
  }
  if (auto it = q.find("sort"); it != q.end() && !it->second.empty()) {
    const std::string key = it->second;
    static const json kNull;
    auto field = [&key](const json* e) -> const json& {
      auto f = e->find(key);
      return f == e->end() ? kNull : *f;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const json* a, const json* b) {
      return desc ? less(field(b), field(a)) : less(field(a), field(b));
    });
  }
  json items = json::array();
  const auto total = static_cast<int64_t>(rows.size());
  for (int64_t i = offset; i < total && i < offset + limit; ++i) items.push_back(*rows[i]);
  return json{{"total", total}, {"offset", offset}, {"items", std::move(items)}};
}

}  // namespace spindle::webui
