#include "scheduler/capacity/queue_ordering.h"

#include <algorithm>

namespace spindle {
namespace {

int compareDouble(double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); }

// PriorityUtilizationQueueOrderingPolicy.compare(used1, used2, priority1, priority2).
int compareUsedAndPriority(double used1, double used2, int p1, int p2) {
  if (p1 == p2) return compareDouble(used1, used2);
  if ((used1 < 1.0f && used2 < 1.0f) || (used1 >= 1.0f && used2 >= 1.0f)) {
    return p2 < p1 ? -1 : 1;
  }
  return compareDouble(used1, used2);
}

// Resource.compareTo: type by type, memory first.
int compareResources(const Resource& a, const Resource& b) {
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (a.get(i) != b.get(i)) return a.get(i) < b.get(i) ? -1 : 1;
  }
  return 0;
}

}  // namespace

int compareQueues(const QueueSortEntry& a, const QueueSortEntry& b, const std::string& partition,
                  bool respectPriority) {
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
                     bool respectPriority) {
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const QueueSortEntry& a, const QueueSortEntry& b) {
                     return compareQueues(a, b, partition, respectPriority) < 0;
                   });
}

}  // namespace spindle
