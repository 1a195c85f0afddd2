#include "sim/placement_tracker.h"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

namespace spindle::sim {

void PlacementTracker::allocated(ContainerId id, uint32_t job, const std::vector<std::string>& tags,
                                 uint32_t node, const std::string& rack) {
  ++placed_;
  for (const std::string& tag : tags) {
    Spread& s = table_[{job, tag, rack}];
    ++s.placed;
    s.peakLive = std::max(s.peakLive, ++s.live);
    s.peakNode = std::max(s.peakNode, ++nodeLive_[{job, tag, node}]);
  }
  live_[id] = Live{job, tags, node, rack};
}

void PlacementTracker::finished(ContainerId id) {
  auto it = live_.find(id);
  if (it == live_.end()) return;
  const Live& l = it->second;
  for (const std::string& tag : l.tags) {
    --table_[{l.job, tag, l.rack}].live;
    --nodeLive_[{l.job, tag, l.node}];
  }
  live_.erase(it);
}

Status PlacementTracker::writeCsv(const std::string& path,
                                  const std::vector<std::string>& jobIds) const {
  std::string out = "job,tag,rack,placed,peak_live,peak_per_node\n";
  for (const auto& [key, s] : table_) {
    const auto& [job, tag, rack] = key;
    const std::string& id = job < jobIds.size() ? jobIds[job] : std::string();
    std::string field;
    if (id.find_first_of(",\"\n") == std::string::npos) {
      field = id;
    } else {  // RFC 4180, as jobs.csv
      field.push_back('"');
      for (char c : id) {
        if (c == '"') field.push_back('"');
        field.push_back(c);
      }
      field.push_back('"');
    }
    out += fmt::format("{},{},{},{},{},{}\n", field, tag, rack, s.placed, s.peakLive, s.peakNode);
  }
  std::ofstream f(path);
  if (!f) return invalidArgument("cannot write {}", path);
  f << out;
  f.close();
  if (!f) return internalError("writing {} failed", path);
  return Status::ok();
}

}  // namespace spindle::sim
