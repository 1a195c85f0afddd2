// An application's fair-share weight (FSAppAttempt.getWeight).
//
//   float w = appWeight(/*demandMb=*/4095, /*sizeBasedWeight=*/true, /*priority=*/1);  // 12.0f
//
// Steps: start at 1.0 (double); with yarn.scheduler.fair.sizebasedweight use
// log1p(demand memory) / log(2) instead; multiply by the app priority (FS fixes it at 1); return
// the result cast to float, as YARN does.
#pragma once

#include <cstdint>

namespace spindle::fair {

float appWeight(int64_t demandMb, bool sizeBasedWeight, int32_t priority = 1);

}  // namespace spindle::fair
