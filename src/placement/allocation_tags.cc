#include "placement/allocation_tags.h"

#include <algorithm>
#include <map>

namespace spindle::placement {

namespace {

AppId appOf(uint64_t key) { return AppId{static_cast<uint32_t>(key >> 32)}; }
uint32_t tagOf(uint64_t key) { return static_cast<uint32_t>(key & 0xffffffffu); }

int64_t combine(int64_t acc, int64_t value, CardinalityOp op) {
  switch (op) {
    case CardinalityOp::kMin: return std::min(acc, value);
    case CardinalityOp::kMax: return std::max(acc, value);
    case CardinalityOp::kSum: return acc + value;
  }
  return acc;
}

template <typename Key>
int32_t lookup(const std::unordered_map<Key, int64_t>& map, const Key& key) {
  auto it = map.find(key);
  return it == map.end() ? 0 : static_cast<int32_t>(it->second);
}

}  // namespace

AllocationTagsManager::TagId AllocationTagsManager::findTag(std::string_view tag) const {
  auto it = tagIds_.find(tag);
  return it == tagIds_.end() ? kNoTag : it->second;
}

AllocationTagsManager::TagId AllocationTagsManager::internTag(std::string_view tag) {
  auto it = tagIds_.find(tag);
  if (it != tagIds_.end()) return it->second;
  const TagId id = static_cast<TagId>(tagNames_.size());
  tagNames_.emplace_back(tag);
  tagIds_.emplace(std::string(tag), id);
  return id;
}

const AllocationTagsManager::Counts* AllocationTagsManager::nodeCounts(NodeId node) const {
  return node.valid() && node.value() < nodes_.size() ? &nodes_[node.value()] : nullptr;
}

const AllocationTagsManager::Counts* AllocationTagsManager::rackCounts(RackId rack) const {
  return rack.valid() && rack.value() < racks_.size() ? &racks_[rack.value()] : nullptr;
}

std::pair<int32_t, int32_t> AllocationTagsManager::bump(Counts& c, AppId app, TagId tag,
                                                        int32_t delta) {
  const auto perApp = c.byAppTag.add(key(app, tag), delta);
  c.byTag.add(tag, delta);
  return perApp;
}

void AllocationTagsManager::change(NodeId node, RackId rack, AppId app, TagId tag, int32_t delta) {
  Counts& n = nodes_[node.value()];
  Counts& r = racks_[rack.value()];
  const bool nodeWasEmpty = n.byTag.empty();
  const bool rackWasEmpty = r.byTag.empty();
  const auto [nodeBefore, nodeAfter] = bump(n, app, tag, delta);
  const auto [rackBefore, rackAfter] = bump(r, app, tag, delta);
  nodesWithTags_ += (nodeWasEmpty && !n.byTag.empty()) ? 1 : 0;
  nodesWithTags_ -= (!nodeWasEmpty && n.byTag.empty()) ? 1 : 0;
  racksWithTags_ += (rackWasEmpty && !r.byTag.empty()) ? 1 : 0;
  racksWithTags_ -= (!rackWasEmpty && r.byTag.empty()) ? 1 : 0;
  if (n.byTag.empty()) nodeRack_[node.value()] = RackId{};

  // The application's entry counts (node, tag) and (rack, tag) pairs that are present.
  const int nodeStep = (nodeBefore <= 0 && nodeAfter > 0) - (nodeBefore > 0 && nodeAfter <= 0);
  const int rackStep = (rackBefore <= 0 && rackAfter > 0) - (rackBefore > 0 && rackAfter <= 0);
  if (nodeStep == 0 && rackStep == 0) return;
  AppEntry& entry = apps_[app];
  if (nodeStep != 0) entry.nodes.add(node.value(), nodeStep);
  if (rackStep != 0) entry.racks.add(rack.value(), rackStep);
  if (entry.nodes.empty() && entry.racks.empty()) apps_.erase(app);
}

void AllocationTagsManager::addTags(NodeId node, RackId rack, AppId app,
                                    std::span<const std::string> tags) {
  if (tags.empty() || !node.valid() || !rack.valid()) return;
  if (node.value() >= nodes_.size()) {
    nodes_.resize(node.value() + 1);
    nodeRack_.resize(node.value() + 1);
  }
  if (!nodeRack_[node.value()].valid()) nodeRack_[node.value()] = rack;
  const RackId nodeRack = nodeRack_[node.value()];
  if (nodeRack.value() >= racks_.size()) racks_.resize(nodeRack.value() + 1);
  for (const std::string& tag : tags) change(node, nodeRack, app, internTag(tag), +1);
  // change() clears the node's rack when it empties, which +1 never does.
}

bool AllocationTagsManager::removeTags(NodeId node, AppId app, std::span<const std::string> tags) {
  const Counts* n = nodeCounts(node);
  bool allFound = true;
  for (const std::string& tag : tags) {
    const TagId id = findTag(tag);
    if (n == nullptr || id == kNoTag || n->byAppTag.get(key(app, id)) <= 0) {
      allFound = false;
      continue;
    }
    change(node, nodeRack_[node.value()], app, id, -1);
  }
  return allFound;
}

void AllocationTagsManager::removeNode(NodeId node) {
  const Counts* n = nodeCounts(node);
  if (n == nullptr || n->byAppTag.empty()) return;
  const RackId rack = nodeRack_[node.value()];
  std::vector<std::pair<uint64_t, int32_t>> entries;
  n->byAppTag.forEach([&](uint64_t k, int32_t c) { entries.emplace_back(k, c); });
  for (const auto& [k, c] : entries) change(node, rack, appOf(k), tagOf(k), -c);
}

void AllocationTagsManager::setApplicationTags(AppId app, std::vector<std::string> tags) {
  removeApplication(app);
  std::sort(tags.begin(), tags.end());
  tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
  for (const std::string& t : tags) appsByTag_[t].push_back(app);
  applicationTags_[app] = std::move(tags);
}

void AllocationTagsManager::removeApplication(AppId app) {
  auto it = applicationTags_.find(app);
  if (it == applicationTags_.end()) return;
  for (const std::string& t : it->second) {
    auto apps = appsByTag_.find(t);
    if (apps == appsByTag_.end()) continue;
    std::erase(apps->second, app);
    if (apps->second.empty()) appsByTag_.erase(apps);
  }
  applicationTags_.erase(it);
}

int64_t AllocationTagsManager::count(const Counts& c, const AppSet& apps, TagId tag) {
  switch (apps.kind()) {
    case AppSet::Kind::kAll: return c.byTag.get(tag);
    case AppSet::Kind::kOne: return c.byAppTag.get(key(apps.app(), tag));
    case AppSet::Kind::kAllBut: return c.byTag.get(tag) - c.byAppTag.get(key(apps.app(), tag));
    case AppSet::Kind::kMany: {
      int64_t sum = 0;
      for (AppId a : apps.apps()) sum += c.byAppTag.get(key(a, tag));
      return sum;
    }
  }
  return 0;
}

int64_t AllocationTagsManager::fold(const Counts& c, const AppSet& apps,
                                    std::span<const TagId> tags, CardinalityOp op) {
  if (!tags.empty()) {
    int64_t acc = count(c, apps, tags[0]);
    for (size_t i = 1; i < tags.size(); ++i) acc = combine(acc, count(c, apps, tags[i]), op);
    return acc;
  }
  // Every tag those applications have here: YARN folds over the (summed) per-app tag maps.
  std::optional<int64_t> acc;
  auto add = [&](int64_t value) { acc = acc ? combine(*acc, value, op) : value; };
  switch (apps.kind()) {
    case AppSet::Kind::kAll: c.byTag.forEach([&](TagId, int32_t n) { add(n); }); break;
    case AppSet::Kind::kOne:
      c.byAppTag.forEach([&](uint64_t k, int32_t n) {
        if (appOf(k) == apps.app()) add(n);
      });
      break;
    case AppSet::Kind::kAllBut:
      c.byTag.forEach([&](TagId tag, int32_t n) {
        const int64_t others = n - c.byAppTag.get(key(apps.app(), tag));
        if (others > 0) add(others);
      });
      break;
    case AppSet::Kind::kMany: {
      std::map<TagId, int64_t> summed;
      c.byAppTag.forEach([&](uint64_t k, int32_t n) {
        const auto& list = apps.apps();
        if (std::find(list.begin(), list.end(), appOf(k)) != list.end()) summed[tagOf(k)] += n;
      });
      for (const auto& [tag, n] : summed) add(n);
      break;
    }
  }
  return acc.value_or(0);
}

int64_t AllocationTagsManager::foldNamed(const Counts* c, const AppSet& apps,
                                         std::span<const std::string> tags,
                                         CardinalityOp op) const {
  if (c == nullptr) return 0;
  // Unknown tags stay as kNoTag, which no map holds: they count 0.
  constexpr size_t kInline = 8;
  TagId inlineIds[kInline];
  std::vector<TagId> heapIds;
  TagId* ids = inlineIds;
  if (tags.size() > kInline) {
    heapIds.resize(tags.size());
    ids = heapIds.data();
  }
  for (size_t i = 0; i < tags.size(); ++i) ids[i] = findTag(tags[i]);
  return fold(*c, apps, std::span<const TagId>(ids, tags.size()), op);
}

int64_t AllocationTagsManager::nodeCardinality(NodeId node, std::optional<AppId> app,
                                               std::string_view tag) const {
  const Counts* c = nodeCounts(node);
  const TagId id = findTag(tag);
  if (c == nullptr || id == kNoTag) return 0;
  return app ? c->byAppTag.get(key(*app, id)) : c->byTag.get(id);
}

int64_t AllocationTagsManager::rackCardinality(RackId rack, std::optional<AppId> app,
                                               std::string_view tag) const {
  const Counts* c = rackCounts(rack);
  const TagId id = findTag(tag);
  if (c == nullptr || id == kNoTag) return 0;
  return app ? c->byAppTag.get(key(*app, id)) : c->byTag.get(id);
}

int64_t AllocationTagsManager::nodeCardinality(NodeId node, const AppSet& apps,
                                               std::span<const std::string> tags,
                                               CardinalityOp op) const {
  return foldNamed(nodeCounts(node), apps, tags, op);
}

int64_t AllocationTagsManager::rackCardinality(RackId rack, const AppSet& apps,
                                               std::span<const std::string> tags,
                                               CardinalityOp op) const {
  return foldNamed(rackCounts(rack), apps, tags, op);
}

AppSet AllocationTagsManager::appSetFor(const AllocationTagNamespace& ns, AppId current) const {
  switch (ns.type()) {
    case NamespaceType::kSelf: return AppSet::one(current);
    case NamespaceType::kNotSelf: return AppSet::allBut(current);
    case NamespaceType::kAll: return AppSet::all();
    case NamespaceType::kAppId: return AppSet::one(ns.appId());
    case NamespaceType::kAppTag: {
      auto it = appsByTag_.find(ns.appTag());
      return AppSet::many(it == appsByTag_.end() ? std::vector<AppId>{} : it->second);
    }
  }
  return AppSet::one(current);
}

Result<AppSet> AllocationTagsManager::appSetFor(std::string_view namespaceKey,
                                                AppId current) const {
  // The common keys need no parsing.
  if (namespaceKey.empty() || namespaceKey == "self") return AppSet::one(current);
  if (namespaceKey == "all") return AppSet::all();
  if (namespaceKey == "not-self") return AppSet::allBut(current);
  Result<AllocationTagNamespace> ns = AllocationTagNamespace::parse(namespaceKey);
  if (!ns) return ns.status();
  return appSetFor(*ns, current);
}

TargetApplications AllocationTagsManager::targetApplications(std::optional<AppId> current) const {
  TargetApplications out;
  out.current = current;
  for (const auto& [app, entry] : apps_) {
    auto tags = applicationTags_.find(app);
    out.apps.push_back(
        {app, tags == applicationTags_.end() ? std::vector<std::string>{} : tags->second});
  }
  std::sort(out.apps.begin(), out.apps.end(),
            [](const KnownApplication& a, const KnownApplication& b) { return a.app < b.app; });
  return out;
}

std::vector<std::pair<std::string, int64_t>> AllocationTagsManager::tagsWithCount(
    NodeId node) const {
  std::vector<std::pair<std::string, int64_t>> out;
  if (const Counts* c = nodeCounts(node)) {
    c->byTag.forEach([&](TagId tag, int32_t n) { out.emplace_back(tagNames_[tag], n); });
  }
  std::sort(out.begin(), out.end());
  return out;
}

RackId AllocationTagsManager::rackOf(NodeId node) const {
  return node.valid() && node.value() < nodeRack_.size() ? nodeRack_[node.value()] : RackId{};
}

size_t AllocationTagsManager::nodesWithTags(AppId app) const {
  auto it = apps_.find(app);
  return it == apps_.end() ? 0 : it->second.nodes.size();
}

size_t AllocationTagsManager::racksWithTags(AppId app) const {
  auto it = apps_.find(app);
  return it == apps_.end() ? 0 : it->second.racks.size();
}

Status AllocationTagsManager::checkInvariants() const {
  auto checkScope = [](const Counts& c, std::string_view what, size_t index) -> Status {
    std::unordered_map<TagId, int64_t> summed;
    bool positive = true;
    c.byAppTag.forEach([&](uint64_t k, int32_t n) {
      positive = positive && n > 0;
      summed[tagOf(k)] += n;
    });
    c.byTag.forEach([&](TagId, int32_t n) { positive = positive && n > 0; });
    if (!positive) return internalError("{} {}: a stored count is not positive", what, index);
    if (summed.size() != c.byTag.size()) {
      return internalError("{} {}: {} tags per app, {} overall", what, index, summed.size(),
                           c.byTag.size());
    }
    Status status;
    c.byTag.forEach([&](TagId tag, int32_t n) {
      if (status && lookup(summed, tag) != n) {
        status = internalError("{} {}: tag {} overall {} != per-app sum {}", what, index, tag, n,
                               lookup(summed, tag));
      }
    });
    return status;
  };
  // Recomputed from the nodes: per rack (app, tag) sums, per app node and rack entry counts.
  std::vector<std::unordered_map<uint64_t, int64_t>> rackSums(racks_.size());
  std::unordered_map<AppId, std::pair<std::unordered_map<uint32_t, int64_t>,
                                      std::unordered_map<uint32_t, int64_t>>>
      apps;
  size_t nonEmptyNodes = 0;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    SPINDLE_RETURN_IF_ERROR(checkScope(nodes_[i], "node", i));
    if (nodes_[i].byTag.empty()) continue;
    ++nonEmptyNodes;
    const RackId rack = nodeRack_[i];
    if (!rack.valid() || rack.value() >= racks_.size()) {
      return internalError("node {} holds tags but has no rack", i);
    }
    nodes_[i].byAppTag.forEach([&](uint64_t k, int32_t n) {
      rackSums[rack.value()][k] += n;
      apps[appOf(k)].first[static_cast<uint32_t>(i)] += 1;
    });
  }
  size_t nonEmptyRacks = 0;
  for (size_t r = 0; r < racks_.size(); ++r) {
    SPINDLE_RETURN_IF_ERROR(checkScope(racks_[r], "rack", r));
    nonEmptyRacks += racks_[r].byTag.empty() ? 0 : 1;
    if (rackSums[r].size() != racks_[r].byAppTag.size()) {
      return internalError("rack {}: {} entries, its nodes hold {}", r, racks_[r].byAppTag.size(),
                           rackSums[r].size());
    }
    bool same = true;
    racks_[r].byAppTag.forEach([&](uint64_t k, int32_t n) {
      same = same && lookup(rackSums[r], k) == n;
      apps[appOf(k)].second[static_cast<uint32_t>(r)] += 1;
    });
    if (!same) return internalError("rack {}: a count differs from the sum of its nodes", r);
  }
  if (nonEmptyNodes != nodesWithTags_ || nonEmptyRacks != racksWithTags_) {
    return internalError("nodes/racks with tags {}/{}, counted {}/{}", nodesWithTags_,
                         racksWithTags_, nonEmptyNodes, nonEmptyRacks);
  }
  if (apps.size() != apps_.size()) {
    return internalError("{} applications recorded, {} hold tags", apps_.size(), apps.size());
  }
  auto sameEntries = [](const FlatCountMap<uint32_t>& have,
                        const std::unordered_map<uint32_t, int64_t>& want) {
    bool same = have.size() == want.size();
    have.forEach([&](uint32_t k, int32_t n) { same = same && lookup(want, k) == n; });
    return same;
  };
  for (const auto& [app, want] : apps) {
    auto it = apps_.find(app);
    if (it == apps_.end() || !sameEntries(it->second.nodes, want.first) ||
        !sameEntries(it->second.racks, want.second)) {
      return internalError("application {}: per-node or per-rack entry counts differ", app.value());
    }
  }
  return Status::ok();
}

TemporaryAllocationTags::~TemporaryAllocationTags() {
  for (const Entry& e : entries_) {
    for (int32_t i = 0; i < e.count; ++i) {
      const std::string tag[] = {e.tag};
      real_.removeTags(e.node, e.app, tag);
    }
  }
}

void TemporaryAllocationTags::addTempTags(NodeId node, RackId rack, AppId app,
                                          std::span<const std::string> tags) {
  real_.addTags(node, rack, app, tags);
  for (const std::string& tag : tags) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
      return e.app == app && e.node == node && e.tag == tag;
    });
    if (it == entries_.end()) {
      entries_.push_back({app, node, tag, 1});
    } else {
      ++it->count;
    }
  }
}

void TemporaryAllocationTags::removeTempTags(NodeId node, AppId app,
                                             std::span<const std::string> tags) {
  for (const std::string& tag : tags) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
      return e.app == app && e.node == node && e.tag == tag;
    });
    if (it == entries_.end()) continue;
    const std::string one[] = {tag};
    real_.removeTags(node, app, one);
    if (--it->count == 0) entries_.erase(it);
  }
}

void TemporaryAllocationTags::cleanTempContainers(AppId app) {
  std::vector<Entry> kept;
  for (Entry& e : entries_) {
    if (e.app != app) {
      kept.push_back(std::move(e));
      continue;
    }
    const std::string one[] = {e.tag};
    for (int32_t i = 0; i < e.count; ++i) real_.removeTags(e.node, e.app, one);
  }
  entries_ = std::move(kept);
}

}  // namespace spindle::placement
