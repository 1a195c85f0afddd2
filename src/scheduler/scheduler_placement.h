// The scheduler's placement-constraint state: the allocation tags of live containers, the
// nodes' attributes, the apps' registered constraints and their SchedulingRequests, and the node
// filter's PlacementCheck that evaluates them (node_filter.h). The Scheduler creates it the first
// time something uses placement (a SchedulingRequest, registered constraints, a tagged
// container), so a cluster without constraints pays nothing on its allocation paths.
//
//   SchedulerPlacement& p = ...;                 // Scheduler::ensurePlacement()
//   p.storeRequest(app, request, /*schedulerHandled=*/true);
//   nodeFilter.setPlacementCheck(&p);            // FIFO, Capacity and Fair ask it per key
//   p.containerAllocated(container);             // the request's tags enter the store
//   p.containerFinished(container);              // and leave it
//
// What it mirrors in YARN: AllocationTagsManager updated on the RM container's START and
// finish and on node loss (RMContainerImpl, AbstractYarnScheduler); NodeAttributesManager fed by
// the node's attributes; PlacementConstraintManagerService holding the apps' constraints; and
// SingleConstraintAppPlacementAllocator.precheckNode / canAllocate (the check). The check
// answers true at once for keys that hold no scheduler-handled SchedulingRequest (every
// ResourceRequest): one vector index and one small map lookup per (app, key, node).
//
// Invariants (checkInvariants): the tag store's own; every tagged live container's tags are
// counted on its node (the store's per-node totals equal the sum over tagged containers).
// Not thread-safe: the scheduler core is single-threaded.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "app/container.h"
#include "cluster/cluster.h"
#include "placement/allocation_tags.h"
#include "placement/constraint_manager.h"
#include "placement/evaluator.h"
#include "placement/node_attributes.h"
#include "scheduler/node_filter.h"
#include "scheduler/scheduling_request.h"

namespace spindle {

class SchedulerPlacement final : public PlacementCheck {
 public:
  // One outstanding SchedulingRequest of an app, at its scheduler key.
  struct StoredRequest {
    SchedulingRequest request;
    // [request, app, global] constraints (PlacementConstraintManager::constraintsFor); the
    // pointers stay valid while the request and the app's registration live.
    std::vector<const placement::PlacementConstraint*> levels;
    // The scheduler handler places it through the node filter; the placement processor's
    // requests are placed by the algorithm and only committed by the scheduler.
    bool schedulerHandled = false;
    // The node partition the request targets (its top-level partition target; "" = default).
    std::string partition;
  };

  // Reads the cluster's current nodes (racks and attributes).
  explicit SchedulerPlacement(const Cluster& cluster);

  // ---- PlacementCheck ----
  bool satisfied(const Application& app, const SchedulerKey& key, const Node& node) const override;
  std::string explain(const Application& app, const SchedulerKey& key,
                      const Node& node) const override;

  // ---- Cluster ----
  // The node's rack and attributes (keys "prefix/name" or "name" = rm.yarn.io/name).
  void nodeAdded(const Node& node);
  // The node's attributes changed (NodeAttributesUpdate): the store takes its new sets.
  void nodeAttributesChanged(const Node& node);
  // Its attributes and every tag on it go (node loss).
  void nodeRemoved(NodeId node);
  placement::NodeContext context(const Node& node) const;
  // Live nodes in id order (the cluster's order), kept here so that the placement processor
  // reads one node at a time instead of copying the list per batch.
  const std::vector<NodeId>& nodes() const { return nodes_; }
  // Where the placement processor's next batch starts its walk over nodes(): one past the node of
  // the previous batch's last placement (taken modulo the number of nodes when read).
  size_t processorOrigin() const { return processorOrigin_; }
  void setProcessorOrigin(size_t position) { processorOrigin_ = position; }
  // The rack's id in the tag store; invalid for a rack no node was added on.
  RackId rackId(std::string_view rack) const;

  // ---- Containers ----
  // A container allocated for a SchedulingRequest gets the request's tags (RM container START).
  void containerAllocated(const Container& c);
  // A container placed directly (recovered) with its tags.
  void containerPlaced(const Container& c, std::vector<std::string> tags);
  // Completion, release or kill: its tags leave the store.
  void containerFinished(const Container& c);
  // The live container's tags; empty for an untagged one.
  const std::vector<std::string>& containerTags(ContainerId c) const;

  // ---- Applications ----
  void setApplicationTags(AppId app, std::vector<std::string> applicationTags);
  // RegisterApplicationMaster's constraints; returns the entries ignored (keys without exactly
  // one tag). A second registration keeps the first (YARN).
  size_t registerApplication(AppId app,
                             const placement::PlacementConstraintManager::SourceTagConstraints& c);
  // The cluster's global constraint for requests whose only tag is `tag` (configuration).
  void addGlobalConstraint(const std::string& tag, placement::PlacementConstraint c) {
    constraints_.addGlobalConstraint(tag, std::move(c), true);
  }
  // The app finished: its requests, registration and application tags go.
  void appRemoved(AppId app);
  // The attempt ended: its requests go (the asks are dropped with them).
  void dropRequests(AppId app);

  // ---- Requests ----
  const StoredRequest* request(AppId app, const SchedulerKey& key) const;
  StoredRequest* mutableRequest(AppId app, const SchedulerKey& key);
  // Stores (or replaces) the request at its key and resolves its constraint levels.
  StoredRequest& storeRequest(AppId app, SchedulingRequest request, bool schedulerHandled);
  // The app's requests, by key.
  const std::map<SchedulerKey, StoredRequest>* requestsOf(AppId app) const;

  const placement::AllocationTagsManager& tags() const { return tags_; }
  placement::AllocationTagsManager& mutableTags() { return tags_; }
  const placement::NodeAttributes& attributes() const { return attributes_; }
  const placement::PlacementConstraintManager& constraints() const { return constraints_; }

  Status checkInvariants() const;

 private:
  struct AppPlacement {
    std::map<SchedulerKey, StoredRequest> requests;
    size_t schedulerHandled = 0;  // requests with schedulerHandled set
  };
  AppPlacement* appOrNull(AppId app) const {
    return app.value() < apps_.size() ? apps_[app.value()].get() : nullptr;
  }
  void resolveLevels(AppId app, StoredRequest& r) const;

  placement::AllocationTagsManager tags_;
  placement::NodeAttributes attributes_;
  placement::PlacementConstraintManager constraints_;
  std::vector<std::unique_ptr<AppPlacement>> apps_;  // by AppId value
  struct TaggedContainer {
    NodeId node;
    std::vector<std::string> tags;
  };
  std::unordered_map<ContainerId, TaggedContainer> containerTags_;  // tagged, live
  std::vector<RackId> rackOfNode_;                                  // by NodeId value
  std::vector<NodeId> nodes_;                                       // live, ascending
  size_t processorOrigin_ = 0;
  std::unordered_map<std::string, RackId> rackIds_;
};

// The partition a SchedulingRequest targets: the value of its top-level SingleConstraint's
// yarn_node_partition/ target ("" without one). InvalidArgument for more than one value
// (SingleConstraintAppPlacementAllocator: "Inside one targetExpression, we only support
// affinity to at most one node partition now").
Result<std::string> targetPartition(const SchedulingRequest& request);

}  // namespace spindle
