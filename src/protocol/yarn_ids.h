// YARN's id strings as the protocols carry them, parsed into their numbers and printed back:
// application_<clusterTimestamp>_<seq>, appattempt_<ts>_<seq>_<attempt>,
// container_[e<epoch>_]<ts>_<seq>_<attempt>_<n>. Daemons map them to their own tables.
//
//   auto a = parseAttemptId("appattempt_1700000000000_0001_000002");   // {{ts, 1}, 2}
//   auto b = attemptOfContainer("container_1700000000000_0001_02_000005");
//   toString(*b) == "appattempt_1700000000000_0001_000002";
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace spindle::protocol {

struct ApplicationId {
  int64_t clusterTimestamp = 0;
  uint32_t seq = 0;
  auto operator<=>(const ApplicationId&) const = default;
};

struct ApplicationAttemptId {
  ApplicationId app;
  uint32_t attempt = 0;
  auto operator<=>(const ApplicationAttemptId&) const = default;
};

struct ContainerIdParts {
  ApplicationAttemptId attempt;
  uint64_t seq = 0;
};

Result<ApplicationId> parseApplicationId(std::string_view s);
Result<ApplicationAttemptId> parseAttemptId(std::string_view s);
Result<ContainerIdParts> parseContainerIdParts(std::string_view s);
// The attempt a container belongs to (how an AM finds its attempt from CONTAINER_ID).
Result<ApplicationAttemptId> attemptOfContainer(std::string_view containerId);

std::string toString(const ApplicationId& id);
std::string toString(const ApplicationAttemptId& id);

}  // namespace spindle::protocol
