// The spread of tagged containers over a simulated run (placement.csv): for every job and
// allocation tag, per rack, how many containers were placed there, the most that were live in
// the rack at once and the most that were live on one of its nodes at once.
//
//   PlacementTracker t;
//   t.allocated(container, /*job=*/0, {"web"}, /*node=*/3, "/rack1");
//   t.finished(container);
//   SPINDLE_RETURN_IF_ERROR(t.writeCsv("out/placement.csv", jobIds));
//
// The engine keeps one only for a trace with placement keys (TraceTask::usesPlacement), so runs
// without them pay nothing. Peaks count live containers, so a constraint such as `notin,node,web`
// shows as peak_per_node 1 and `cardinality,rack,cache,0,2` as peak_live at most 3 (the
// container being placed is not counted by the constraint). Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/ids.h"
#include "base/status.h"

namespace spindle::sim {

class PlacementTracker {
 public:
  struct Spread {
    int64_t placed = 0;    // containers allocated in the rack over the run
    int64_t live = 0;      // live now
    int64_t peakLive = 0;  // most live at once in the rack
    int64_t peakNode = 0;  // most live at once on one node of the rack
  };
  // (job index, tag, rack) -> spread.
  using Table = std::map<std::tuple<uint32_t, std::string, std::string>, Spread>;

  void allocated(ContainerId id, uint32_t job, const std::vector<std::string>& tags, uint32_t node,
                 const std::string& rack);
  void finished(ContainerId id);

  const Table& table() const { return table_; }
  int64_t placed() const { return placed_; }  // tagged containers allocated

  // job,tag,rack,placed,peak_live,peak_per_node; rows by job index, tag, rack. `jobIds` names
  // the jobs by index.
  Status writeCsv(const std::string& path, const std::vector<std::string>& jobIds) const;

 private:
  struct Live {
    uint32_t job = 0;
    std::vector<std::string> tags;
    uint32_t node = 0;
    std::string rack;
  };
  Table table_;
  std::map<std::tuple<uint32_t, std::string, uint32_t>, int64_t> nodeLive_;
  std::unordered_map<ContainerId, Live> live_;
  int64_t placed_ = 0;
};

}  // namespace spindle::sim
