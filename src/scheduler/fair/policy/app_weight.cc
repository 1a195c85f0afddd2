#include "scheduler/fair/policy/app_weight.h"

#include <cmath>

namespace spindle::fair {

float appWeight(int64_t demandMb, bool sizeBasedWeight, int32_t priority) {
  double weight = 1.0;
  if (sizeBasedWeight) weight = std::log1p(static_cast<double>(demandMb)) / std::log(2.0);
  weight *= priority;
  return static_cast<float>(weight);
}

}  // namespace spindle::fair
