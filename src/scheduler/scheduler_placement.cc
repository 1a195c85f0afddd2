#include "scheduler/scheduler_placement.h"

#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace spindle {

using placement::kNodePartitionKey;
using placement::PlacementConstraint;
using placement::TargetExpression;
using placement::TargetType;

namespace {

const std::vector<std::string> kNoTags;

// "rm.yarn.io/java" -> {rm.yarn.io, java}; "java" -> {rm.yarn.io, java}.
placement::NodeAttribute attributeOf(const std::string& key, const std::string& value) {
  placement::NodeAttribute a;
  const size_t slash = key.find('/');
  a.prefix = slash == std::string::npos ? std::string(placement::kCentralizedPrefix)
                                        : key.substr(0, slash);
  a.name = slash == std::string::npos ? key : key.substr(slash + 1);
  a.value = value;
  return a;
}

// The node's attributes: {centralised, distributed}.
std::pair<std::vector<placement::NodeAttribute>, std::vector<placement::NodeAttribute>>
splitAttributes(const Node& node) {
  std::pair<std::vector<placement::NodeAttribute>, std::vector<placement::NodeAttribute>> out;
  for (const auto& [key, value] : node.attributes()) {
    placement::NodeAttribute a = attributeOf(key, value);
    (a.prefix == placement::kDistributedPrefix ? out.second : out.first).push_back(std::move(a));
  }
  return out;
}

}  // namespace

Result<std::string> targetPartition(const SchedulingRequest& request) {
  if (!request.constraint) return std::string();
  const std::vector<TargetExpression>* targets = nullptr;
  if (const auto* s = request.constraint->get<placement::SingleConstraint>()) targets = &s->targets;
  if (const auto* t = request.constraint->get<placement::TargetConstraint>()) targets = &t->targets;
  if (targets == nullptr) return std::string();
  for (const TargetExpression& t : *targets) {
    if (t.type != TargetType::kNodeAttribute || t.key != kNodePartitionKey) continue;
    if (t.values.size() > 1) {
      return invalidArgument(
          "allocationRequestId {}: Inside one targetExpression, we only support affinity to at "
          "most one node partition now",
          request.allocationRequestId);
    }
    return t.values.empty() ? std::string() : t.values.front();
  }
  return std::string();
}

SchedulerPlacement::SchedulerPlacement(const Cluster& cluster) {
  for (NodeId id : cluster.nodeIds()) nodeAdded(cluster.node(id));
}

// ---- PlacementCheck ----

bool SchedulerPlacement::satisfied(const Application& app, const SchedulerKey& key,
                                   const Node& node) const {
  const AppPlacement* a = appOrNull(app.id());
  if (a == nullptr || a->schedulerHandled == 0) return true;
  auto it = a->requests.find(key);
  if (it == a->requests.end() || !it->second.schedulerHandled) return true;
  return placement::canSatisfy(it->second.levels, app.id(), context(node), tags_, attributes_);
}

std::string SchedulerPlacement::explain(const Application& app, const SchedulerKey& key,
                                        const Node& node) const {
  const StoredRequest* r = request(app.id(), key);
  if (r == nullptr) return {};
  return fmt::format(
      "allocationRequestId {}: {}", key.allocationRequestId,
      placement::explainUnsatisfied(r->levels, app.id(), context(node), tags_, attributes_));
}

// ---- Cluster ----

void SchedulerPlacement::nodeAdded(const Node& node) {
  const size_t i = node.id().value();
  if (rackOfNode_.size() <= i) rackOfNode_.resize(i + 1);
  auto [it, added] =
      rackIds_.try_emplace(node.rack(), RackId(static_cast<uint32_t>(rackIds_.size())));
  rackOfNode_[i] = it->second;
  nodes_.insert(std::lower_bound(nodes_.begin(), nodes_.end(), node.id()), node.id());
  auto [centralized, distributed] = splitAttributes(node);
  // The Scheduler validated the prefixes when the node was added.
  if (!centralized.empty()) (void)attributes_.replaceCentralized(node.id(), std::move(centralized));
  if (!distributed.empty()) (void)attributes_.replaceDistributed(node.id(), std::move(distributed));
}

void SchedulerPlacement::nodeAttributesChanged(const Node& node) {
  auto [centralized, distributed] = splitAttributes(node);
  // Validated by the Scheduler; empty sets clear the node's previous ones.
  (void)attributes_.replaceCentralized(node.id(), std::move(centralized));
  (void)attributes_.replaceDistributed(node.id(), std::move(distributed));
}

void SchedulerPlacement::nodeRemoved(NodeId node) {
  auto it = std::lower_bound(nodes_.begin(), nodes_.end(), node);
  if (it != nodes_.end() && *it == node) nodes_.erase(it);
  tags_.removeNode(node);
  attributes_.removeNode(node);
}

placement::NodeContext SchedulerPlacement::context(const Node& node) const {
  const size_t i = node.id().value();
  return {node.id(), i < rackOfNode_.size() ? rackOfNode_[i] : RackId(), node.partition()};
}

RackId SchedulerPlacement::rackId(std::string_view rack) const {
  auto it = rackIds_.find(std::string(rack));
  return it == rackIds_.end() ? RackId() : it->second;
}

// ---- Containers ----

void SchedulerPlacement::containerAllocated(const Container& c) {
  const StoredRequest* r = request(c.id.app(), c.key);
  if (r == nullptr || r->request.allocationTags.empty()) return;
  containerPlaced(c, r->request.allocationTags);
}

void SchedulerPlacement::containerPlaced(const Container& c, std::vector<std::string> tags) {
  if (tags.empty()) return;
  const size_t i = c.node.value();
  tags_.addContainer(c.node, i < rackOfNode_.size() ? rackOfNode_[i] : RackId(), c.id, tags);
  containerTags_[c.id] = TaggedContainer{c.node, std::move(tags)};
}

void SchedulerPlacement::containerFinished(const Container& c) {
  auto it = containerTags_.find(c.id);
  if (it == containerTags_.end()) return;
  tags_.removeContainer(c.node, c.id, it->second.tags);
  containerTags_.erase(it);
}

const std::vector<std::string>& SchedulerPlacement::containerTags(ContainerId c) const {
  auto it = containerTags_.find(c);
  return it == containerTags_.end() ? kNoTags : it->second.tags;
}

// ---- Applications ----

void SchedulerPlacement::setApplicationTags(AppId app, std::vector<std::string> applicationTags) {
  tags_.setApplicationTags(app, std::move(applicationTags));
}

size_t SchedulerPlacement::registerApplication(
    AppId app, const placement::PlacementConstraintManager::SourceTagConstraints& c) {
  const size_t ignored = constraints_.registerApplication(app, c);
  if (AppPlacement* a = appOrNull(app)) {
    for (auto& [key, r] : a->requests) resolveLevels(app, r);
  }
  return ignored;
}

void SchedulerPlacement::appRemoved(AppId app) {
  dropRequests(app);
  constraints_.unregisterApplication(app);
  tags_.removeApplication(app);
}

void SchedulerPlacement::dropRequests(AppId app) {
  if (app.value() < apps_.size()) apps_[app.value()].reset();
}

// ---- Requests ----

const SchedulerPlacement::StoredRequest* SchedulerPlacement::request(
    AppId app, const SchedulerKey& key) const {
  const AppPlacement* a = appOrNull(app);
  if (a == nullptr) return nullptr;
  auto it = a->requests.find(key);
  return it == a->requests.end() ? nullptr : &it->second;
}

SchedulerPlacement::StoredRequest* SchedulerPlacement::mutableRequest(AppId app,
                                                                      const SchedulerKey& key) {
  return const_cast<StoredRequest*>(request(app, key));
}

SchedulerPlacement::StoredRequest& SchedulerPlacement::storeRequest(AppId app,
                                                                    SchedulingRequest request,
                                                                    bool schedulerHandled) {
  if (apps_.size() <= app.value()) apps_.resize(app.value() + 1);
  auto& slot = apps_[app.value()];
  if (!slot) slot = std::make_unique<AppPlacement>();
  const SchedulerKey key = request.key();
  auto [it, added] = slot->requests.try_emplace(key);
  StoredRequest& r = it->second;
  if (!added && r.schedulerHandled) --slot->schedulerHandled;
  Result<std::string> partition = targetPartition(request);  // checked by the Scheduler
  r.partition = partition ? *partition : std::string();
  r.request = std::move(request);
  r.schedulerHandled = schedulerHandled;
  if (schedulerHandled) ++slot->schedulerHandled;
  resolveLevels(app, r);
  return r;
}

const std::map<SchedulerKey, SchedulerPlacement::StoredRequest>* SchedulerPlacement::requestsOf(
    AppId app) const {
  const AppPlacement* a = appOrNull(app);
  return a == nullptr ? nullptr : &a->requests;
}

void SchedulerPlacement::resolveLevels(AppId app, StoredRequest& r) const {
  r.levels = constraints_.constraintsFor(app, r.request.allocationTags,
                                         r.request.constraint ? &*r.request.constraint : nullptr);
}

Status SchedulerPlacement::checkInvariants() const {
  SPINDLE_RETURN_IF_ERROR(tags_.checkInvariants());
  // The store holds exactly the tags of the tagged live containers: per (node, app, tag) the
  // counts agree, and no other node holds tags.
  std::map<std::tuple<uint32_t, uint32_t, std::string>, int64_t> expected;
  std::set<uint32_t> nodes;
  for (const auto& [id, tagged] : containerTags_) {
    nodes.insert(tagged.node.value());
    for (const std::string& t : tagged.tags) ++expected[{tagged.node.value(), id.app().value(), t}];
  }
  for (const auto& [k, count] : expected) {
    const auto& [node, app, tag] = k;
    const int64_t stored = tags_.nodeCardinality(NodeId(node), AppId(app), tag);
    if (stored != count) {
      return internalError(
          "allocation tag '{}' of app {} on node {}: the store counts {}, the "
          "live containers {}",
          tag, app, node, stored, count);
    }
  }
  if (tags_.nodesWithTags() != nodes.size()) {
    return internalError(
        "the allocation tag store holds tags on {} nodes, live tagged containers "
        "run on {}",
        tags_.nodesWithTags(), nodes.size());
  }
  return Status::ok();
}

}  // namespace spindle
