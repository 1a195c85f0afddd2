#include "scheduler/capacity/queue_ordering.h"

#include <algorithm>

namespace spindle {

void sortChildQueues(std::vector<QueueSortEntry>& entries, const std::string& partition,
                     bool respectPriority) {
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const QueueSortEntry& a, const QueueSortEntry& b) {
                     return compareQueues(a, b, partition, respectPriority) < 0;
                   });
}

}  // namespace spindle
