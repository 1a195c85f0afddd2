// Child-queue ordering of a parent queue: YARN's PriorityUtilizationQueueOrderingPolicy, used
// for both `utilization` (priorities ignored) and `priority-utilization`.
//
//   std::vector<QueueSortEntry> v = ...;   // one snapshot per child, taken when the call starts
//   sortChildQueues(v, "", /*respectPriority=*/false);
//
// Comparator for partition p (ascending = offered first):
//  1. p != "": queues that can access p first;
//  2. absolute capacity > 0 before = 0; when both are 0, compare absoluteUsedCapacity instead of
//     usedCapacity;
//  3. used ratio ascending; with priorities: both below or both at/above their guarantee (ratio
//     < 1 or >= 1) -> higher priority first, otherwise the less used first;
//  4. ties: larger configured absolute min resource first when either has one, else larger
//     absolute capacity first; the sort is stable (configured order last).
// Values are floats, as YARN's QueueCapacities.
#pragma once

#include <string>
#include <vector>

#include "resource/resource.h"

namespace spindle {

class CsQueue;

struct QueueSortEntry {
  CsQueue* queue = nullptr;
  bool accessible = true;  // can access the partition being scheduled
  float absCapacity = 0;
  float usedCapacity = 0;
  float absUsedCapacity = 0;
  int priority = 0;
  const Resource* configuredMin = nullptr;  // absolute-mode capacity; null otherwise
};

namespace queue_ordering_detail {

inline int compareDouble(double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); }

// PriorityUtilizationQueueOrderingPolicy.compare(used1, used2, priority1, priority2).
inline int compareUsedAndPriority(double used1, double used2, int p1, int p2) {
  if (p1 == p2) return compareDouble(used1, used2);
  if ((used1 < 1.0f && used2 < 1.0f) || (used1 >= 1.0f && used2 >= 1.0f)) {
    return p2 < p1 ? -1 : 1;
  }
  return compareDouble(used1, used2);
}

// Resource.compareTo: type by type, memory first.
inline int compareResources(const Resource& a, const Resource& b) {
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (a.get(i) != b.get(i)) return a.get(i) < b.get(i) ? -1 : 1;
  }
  return 0;
}

}  // namespace queue_ordering_detail

// <0 when a goes before b. Inline: the allocation path calls it for every child it ranks.
inline int compareQueues(const QueueSortEntry& a, const QueueSortEntry& b,
                         const std::string& partition, bool respectPriority) {
  using namespace queue_ordering_detail;
  if (!partition.empty() && a.accessible != b.accessible) return a.accessible ? -1 : 1;
  if (a.absCapacity > 0 && b.absCapacity == 0) return -1;
  if (b.absCapacity > 0 && a.absCapacity == 0) return 1;
  const bool bothZero = a.absCapacity == 0 && b.absCapacity == 0;
  const double used1 = bothZero ? a.absUsedCapacity : a.usedCapacity;
  const double used2 = bothZero ? b.absUsedCapacity : b.usedCapacity;
  const int p1 = respectPriority ? a.priority : 0;
  const int p2 = respectPriority ? b.priority : 0;
  int rc = compareUsedAndPriority(used1, used2, p1, p2);
  if (rc != 0) return rc;
  const bool aMin = a.configuredMin != nullptr && !a.configuredMin->isZero();
  const bool bMin = b.configuredMin != nullptr && !b.configuredMin->isZero();
  if (aMin || bMin) {
    return compareResources(bMin ? *b.configuredMin : Resource(),
                            aMin ? *a.configuredMin : Resource());
  }
  return compareDouble(b.absCapacity, a.absCapacity);
}
void sortChildQueues(std::vector<QueueSortEntry>& entries, const std::string& partition,
                     bool respectPriority);

}  // namespace spindle
