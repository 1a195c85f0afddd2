// An application's outstanding asks: YARN's AppSchedulingInfo with the locality placement
// allocator (LocalityAppPlacementAllocator).
//
//   AskTable asks;
//   asks.update({ResourceRequest{key, "host1", Resource::of(1024, 1), 2, true, ""},
//                ResourceRequest{key, "/rack1", ..., 2, ...},
//                ResourceRequest{key, "*", ..., 2, ...}});
//   asks.count(key, "*");                          // 2
//   asks.allocate(key, Locality::kNodeLocal, "host1", "/rack1");   // host, rack and * go down
//
// Rules (YARN 3.x):
//  1. Asks are kept per scheduler key (priority, allocation request id) and resource name
//     (a host, a rack, or "*" = ResourceRequest.ANY). A new request for the same key and name
//     replaces the old one, count included (updateResourceRequests).
//  2. Allocation decrements: node-local -> host, rack and ANY; rack-local -> rack and ANY;
//     off-switch -> ANY only (allocateNodeLocal / allocateRackLocal / allocateOffSwitch).
//  3. Pending resource = sum over keys of ANY.count x ANY.capability; a key whose ANY count is
//     0 has nothing pending and is skipped by the schedulers.
// Invariants (checkInvariants): pending() equals rule 3 recomputed; activeKeys() and the cached
// ANY request agree with the requests (checked through find() and uniqueLocations()).
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/hot_path.h"
#include "base/status.h"
#include "resource/resource.h"

namespace spindle {

inline constexpr std::string_view kAnyResourceName = "*";

// YARN's SchedulerRequestKey. Lower priority numbers are served first (Priority.compareTo
// orders higher numbers as lower priority), then lower allocation request ids.
struct SchedulerKey {
  int32_t priority = 0;
  int64_t allocationRequestId = 0;
  auto operator<=>(const SchedulerKey&) const = default;
};

// YARN's NodeType, the locality level of an allocation.
enum class Locality { kNodeLocal, kRackLocal, kOffSwitch };
const char* toString(Locality l);  // "NODE_LOCAL", "RACK_LOCAL", "OFF_SWITCH"

struct ResourceRequest {
  SchedulerKey key;
  std::string resourceName;  // host, rack or "*"
  Resource capability;
  int32_t numContainers = 0;
  bool relaxLocality = true;
  std::string nodeLabelExpression;
};

class AskTable {
 public:
  AskTable() = default;
  // A copy indexes its own requests; a move keeps the map's nodes and so the index, and leaves
  // the source empty.
  AskTable(const AskTable& o);
  AskTable& operator=(const AskTable& o);
  AskTable(AskTable&& o) noexcept;
  AskTable& operator=(AskTable&& o) noexcept;

  // Applies requests per rule 1; errors (nothing applied) on a negative count or capability.
  Status update(const std::vector<ResourceRequest>& requests);

  // Outstanding count at (key, name); 0 when absent.
  int32_t count(const SchedulerKey& key, std::string_view name) const;
  const ResourceRequest* find(const SchedulerKey& key, std::string_view name) const;
  // canDelayTo: true when no request exists at name or its relaxLocality is set.
  bool canDelayTo(const SchedulerKey& key, std::string_view name) const;
  // Number of request entries with a positive count for key (hosts + racks + ANY): the
  // "unique location asks" of CS's off-switch formula. O(1): kept per key as counts change.
  int uniqueLocations(const SchedulerKey& key) const;

  // Keys with ANY count > 0, ascending. Kept up to date by every change of an ANY count, so
  // reading it walks no map; the reference is invalidated by the next update, allocate, restore
  // or clear (copy it to iterate across an allocation).
  const std::vector<SchedulerKey>& activeKeys() const { return active_; }
  // Calls f(key, anyRequest) for each key with ANY count > 0, ascending, without allocating;
  // stops when f returns false. f may change the table (an allocation): the walk goes on with
  // the first active key after the one just visited, as a walk over all keys would. The key
  // and request references are valid during the call only.
  template <typename F>
  void forEachActiveKey(F&& f) const {
    size_t i = 0;
    while (i < active_.size()) {
      const SchedulerKey key = active_[i];  // a copy: f may deactivate it
      if (!f(key, *find(key, kAnyResourceName))) return;
      i = static_cast<size_t>(std::upper_bound(active_.begin(), active_.end(), key) -
                              active_.begin());
    }
  }
  bool hasPending() const { return !pending_.isZero(); }
  // Starts loading the active keys and the first key's ANY request (a hint).
  void prefetchActive() const {
    if (!active_.empty()) prefetchLine(active_.data());
    if (first_.any != nullptr) prefetchLine(first_.any);
  }
  const Resource& pending() const { return pending_; }
  // Per rule 2. Returns the ANY request's capability; error when ANY has nothing outstanding.
  Result<Resource> allocate(const SchedulerKey& key, Locality locality, std::string_view host,
                            std::string_view rack);
  // Puts one container back (a preempted or lost container that had not run, as YARN's
  // recoverResourceRequestsForContainer does): ANY, rack and host counts each +1.
  void restore(const ResourceRequest& any, std::string_view host, std::string_view rack);
  // Drops every ask (app finished or attempt removed).
  void clear();

  // All requests, keys ascending, names sorted, for snapshots.
  std::vector<ResourceRequest> all() const;
  Status checkInvariants() const;

 private:
  using ByName = std::map<std::string, ResourceRequest, std::less<>>;
  // One key's requests by name and how many of them have a positive count (uniqueLocations).
  struct KeyAsks {
    ByName names;
    int positive = 0;
  };
  void addPending(const ResourceRequest& any, int sign);
  void refreshActive();
  void deactivate(const SchedulerKey& key);
  void decrement(KeyAsks& asks, std::string_view name);
  // Sets r's count, keeping asks.positive in step.
  static void setCount(KeyAsks& asks, ResourceRequest& r, int32_t count);

  // One entry per key of keys_, ascending: the key's requests by name and its ANY request (null
  // when it has none). The allocation path asks for the same key's ANY request a dozen times per
  // container, and for the node's host and rack a few times (absent for off-switch asks, which
  // the entry answers without comparing a string): a search of this short index instead of two
  // map lookups. The first (lowest) key's entry lives in the table itself, so the common app
  // with one key reaches its ANY request without loading another heap block; the other keys'
  // entries follow in more_. std::map nodes are stable; update, restore and clear, the only
  // operations that add or remove requests, rebuild the index (reindex), so const lookups never
  // write.
  struct KeyEntry {
    SchedulerKey key;
    KeyAsks* asks = nullptr;  // null in first_ when keys_ is empty
    ResourceRequest* any = nullptr;
  };
  const KeyEntry* entry(const SchedulerKey& key) const {
    if (first_.asks != nullptr && first_.key == key) return &first_;
    auto it = std::lower_bound(more_.begin(), more_.end(), key,
                               [](const KeyEntry& e, const SchedulerKey& k) { return e.key < k; });
    return it != more_.end() && it->key == key ? &*it : nullptr;
  }
  void reindex();

  std::map<SchedulerKey, KeyAsks> keys_;
  // Invariant: exactly the keys whose ANY count is > 0, ascending (checkInvariants).
  std::vector<SchedulerKey> active_;
  Resource pending_;
  // Invariant: first_ then more_ hold one entry per key of keys_, ascending, pointing at its map
  // and ANY request (checkInvariants).
  KeyEntry first_;
  std::vector<KeyEntry> more_;
};

}  // namespace spindle
