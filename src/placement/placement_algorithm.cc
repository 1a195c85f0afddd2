#include "placement/placement_algorithm.h"

#include <algorithm>
#include <unordered_map>

namespace spindle::placement {

// ---- CircularWalk ----

CircularWalk::CircularWalk(std::optional<size_t> first, size_t size, size_t position)
    : first_(first),
      pendingFirst_(first.has_value()),
      size_(size),
      start_(position >= size ? 0 : position),
      shared_(start_) {}

Result<CircularWalk> CircularWalk::create(std::optional<size_t> first, size_t size,
                                          size_t position) {
  if (size == 0) return invalidArgument("a circular walk needs at least one element");
  return CircularWalk(first, size, position);
}

size_t CircularWalk::next() {
  if (pendingFirst_) {
    pendingFirst_ = false;
    return *first_;
  }
  const size_t i = (start_ + visited_) % size_;
  ++visited_;
  shared_ = start_ + visited_ <= size_ ? i + 1 : size_;
  return i;
}

// ---- Request order ----

Result<RequestOrder> parseRequestOrder(std::string_view text) {
  if (text == "SERIAL") return RequestOrder::kSerial;
  if (text == "POPULAR_TAGS") return RequestOrder::kPopularTags;
  return invalidArgument("Could not instantiate Placement Algorithm Iterator: {}", text);
}

const char* toString(RequestOrder order) {
  return order == RequestOrder::kSerial ? "SERIAL" : "POPULAR_TAGS";
}

std::vector<size_t> requestOrder(std::span<const std::vector<std::string>* const> tagsOfRequest,
                                 RequestOrder order) {
  std::vector<size_t> out(tagsOfRequest.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = i;
  if (order == RequestOrder::kSerial) return out;
  std::unordered_map<std::string_view, int64_t> requestsWithTag;
  for (const std::vector<std::string>* tags : tagsOfRequest) {
    for (const std::string& t : *tags) ++requestsWithTag[t];
  }
  std::vector<int64_t> popularity(out.size(), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    for (const std::string& t : *tagsOfRequest[i]) {
      popularity[i] = std::max(popularity[i], requestsWithTag[t]);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [&](size_t a, size_t b) { return popularity[a] > popularity[b]; });
  return out;
}

// ---- DefaultPlacementAlgorithm ----

namespace {

struct Placed {
  size_t request;
  size_t node;
  bool valid = true;
};

bool blacklisted(const BatchRequest& r, NodeId node) {
  return std::find(r.blacklist.begin(), r.blacklist.end(), node) != r.blacklist.end();
}

void addCount(std::vector<std::pair<size_t, int32_t>>& list, size_t request, int32_t count) {
  for (auto& [r, c] : list) {
    if (r == request) {
      c += count;
      return;
    }
  }
  list.emplace_back(request, count);
}

}  // namespace

BatchResult placeBatch(std::span<const BatchRequest> batch, const CandidateNodes& nodes,
                       RequestOrder order, const ResourceCalculator& calculator,
                       AllocationTagsManager& tags, const NodeAttributes& attributes) {
  constexpr int kPasses = 2;  // DefaultPlacementAlgorithm.RE_ATTEMPT_COUNT
  TemporaryAllocationTags temp(tags);
  // What this batch placed on each node it used, by node index.
  std::unordered_map<size_t, Resource> usedByBatch;
  auto room = [&](size_t ni, const CandidateNode& n) {
    auto it = usedByBatch.find(ni);
    return it == usedByBatch.end() ? n.available : n.available - it->second;
  };
  std::vector<std::pair<size_t, int32_t>> pending;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].numAllocations > 0) pending.emplace_back(i, batch[i].numAllocations);
  }
  std::vector<Placed> placed;
  for (int pass = 0; pass < kPasses && !pending.empty(); ++pass) {
    std::vector<const std::vector<std::string>*> tagsOf;
    tagsOf.reserve(pending.size());
    for (const auto& [r, count] : pending) tagsOf.push_back(batch[r].tags);
    std::vector<std::pair<size_t, int32_t>> next;
    const size_t passStart = placed.size();
    size_t shared = 0;
    std::optional<size_t> last;
    for (size_t idx : requestOrder(tagsOf, order)) {
      auto [r, count] = pending[idx];
      const BatchRequest& req = batch[r];
      if (nodes.size() > 0) {
        CircularWalk walk = CircularWalk::create(last, nodes.size(), shared).value();
        while (walk.hasNext() && count > 0) {
          const size_t ni = walk.next();
          const CandidateNode node = nodes.at(ni);
          if (blacklisted(req, node.context.node)) continue;
          if (!calculator.fitsIn(req.resource, room(ni, node))) continue;
          if (!canSatisfy(req.constraints, req.app, node.context, tags, attributes)) continue;
          --count;
          usedByBatch[ni] += req.resource;
          placed.push_back({r, ni});
          temp.addTempTags(node.context.node, node.context.rack, req.app, *req.tags);
          last = ni;
        }
        shared = walk.sharedPosition();
      }
      if (count > 0) addCount(next, r, count);
    }
    // validatePlacement: each placement of this pass, with its own tags taken out.
    for (size_t k = passStart; k < placed.size(); ++k) {
      Placed& p = placed[k];
      const BatchRequest& req = batch[p.request];
      const CandidateNode node = nodes.at(p.node);
      const NodeContext& where = node.context;
      temp.removeTempTags(where.node, req.app, *req.tags);
      if (canSatisfy(req.constraints, req.app, where, tags, attributes)) {
        temp.addTempTags(where.node, where.rack, req.app, *req.tags);
      } else {
        p.valid = false;
        usedByBatch[p.node] -= req.resource;
        addCount(next, p.request, 1);
      }
    }
    pending = std::move(next);
  }
  BatchResult out;
  for (const Placed& p : placed) {
    if (!p.valid) continue;
    out.placed.push_back({p.request, nodes.at(p.node).context.node});
    out.lastPlacedIndex = p.node;
  }
  for (const auto& [r, count] : pending) out.rejected.push_back({r, count});
  return out;
}

}  // namespace spindle::placement
