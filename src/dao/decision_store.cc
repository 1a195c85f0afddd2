#include "dao/decision_store.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "app/application.h"
#include "dao/decision_json.h"

namespace spindle {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string text(const json& d, const char* key) {
  auto it = d.find(key);
  return it != d.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool contains(const json& d, const char* key, const std::string& needle) {
  return lower(text(d, key)).find(needle) != std::string::npos;
}

constexpr int64_t kDefaultLimit = 200;
constexpr int64_t kMaxLimit = 5000;

}  // namespace

void DecisionStore::add(json decision) {
  const std::string kind = text(decision, "kind");
  if (kind == "skip") lastSkip_[text(decision, "app")] = decision;
  // An app that got a container is not waiting for that reason any more.
  if (kind == "allocate" || kind == "app-finished") lastSkip_.erase(text(decision, "app"));
  Entry& e = ring_.push();
  e.line = std::move(decision);
  e.seq = 0;
  e.appName.clear();
}

void DecisionStore::add(const Scheduler& sched, const DecisionRecord& d, size_t seq) {
  sched_ = &sched;
  Entry& e = ring_.push();
  e.line = nullptr;
  e.decision.assign(d);
  e.seq = seq;
  if (const Application* a = sched.findApp(d.app)) {
    e.appName.assign(a->submission().name);
  } else {
    e.appName.clear();
  }
  if (d.kind == DecisionKind::kSkip) lastSkipRecord_[d.app.value()] = e;
  if (d.kind == DecisionKind::kAllocate || d.kind == DecisionKind::kAppFinished) {
    lastSkipRecord_.erase(d.app.value());
  }
}

json DecisionStore::render(const Entry& e) const {
  if (sched_ == nullptr || !e.line.is_null()) return e.line;
  json j = decisionToJson(*sched_, e.decision, e.seq);
  if (j.contains("appName")) j["appName"] = e.appName;
  return j;
}

Result<json> DecisionStore::query(const std::map<std::string, std::string>& q) const {
  auto get = [&q](const char* k) {
    auto it = q.find(k);
    return it == q.end() ? std::string() : lower(it->second);
  };
  int64_t limit = kDefaultLimit;
  if (auto it = q.find("limit"); it != q.end()) {
    const std::string& v = it->second;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), limit);
    if (ec != std::errc() || end != v.data() + v.size() || limit <= 0) {
      return invalidArgument("limit: '{}' is not a positive number", v);
    }
    limit = std::min(limit, kMaxLimit);
  }
  const std::string app = get("app"), node = get("node"), queue = get("queue"), kind = get("kind"),
                    reason = get("reason");
  json out = json::array();
  int64_t total = 0;
  const bool filtered =
      !app.empty() || !node.empty() || !queue.empty() || !kind.empty() || !reason.empty();
  for (auto it = ring_.rbegin(); it != ring_.rend(); ++it) {
    if (!filtered) {  // only the page is rendered
      if (total >= limit) break;
      ++total;
      out.push_back(render(*it));
      continue;
    }
    // A line is read in place; a record is rendered to be matched.
    json rendered;
    const json& d = it->line.is_null() ? (rendered = render(*it)) : it->line;
    if (!app.empty() && !contains(d, "app", app)) continue;
    if (!node.empty() && !contains(d, "node", node)) continue;
    if (!queue.empty() && !contains(d, "queue", queue)) continue;
    if (!kind.empty() && lower(text(d, "kind")) != kind) continue;
    if (!reason.empty() && !contains(d, "reason", reason) && !contains(d, "skip", reason) &&
        !contains(d, "rejection", reason)) {
      continue;
    }
    if (total++ < limit) out.push_back(d);
  }
  if (!filtered) total = static_cast<int64_t>(ring_.size());
  return json{
      {"decisions", {{"total", total}, {"kept", ring_.size()}, {"decision", std::move(out)}}}};
}

json DecisionStore::appDecisions(const std::string& app) const {
  json list = json::array();
  for (const Entry& e : ring_) {
    // A record names its app by id: only its own decisions are rendered.
    if (e.line.is_null() && sched_ != nullptr) {
      if (sched_->appIdString(e.decision.app) == app) list.push_back(render(e));
    } else if (text(e.line, "app") == app) {
      list.push_back(e.line);
    }
  }
  json why = nullptr;
  if (auto skip = lastSkip_.find(app); skip != lastSkip_.end()) why = skip->second;
  for (const auto& [id, e] : lastSkipRecord_) {
    if (sched_->appIdString(AppId(id)) == app) why = render(e);
  }
  return json{{"appDecisions",
               {{"app", app}, {"whyPending", std::move(why)}, {"decision", std::move(list)}}}};
}

void DecisionStoreSink::record(const DecisionRecord& d) { store_.add(sched_, d, seq_++); }

}  // namespace spindle
