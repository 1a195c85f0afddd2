#include "scheduler/capacity/queue_placement.h"

namespace spindle {
namespace {

// Replaces every placeholder in `target`; nullopt-like empty when a placeholder has no value.
std::string substitute(const std::string& target, const PlacementRequest& req,
                       const std::string& secondary) {
  std::string out;
  size_t start = 0;
  while (start <= target.size()) {
    size_t dot = target.find('.', start);
    if (dot == std::string::npos) dot = target.size();
    std::string part = target.substr(start, dot - start);
    if (part == "%user") {
      part = req.user;
    } else if (part == "%primary_group") {
      part = req.groups.empty() ? "" : req.groups.front();
    } else if (part == "%secondary_group") {
      part = secondary;
    } else if (part == "%application") {
      part = req.appName;
    }
    if (part.empty()) return "";
    if (!out.empty()) out.push_back('.');
    out += part;
    start = dot + 1;
  }
  return out;
}

std::string resolveTarget(const std::string& target, const PlacementRequest& req,
                          const std::function<bool(const std::string&)>& exists) {
  if (target.find("%secondary_group") == std::string::npos) {
    return substitute(target, req, "");
  }
  for (size_t i = 1; i < req.groups.size(); ++i) {
    std::string q = substitute(target, req, req.groups[i]);
    if (!q.empty() && exists(q)) return q;
  }
  return "";
}

}  // namespace

std::string placeQueue(const CapacityConfig& cfg, const PlacementRequest& req,
                       const std::function<bool(const std::string&)>& queueExists) {
  if (req.queue != "default" && !cfg.queueMappingsOverride) return req.queue;
  for (const QueueMapping& m : cfg.queueMappings) {
    bool matches = false;
    if (m.kind == MappingKind::kUser) {
      matches = m.source == "%user" || m.source == req.user;
    } else {
      for (const std::string& g : req.groups) matches = matches || g == m.source;
    }
    if (!matches) continue;
    std::string q = resolveTarget(m.queue, req, queueExists);
    if (!q.empty()) return q;
  }
  for (const auto& [appName, queue] : cfg.appNameMappings) {
    if (appName != "%application" && appName != req.appName) continue;
    std::string q = resolveTarget(queue, req, queueExists);
    if (!q.empty()) return q;
  }
  return req.queue;
}

}  // namespace spindle
