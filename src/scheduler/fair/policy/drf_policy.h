// DominantResourceFairnessPolicy's comparator (FS/policies/DominantResourceFairnessPolicy.java,
// the N-resource DominantResourceFairnessComparatorN).
//
//   DrfComparator drf(cluster, types.count());
//   int c = drf.compare(a, b);      // < 0: a is offered resources first
//
// For each schedulable and each resource type i (Java double maths; x/0 is +inf, 0/0 NaN):
//   row_i = { usage_i / cluster_i, usage_i / cluster_i / weight, usage_i / minShare_i }.
// The dominant type is the first with the largest usage ratio. Steps:
//  1. needy = usage[dominant] < minShare[dominant], each with its own dominant type. (One YARN
//     version reads s1's usage for s2's test; this follows the reference and uses s2's own.)
//  2. Rows are sorted by usage ratio, descending (stable, as Java's Arrays.sort on objects).
//  3. Neither needy: compare the fair ratios (column 1) position by position; one needy: it goes
//     first; both needy: compare the min-share ratios (column 2) position by position.
//  4. Ties: start time, then name.
// Comparisons use Java's Double.compare. Thread-compatible.
#pragma once

#include <array>
#include <vector>

#include "resource/resource.h"
#include "scheduler/fair/policy/schedulable.h"

namespace spindle::fair {

// One row of the ratio table: usage ratio, fair ratio (usage ratio / weight), min-share ratio.
using DrfRatioRow = std::array<double, 3>;
inline constexpr int kDrfUsage = 0;
inline constexpr int kDrfFair = 1;
inline constexpr int kDrfMinShare = 2;

// calculateClusterAndFairRatios: fills columns 0 and 1 of `rows` (resized to `typeCount`) and
// returns the dominant index (first maximum of the usage ratio).
int calculateClusterAndFairRatios(const Resource& usage, float weight, const Resource& cluster,
                                  int typeCount, std::vector<DrfRatioRow>& rows);
// calculateMinShareRatios: fills column 2 with usage_i / minShare_i.
void calculateMinShareRatios(const Resource& usage, const Resource& minShare,
                             std::vector<DrfRatioRow>& rows);
// sortRatios: each table sorted by usage ratio, descending (stable).
void sortRatios(std::vector<DrfRatioRow>& rows1, std::vector<DrfRatioRow>& rows2);
// compareRatios: lexicographic Double.compare on column `column`.
int compareRatios(const std::vector<DrfRatioRow>& rows1, const std::vector<DrfRatioRow>& rows2,
                  int column);

class DrfComparator {
 public:
  // `cluster` is the scheduler's current cluster resource (it follows node add/remove).
  DrfComparator(const Resource& cluster, int typeCount)
      : cluster_(cluster), typeCount_(typeCount) {}
  int compare(const Schedulable& s1, const Schedulable& s2) const;

 private:
  Resource cluster_;
  int typeCount_;
};

}  // namespace spindle::fair
