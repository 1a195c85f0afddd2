#include "scheduler/fair/policy/drf_policy.h"

#include <algorithm>

#include "scheduler/fair/policy/java_math.h"

namespace spindle::fair {

int calculateClusterAndFairRatios(const Resource& usage, float weight, const Resource& cluster,
                                  int typeCount, std::vector<DrfRatioRow>& rows) {
  rows.assign(static_cast<size_t>(typeCount), DrfRatioRow{0, 0, 0});
  int dominant = 0;
  for (int i = 0; i < typeCount; ++i) {
    DrfRatioRow& row = rows[static_cast<size_t>(i)];
    row[kDrfUsage] = static_cast<double>(usage.get(i)) / static_cast<double>(cluster.get(i));
    row[kDrfFair] = row[kDrfUsage] / static_cast<double>(weight);
    if (row[kDrfUsage] > rows[static_cast<size_t>(dominant)][kDrfUsage]) dominant = i;
  }
  return dominant;
}

void calculateMinShareRatios(const Resource& usage, const Resource& minShare,
                             std::vector<DrfRatioRow>& rows) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const int t = static_cast<int>(i);
    rows[i][kDrfMinShare] =
        static_cast<double>(usage.get(t)) / static_cast<double>(minShare.get(t));
  }
}

void sortRatios(std::vector<DrfRatioRow>& rows1, std::vector<DrfRatioRow>& rows2) {
  auto byUsageDescending = [](const DrfRatioRow& a, const DrfRatioRow& b) {
    return javaDoubleCompare(b[kDrfUsage], a[kDrfUsage]) < 0;
  };
  std::stable_sort(rows1.begin(), rows1.end(), byUsageDescending);
  std::stable_sort(rows2.begin(), rows2.end(), byUsageDescending);
}

int compareRatios(const std::vector<DrfRatioRow>& rows1, const std::vector<DrfRatioRow>& rows2,
                  int column) {
  const size_t n = std::min(rows1.size(), rows2.size());
  for (size_t i = 0; i < n; ++i) {
    const int c = javaDoubleCompare(rows1[i][static_cast<size_t>(column)],
                                    rows2[i][static_cast<size_t>(column)]);
    if (c != 0) return c;
  }
  return 0;
}

int DrfComparator::compare(const Schedulable& s1, const Schedulable& s2) const {
  std::vector<DrfRatioRow> rows1;
  std::vector<DrfRatioRow> rows2;
  const int dominant1 =
      calculateClusterAndFairRatios(s1.usage, s1.weight, cluster_, typeCount_, rows1);
  const int dominant2 =
      calculateClusterAndFairRatios(s2.usage, s2.weight, cluster_, typeCount_, rows2);
  const bool needy1 = s1.usage.get(dominant1) < s1.minShare.get(dominant1);
  const bool needy2 = s2.usage.get(dominant2) < s2.minShare.get(dominant2);
  int res = 0;
  if (!needy1 && !needy2) {
    sortRatios(rows1, rows2);
    res = compareRatios(rows1, rows2, kDrfFair);
  } else if (needy1 && !needy2) {
    res = -1;
  } else if (needy2 && !needy1) {
    res = 1;
  } else {
    calculateMinShareRatios(s1.usage, s1.minShare, rows1);
    calculateMinShareRatios(s2.usage, s2.minShare, rows2);
    sortRatios(rows1, rows2);
    res = compareRatios(rows1, rows2, kDrfMinShare);
  }
  if (res == 0) res = signum(s1.startTime, s2.startTime);
  if (res == 0) res = compareNames(s1, s2);
  return res;
}

}  // namespace spindle::fair
