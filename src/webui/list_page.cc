#include "webui/list_page.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

#include <fmt/ranges.h>

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

const std::vector<std::string> kAppRowFields = {"id",
                                                "name",
                                                "user",
                                                "queue",
                                                "state",
                                                "finalStatus",
                                                "applicationType",
                                                "applicationTags",
                                                "priority",
                                                "allocatedMB",
                                                "allocatedVCores",
                                                "runningContainers",
                                                "startedTime",
                                                "launchTime",
                                                "finishedTime",
                                                "elapsedTime"};
const std::vector<std::string> kNodeRowFields = {"id",
                                                 "rack",
                                                 "state",
                                                 "nodeHostName",
                                                 "nodeHTTPAddress",
                                                 "healthStatus",
                                                 "healthReport",
                                                 "nodeLabels",
                                                 "nodeAttributesInfo",
                                                 "numContainers",
                                                 "usedMemoryMB",
                                                 "availMemoryMB",
                                                 "usedVirtualCores",
                                                 "availableVirtualCores",
                                                 "lastHealthUpdate"};

json rowOf(const json& entry, const std::vector<std::string>& fields) {
  json row = json::object();
  for (const std::string& f : fields) {
    if (auto it = entry.find(f); it != entry.end()) row[f] = *it;
  }
  return row;
}

std::map<std::string, std::string> withoutPageParams(std::map<std::string, std::string> q) {
  for (const char* k : {"sort", "desc", "offset", "limit", "q"}) q.erase(k);
  return q;
}

Result<json> listPage(const json& entries, const std::map<std::string, std::string>& q) {
  return listPage(entries, q, {}, [&entries](size_t i) { return entries[i]; });
}

Result<json> listPage(const json& entries, const std::map<std::string, std::string>& q,
                      const std::vector<std::string>& fields,
                      const std::function<json(size_t)>& full) {
  if (auto it = q.find("sort");
      it != q.end() && !it->second.empty() && !fields.empty() &&
      std::find(fields.begin(), fields.end(), it->second) == fields.end()) {
    return invalidArgument("sort: '{}' is not one of the list's fields ({})", it->second,
                           fmt::join(fields, ", "));
  }
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
  const json* first = entries.is_array() && !entries.empty() ? &entries[0] : nullptr;
  if (auto it = q.find("sort"); it != q.end() && !it->second.empty()) {
    // Each row's key looked up once, not at every comparison.
    static const json kNull;
    std::vector<std::pair<const json*, const json*>> keyed;  // (key, row)
    keyed.reserve(rows.size());
    for (const json* r : rows) {
      auto f = r->find(it->second);
      keyed.emplace_back(f == r->end() ? &kNull : &*f, r);
    }
    std::stable_sort(keyed.begin(), keyed.end(), [desc](const auto& a, const auto& b) {
      return desc ? less(*b.first, *a.first) : less(*a.first, *b.first);
    });
    for (size_t k = 0; k < keyed.size(); ++k) rows[k] = keyed[k].second;
  }
  json items = json::array();
  const auto total = static_cast<int64_t>(rows.size());
  for (int64_t i = offset; i < total && i < offset + limit; ++i) {
    items.push_back(full(static_cast<size_t>(rows[i] - first)));
  }
  return json{{"total", total}, {"offset", offset}, {"items", std::move(items)}};
}

json nodeSummary(const json& nodes) {
  std::map<std::string, int64_t> byState, byPartition, byAttribute;
  int64_t total = 0;
  for (const json& n : nodes.is_array() ? nodes : json::array()) {
    ++total;
    auto field = [&n](const char* key) -> const json* {
      auto it = n.find(key);
      return it == n.end() ? nullptr : &*it;
    };
    const json* state = field("state");
    ++byState[state && state->is_string() ? state->get<std::string>() : ""];
    const json* labels = field("nodeLabels");
    ++byPartition[labels && labels->is_array() && !labels->empty() && (*labels)[0].is_string()
                      ? (*labels)[0].get<std::string>()
                      : "DEFAULT"];
    const json* info = field("nodeAttributesInfo");
    if (info == nullptr || !info->is_object()) continue;
    auto attrs = info->find("nodeAttributeInfo");
    if (attrs == info->end() || !attrs->is_array()) continue;
    for (const json& a : *attrs) {
      ++byAttribute[a.value("prefix", "") + "/" + a.value("name", "") + "=" + a.value("value", "")];
    }
  }
  return {{"total", total},
          {"byState", byState},
          {"byPartition", byPartition},
          {"byAttribute", byAttribute}};
}

}  // namespace spindle::webui
