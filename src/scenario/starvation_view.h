// The scenario `starvation:` state view (docs/scenario-format.md, "for fair vectors"): the Fair
// Scheduler's starvation as of the last update pass.
//
//   starvation:a1.starved                     app: its 3.x fair-share + min-share starvation > 0
//   starvation:a1.fairshare.memory-mb         app: 3.x fair-share starvation
//   starvation:a1.minshare.vcores             app: 3.x min-share starvation
//   starvation:root.queueC.starved            queue: FSLeafQueue.isStarved (a parent: any leaf)
//   starvation:root.queueC.deficit.memory-mb  queue: the 2.x resourceDeficit now (a parent: sum)
//   starvation:root.toPreempt.memory-mb       what the last 2.x preemption check preempted
//
// An app handle wins over a queue name; queue names may omit "root."; `memory` is an alias of
// `memory-mb`. Other schedulers: an error naming the view.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/expectations.h"

namespace spindle {

// `parts` is the path after "starvation:", split at dots.
Result<nlohmann::json> starvationStatePath(const std::vector<std::string>& parts,
                                           const std::string& path, const ExpectContext& ctx);

}  // namespace spindle
