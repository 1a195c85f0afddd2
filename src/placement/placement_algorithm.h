// The placement processor's algorithm: YARN's DefaultPlacementAlgorithm over one batch of
// scheduling requests, with its node walk (CircularIterator) and request orders (the SERIAL and
// POPULAR_TAGS iterators of BatchedRequests).
//
//   CandidateList nodes(candidates);                    // every node, the scheduler's order
//   std::vector<BatchRequest> batch = ...;              // one per scheduling request
//   BatchResult r = placeBatch(batch, nodes, RequestOrder::kSerial, calculator, tags,
//                              attributes);
//   for (const BatchPlacement& p : r.placed) commit(batch[p.request], p.node);
//   for (const BatchRejection& x : r.rejected) retryOrReject(batch[x.request], x.count);
//
// Algorithm (DefaultPlacementAlgorithm.place):
//  1. Up to two passes (YARN's hard-coded RE_ATTEMPT_COUNT); what is unplaced or invalidated
//     after the first pass is the second pass's batch.
//  2. doPlacement: requests in the chosen order. One node position is shared by the whole pass;
//     each request walks the nodes circularly, starting with the node of the last placement
//     (visited twice: placements stick to it, which helps affinity), then from the shared
//     position, wrapping once. A node takes one allocation when it is not blacklisted for the
//     request's first tag, the request's resource fits what the batch left of the node, and the
//     constraints hold with every earlier placement of the batch visible as temporary tags.
//  3. validatePlacement: each placement's temporary tags are taken out and its constraints
//     checked again (resources aside); a placement that no longer holds (e.g. "bar NOTIN foo"
//     placed before the foo) is dropped and its request goes to the next pass.
//  4. The temporary tags are removed at the end: the real tags appear when the scheduler
//     allocates.
// Difference from YARN: the batch's own resource tracking subtracts a placement from the
// node's room (YARN's code adds it, which looks inverted; the reference says not to copy it).
// Evaluation errors (a bad namespace) read as "not satisfied", as YARN's algorithm logs and
// skips them.
//
// Cost: O(requests x allocations x nodes visited); each visit reads the node, makes one resource
// comparison and one constraint evaluation (O(1) per tag, see evaluator.h). Nodes no walk
// visits cost nothing. Not thread-safe (it writes temporary
// tags into the store it is given).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "placement/allocation_tags.h"
#include "placement/constraint.h"
#include "placement/evaluator.h"
#include "placement/node_attributes.h"
#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle::placement {

// YARN's CircularIterator over positions 0..size-1: `first` (if any) comes first, then the
// positions from `position` (where a shared iterator stands; size means exhausted, which starts
// over at 0) to the end, then from 0 up to `position`. So every position is visited once and
// `first` possibly twice.
//
//   CircularWalk w(std::nullopt, 4, 2);   // visits 2 3 0 1
//   while (w.hasNext()) use(w.next());
class CircularWalk {
 public:
  // InvalidArgument for an empty list (YARN's constructor fails on it).
  static Result<CircularWalk> create(std::optional<size_t> first, size_t size, size_t position);
  bool hasNext() const { return pendingFirst_ || visited_ < size_; }
  size_t next();
  // Where the shared iterator stands after the walk: just past the last position visited before
  // wrapping; `size` (exhausted) once the walk wrapped.
  size_t sharedPosition() const { return shared_; }

 private:
  CircularWalk(std::optional<size_t> first, size_t size, size_t position);
  std::optional<size_t> first_;
  bool pendingFirst_ = false;
  size_t size_ = 0;
  size_t start_ = 0;
  size_t visited_ = 0;
  size_t shared_ = 0;
};

// yarn.resourcemanager.placement-constraints.algorithm.iterator.
enum class RequestOrder { kSerial, kPopularTags };
// "SERIAL" / "POPULAR_TAGS" (as YARN's enum names); InvalidArgument otherwise with YARN's
// "Could not instantiate Placement Algorithm Iterator: <value>".
Result<RequestOrder> parseRequestOrder(std::string_view text);
const char* toString(RequestOrder order);

// The order in which a batch's requests are tried, as indexes into `tagsOfRequest`: SERIAL is the
// batch order; POPULAR_TAGS sorts by descending popularity (a request's popularity is the largest
// number of requests in the batch carrying one of its tags), ties in batch order
// (BatchedRequests.PopularTagsIterator).
std::vector<size_t> requestOrder(std::span<const std::vector<std::string>* const> tagsOfRequest,
                                 RequestOrder order);

// A node the algorithm may choose, with what is unallocated on it now.
struct CandidateNode {
  NodeContext context;
  Resource available;
};

// Every node the algorithm may choose, in the scheduler's order, read one at a time: a batch
// touches only the nodes its walks visit, so its cost does not grow with the cluster.
class CandidateNodes {
 public:
  virtual ~CandidateNodes() = default;
  virtual size_t size() const = 0;
  virtual CandidateNode at(size_t i) const = 0;
};

// The candidates as a list.
class CandidateList final : public CandidateNodes {
 public:
  explicit CandidateList(std::span<const CandidateNode> nodes) : nodes_(nodes) {}
  size_t size() const override { return nodes_.size(); }
  CandidateNode at(size_t i) const override { return nodes_[i]; }

 private:
  std::span<const CandidateNode> nodes_;
};

// One scheduling request of the batch.
struct BatchRequest {
  AppId app;
  const std::vector<std::string>* tags = nullptr;  // the request's allocation tags (not null)
  int32_t numAllocations = 0;
  Resource resource;
  // The multi-level constraints (constraint_manager.h); pointers owned by the caller.
  std::vector<const PlacementConstraint*> constraints;
  // Nodes this request may not use (after a failed commit there; YARN keys the blacklist by the
  // request's first tag).
  std::vector<NodeId> blacklist;
};

struct BatchPlacement {
  size_t request;  // index into the batch
  NodeId node;
};
struct BatchRejection {
  size_t request;
  int32_t count;  // allocations that found no node
};
struct BatchResult {
  std::vector<BatchPlacement> placed;  // one per allocation, in placement order
  std::vector<BatchRejection> rejected;
  // The candidate index of the last placement kept (none when nothing was placed).
  std::optional<size_t> lastPlacedIndex;
};

BatchResult placeBatch(std::span<const BatchRequest> batch, const CandidateNodes& nodes,
                       RequestOrder order, const ResourceCalculator& calculator,
                       AllocationTagsManager& tags, const NodeAttributes& attributes);

}  // namespace spindle::placement
