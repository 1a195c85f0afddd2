// The allocation tag store: how many live allocations carry each tag, per node and per rack,
// per application and over all applications. Mirrors YARN's AllocationTagsManager, with the
// temporary tags of the placement algorithm (LocalAllocationTagsManager) beside it.
//
//   AllocationTagsManager tags;
//   const std::vector<std::string> rs = {"hbase-rs"};
//   tags.addContainer(NodeId{0}, RackId{0}, containerId, rs);      // on allocation
//   tags.nodeCardinality(NodeId{0}, AppId{1}, "hbase-rs");         // 1
//   tags.rackCardinality(RackId{0}, std::nullopt, "hbase-rs");     // 1 (all applications)
//   tags.nodeCardinality(NodeId{0}, AppSet::allBut(AppId{1}), rs, CardinalityOp::kMax);  // 0
//   tags.removeContainer(NodeId{0}, containerId, rs);              // on completion
//   tags.removeNode(NodeId{0});                                    // on node loss
//
// Algorithm and cost. Tags are interned to dense ids on first sight. Each node and each rack
// (indexed directly by NodeId / RackId, which the cluster hands out densely) holds two
// open-addressing hash maps (flat_count_map.h: no allocation per entry): (application, tag) ->
// count and tag -> count over all applications. So
//  1. a count for one application, or for all applications, is one hash lookup: O(1);
//  2. "every application but A" (namespace not-self) is the all-applications count minus A's:
//     O(1), where YARN sums the maps of every other known application;
//  3. a set of applications (namespace app-tag) sums one lookup per application in the set;
//  4. an update (allocation, completion) touches the node, its rack and the application's entry:
//     O(number of tags) lookups, independent of the number of nodes or containers;
//  5. node loss walks that node's entries only.
// A query never visits another node or rack, so the cost of a constraint check does not grow
// with the cluster.
//
// Invariants (checkInvariants()):
//  1. every stored count is > 0 (entries reaching 0 are erased, as YARN erases them);
//  2. a node's (and rack's) tag -> count equals the sum over applications of its
//     (application, tag) -> count;
//  3. a rack's counts equal the sum of the counts of the nodes recorded on that rack;
//  4. an application's per-node (per-rack) entry count equals the number of its tags with a
//     positive count on that node (rack); applications and nodes with nothing are absent.
//
// Containers themselves are not tracked, only tag counts: a container with tags {a, b} adds 1 to
// a and 1 to b. A node's rack is the one given when its first tag arrives and stays until the
// node holds no tag. Removing a tag that is not there is ignored (YARN logs a warning); the
// return value says whether everything was found.
//
// Not thread-safe: the scheduler core is single-threaded (YARN guards the maps with a lock).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/ids.h"
#include "base/status.h"
#include "placement/flat_count_map.h"
#include "placement/tag_namespace.h"

namespace spindle::placement {

// The fold YARN applies over the counts of several tags (Math::min, Math::max, Integer::sum).
enum class CardinalityOp { kMin, kMax, kSum };

// The applications a count covers: a namespace resolved for one requesting application.
class AppSet {
 public:
  enum class Kind { kAll, kOne, kAllBut, kMany };
  static AppSet all() { return AppSet(Kind::kAll, AppId{}, {}); }
  static AppSet one(AppId app) { return AppSet(Kind::kOne, app, {}); }
  static AppSet allBut(AppId app) { return AppSet(Kind::kAllBut, app, {}); }
  static AppSet many(std::vector<AppId> apps) {
    return AppSet(Kind::kMany, AppId{}, std::move(apps));
  }

  Kind kind() const { return kind_; }
  AppId app() const { return app_; }
  const std::vector<AppId>& apps() const { return apps_; }

 private:
  AppSet(Kind kind, AppId app, std::vector<AppId> apps)
      : kind_(kind), app_(app), apps_(std::move(apps)) {}
  Kind kind_;
  AppId app_;
  std::vector<AppId> apps_;
};

class AllocationTagsManager {
 public:
  using TagId = uint32_t;
  static constexpr TagId kNoTag = UINT32_MAX;

  // ---- Updates ----

  // +1 per tag on the node, its rack and the application (RM container START / recovery). An
  // empty tag list changes nothing.
  void addTags(NodeId node, RackId rack, AppId app, std::span<const std::string> tags);
  // -1 per tag; returns false when some tag was not there (the rest are still removed).
  bool removeTags(NodeId node, AppId app, std::span<const std::string> tags);
  void addContainer(NodeId node, RackId rack, ContainerId c, std::span<const std::string> tags) {
    addTags(node, rack, c.app(), tags);
  }
  bool removeContainer(NodeId node, ContainerId c, std::span<const std::string> tags) {
    return removeTags(node, c.app(), tags);
  }
  // The node is lost: every tag on it goes (its containers will not report completion).
  void removeNode(NodeId node);

  // The application's tags (ApplicationSubmissionContext applicationTags), for app-tag/.
  void setApplicationTags(AppId app, std::vector<std::string> applicationTags);
  void removeApplication(AppId app);

  // ---- Queries ----

  // Live allocations with `tag` on the node / rack, for one application or (nullopt) all.
  int64_t nodeCardinality(NodeId node, std::optional<AppId> app, std::string_view tag) const;
  int64_t rackCardinality(RackId rack, std::optional<AppId> app, std::string_view tag) const;
  // YARN's getNodeCardinalityByOp / getRackCardinalityByOp: the counts of `tags` for the
  // applications in `apps`, folded with `op` (the first tag seeds, a missing tag counts 0). An
  // empty `tags` folds over every tag those applications have there (0 when none).
  int64_t nodeCardinality(NodeId node, const AppSet& apps, std::span<const std::string> tags,
                          CardinalityOp op) const;
  int64_t rackCardinality(RackId rack, const AppSet& apps, std::span<const std::string> tags,
                          CardinalityOp op) const;

  // The applications a namespace key names for the requesting application `current`; errors as
  // AllocationTagNamespace::parse.
  Result<AppSet> appSetFor(std::string_view namespaceKey, AppId current) const;
  AppSet appSetFor(const AllocationTagNamespace& ns, AppId current) const;

  // Applications that hold at least one tag, with their application tags (TargetApplications
  // for AllocationTagNamespace::evaluate).
  TargetApplications targetApplications(std::optional<AppId> current) const;

  // Every tag on the node with its count over all applications, sorted by tag (node reports).
  std::vector<std::pair<std::string, int64_t>> tagsWithCount(NodeId node) const;
  // The rack recorded for the node, invalid when it holds no tag.
  RackId rackOf(NodeId node) const;

  // ---- Size of the maps (YARN's test of memory after cleanup) ----
  size_t nodesWithTags() const { return nodesWithTags_; }
  size_t racksWithTags() const { return racksWithTags_; }
  size_t applicationsWithTags() const { return apps_.size(); }
  size_t nodesWithTags(AppId app) const;
  size_t racksWithTags(AppId app) const;

  Status checkInvariants() const;

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  // One node or one rack.
  struct Counts {
    FlatCountMap<uint64_t> byAppTag;  // (app << 32 | tag) -> count
    FlatCountMap<TagId> byTag;        // tag -> count over all applications
  };
  struct AppEntry {
    FlatCountMap<uint32_t> nodes;  // node -> number of tags with a count
    FlatCountMap<uint32_t> racks;  // rack -> number of tags with a count
  };

  static uint64_t key(AppId app, TagId tag) { return (uint64_t{app.value()} << 32) | tag; }
  TagId findTag(std::string_view tag) const;
  TagId internTag(std::string_view tag);
  const Counts* nodeCounts(NodeId node) const;
  const Counts* rackCounts(RackId rack) const;
  // +delta on one scope; returns the (app, tag) count before and after.
  static std::pair<int32_t, int32_t> bump(Counts& c, AppId app, TagId tag, int32_t delta);
  void change(NodeId node, RackId rack, AppId app, TagId tag, int32_t delta);
  static int64_t count(const Counts& c, const AppSet& apps, TagId tag);
  static int64_t fold(const Counts& c, const AppSet& apps, std::span<const TagId> tags,
                      CardinalityOp op);
  int64_t foldNamed(const Counts* c, const AppSet& apps, std::span<const std::string> tags,
                    CardinalityOp op) const;

  std::vector<std::string> tagNames_;
  std::unordered_map<std::string, TagId, StringHash, std::equal_to<>> tagIds_;
  std::vector<Counts> nodes_;
  std::vector<RackId> nodeRack_;
  std::vector<Counts> racks_;
  size_t nodesWithTags_ = 0;
  size_t racksWithTags_ = 0;
  std::unordered_map<AppId, AppEntry> apps_;
  std::unordered_map<AppId, std::vector<std::string>> applicationTags_;
  std::unordered_map<std::string, std::vector<AppId>, StringHash, std::equal_to<>> appsByTag_;
};

// Temporary tags of the placement algorithm (LocalAllocationTagsManager): tags written straight
// into the real store so that later checks in the same batch see earlier placements, and
// remembered so that they can be taken out again. The destructor removes whatever is left.
//
//   TemporaryAllocationTags temp(tags);
//   temp.addTempTags(node, rack, app, {"foo"});   // visible to every query
//   temp.cleanTempContainers(app);                // gone again
class TemporaryAllocationTags {
 public:
  explicit TemporaryAllocationTags(AllocationTagsManager& real) : real_(real) {}
  ~TemporaryAllocationTags();
  TemporaryAllocationTags(const TemporaryAllocationTags&) = delete;
  TemporaryAllocationTags& operator=(const TemporaryAllocationTags&) = delete;

  void addTempTags(NodeId node, RackId rack, AppId app, std::span<const std::string> tags);
  // Undoes one addTempTags; tags not added as temporary are left alone.
  void removeTempTags(NodeId node, AppId app, std::span<const std::string> tags);
  void cleanTempContainers(AppId app);

 private:
  struct Entry {
    AppId app;
    NodeId node;
    std::string tag;
    int32_t count = 0;
  };
  AllocationTagsManager& real_;
  std::vector<Entry> entries_;  // small: one batch
};

}  // namespace spindle::placement
