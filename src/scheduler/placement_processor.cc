// The `placement-processor` handler: YARN's PlacementConstraintProcessor on the allocate path.
// The call's SchedulingRequests are one batch for DefaultPlacementAlgorithm
// (placement/placement_algorithm.h); each placement is committed on its node by the scheduler
// (attemptAllocationOnNode); what the algorithm could not place or the scheduler refused is
// retried up to yarn.resourcemanager.placement-constraints.retry-attempts, then returned to the
// AM as rejected.
//
// Algorithm (per allocate call, attempt = 1):
//  1. The batch's requests, with what each still needs and the nodes it may not use, run through
//     the algorithm over every node in the cluster's order, starting one past the node of the
//     previous call's last placement (YARN restarts every batch at the first node of its node
//     list, a hash map's order: first fit, so a batch walks across every full node at the start
//     of that order and its cost grows with the cluster; Spindle's walk rotates, next fit).
//  2. Each placement, in order: the constraints are checked again on the real tags (YARN's
//     CapacityScheduler.attemptAllocationOnNode does), then the scheduler commits one container
//     there (queue and user limits, room on the node). A refusal retries with that node
//     blacklisted for the request while attempt < retry-attempts, else it is rejected
//     COULD_NOT_SCHEDULE_ON_NODE.
//  3. Allocations the algorithm could not place retry while attempt < retry-attempts, else are
//     rejected COULD_NOT_PLACE_ON_NODE.
//  4. The retries of one attempt form the next batch (attempt + 1).
// Difference from YARN: the algorithm runs synchronously inside the allocate event and retries
// run at once (YARN computes on a thread pool and re-dispatches retries on the app's next
// allocate call), so the outcome of a call is in that call's Outcome, deterministically.
#include <algorithm>

#include <fmt/format.h>

#include "placement/placement_algorithm.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduler_placement.h"

namespace spindle {

namespace {

struct Pending {
  SchedulerKey key;
  int32_t count = 0;
  std::vector<NodeId> blacklist;
};

void addPending(std::vector<Pending>& list, const SchedulerKey& key, int32_t count,
                std::optional<NodeId> blacklist) {
  auto it = std::find_if(list.begin(), list.end(), [&](const Pending& p) { return p.key == key; });
  if (it == list.end()) {
    list.push_back({key, 0, {}});
    it = list.end() - 1;
  }
  it->count += count;
  if (blacklist &&
      std::find(it->blacklist.begin(), it->blacklist.end(), *blacklist) == it->blacklist.end()) {
    it->blacklist.push_back(*blacklist);
  }
}

// Every live node in the cluster's order rotated to start at `origin`, read when the algorithm
// visits it.
class SchedulerCandidates final : public placement::CandidateNodes {
 public:
  SchedulerCandidates(const Cluster& cluster, const SchedulerPlacement& p, size_t origin)
      : cluster_(cluster), p_(p), origin_(p.nodes().empty() ? 0 : origin % p.nodes().size()) {}
  size_t size() const override { return p_.nodes().size(); }
  placement::CandidateNode at(size_t i) const override {
    const Node& n = cluster_.node(p_.nodes()[position(i)]);
    return {p_.context(n), n.unallocated()};
  }
  // The cluster-order position of candidate i.
  size_t position(size_t i) const {
    const size_t j = origin_ + i;
    return j < size() ? j : j - size();
  }

 private:
  const Cluster& cluster_;
  const SchedulerPlacement& p_;
  size_t origin_;
};

}  // namespace

void Scheduler::runPlacementProcessor(Application& app, const std::vector<SchedulerKey>& keys) {
  SchedulerPlacement& p = *placement_;
  const int32_t maxAttempts = settings_.placement.retryAttempts;
  std::vector<Pending> batch;
  for (const SchedulerKey& k : keys) {
    addPending(batch, k, p.request(app.id(), k)->request.sizing->numAllocations, std::nullopt);
  }
  const SchedulerCandidates nodes(cluster_, p, p.processorOrigin());
  std::optional<size_t> lastPlaced;
  for (int32_t attempt = 1; !batch.empty(); ++attempt) {
    const bool retry = attempt < maxAttempts;
    std::vector<placement::BatchRequest> requests;
    requests.reserve(batch.size());
    for (const Pending& b : batch) {
      const SchedulerPlacement::StoredRequest& r = *p.request(app.id(), b.key);
      requests.push_back({app.id(), &r.request.allocationTags, b.count, r.request.sizing->resource,
                          r.levels, b.blacklist});
    }
    const placement::BatchResult result = placement::placeBatch(
        requests, nodes, settings_.placement.order, calculator(), p.mutableTags(), p.attributes());
    if (result.lastPlacedIndex) lastPlaced = nodes.position(*result.lastPlacedIndex);
    std::vector<Pending> next;
    for (const placement::BatchPlacement& placed : result.placed) {
      const SchedulerKey key = batch[placed.request].key;
      const SchedulerPlacement::StoredRequest& r = *p.request(app.id(), key);
      const Node& node = cluster_.node(placed.node);
      bool committed =
          placement::canSatisfy(r.levels, app.id(), p.context(node), p.tags(), p.attributes());
      if (committed) {
        ResourceRequest any{key,
                            std::string(kAnyResourceName),
                            r.request.sizing->resource,
                            1,
                            true,
                            node.partition()};
        (void)app.asks().update({any});
        onAsksChanged(app);
        committed = attemptAllocationOnNode(app, key, placed.node);
        if (!committed) {
          any.numContainers = 0;
          (void)app.asks().update({any});
          onAsksChanged(app);
        }
      }
      if (committed) continue;
      if (retry) {
        addPending(next, key, 1, placed.node);
      } else {
        rejectSchedulingRequest(app, r.request, 1, RejectionReason::kCouldNotScheduleOnNode,
                                fmt::format("the scheduler could not allocate on {} (attempt {})",
                                            node.name(), attempt));
      }
    }
    for (const placement::BatchRejection& x : result.rejected) {
      const SchedulerKey key = batch[x.request].key;
      if (retry) {
        addPending(next, key, x.count, std::nullopt);
      } else {
        rejectSchedulingRequest(app, p.request(app.id(), key)->request, x.count,
                                RejectionReason::kCouldNotPlaceOnNode,
                                fmt::format("no node satisfies the constraints with room for the "
                                            "request (attempt {})",
                                            attempt));
      }
    }
    batch = std::move(next);
  }
  if (lastPlaced) p.setProcessorOrigin(*lastPlaced + 1);
}

}  // namespace spindle
