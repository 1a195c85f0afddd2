// Child-queue ordering of a parent queue: YARN's PriorityUtilizationQueueOrderingPolicy, used
// for both `utilization` (priorities ignored) and `priority-utilization`. Reference §2.3.
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
  bool accessible = true;   // can access the partition being scheduled
  float absCapacity = 0;
  float usedCapacity = 0;
  float absUsedCapacity = 0;
  int priority = 0;
  const Resource* configuredMin = nullptr;  // absolute-mode capacity; null otherwise
};

// <0 when a goes before b.
int compareQueues(const QueueSortEntry& a, const QueueSortEntry& b, const std::string& partition,
                  bool respectPriority);
void sortChildQueues(std::vector<QueueSortEntry>& entries, const std::string& partition,
                     bool respectPriority);

}  // namespace spindle
