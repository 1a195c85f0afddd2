#include "protocol/yarn_ids.h"

#include <charconv>
#include <vector>

#include <fmt/format.h>

namespace spindle::protocol {

namespace {

// Splits the part after `prefix` at '_' into exactly `n` unsigned numbers.
bool numbers(std::string_view s, std::string_view prefix, size_t n, std::vector<uint64_t>& out) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  out.clear();
  while (true) {
    const size_t us = s.find('_');
    const std::string_view p = s.substr(0, us);
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (p.empty() || ec != std::errc() || end != p.data() + p.size()) return false;
    out.push_back(v);
    if (us == std::string_view::npos) break;
    s.remove_prefix(us + 1);
  }
  return out.size() == n;
}

bool fits32(uint64_t v) { return v <= 0xFFFFFFFFu; }

}  // namespace

Result<ApplicationId> parseApplicationId(std::string_view s) {
  std::vector<uint64_t> p;
  if (!numbers(s, "application_", 2, p) || !fits32(p[1])) {
    return invalidArgument("'{}' is not an application id (application_<timestamp>_<seq>)", s);
  }
  return ApplicationId{static_cast<int64_t>(p[0]), static_cast<uint32_t>(p[1])};
}

Result<ApplicationAttemptId> parseAttemptId(std::string_view s) {
  std::vector<uint64_t> p;
  if (!numbers(s, "appattempt_", 3, p) || !fits32(p[1]) || !fits32(p[2])) {
    return invalidArgument(
        "'{}' is not an application attempt id (appattempt_<timestamp>_<seq>_<attempt>)", s);
  }
  return ApplicationAttemptId{{static_cast<int64_t>(p[0]), static_cast<uint32_t>(p[1])},
                              static_cast<uint32_t>(p[2])};
}

Result<ContainerIdParts> parseContainerIdParts(std::string_view s) {
  std::string_view rest = s;
  if (rest.starts_with("container_e")) {  // container_e<epoch>_...
    const size_t us = rest.find('_', 11);
    if (us != std::string_view::npos) rest = rest.substr(us + 1);
  } else if (rest.starts_with("container_")) {
    rest.remove_prefix(10);
  }
  std::vector<uint64_t> p;
  if (!numbers(rest, "", 4, p) || !fits32(p[1]) || !fits32(p[2]) || !s.starts_with("container_")) {
    return invalidArgument("'{}' is not a container id (container_<timestamp>_<seq>_<attempt>_<n>)",
                           s);
  }
  return ContainerIdParts{
      {{static_cast<int64_t>(p[0]), static_cast<uint32_t>(p[1])}, static_cast<uint32_t>(p[2])},
      p[3]};
}

Result<ApplicationAttemptId> attemptOfContainer(std::string_view containerId) {
  auto c = parseContainerIdParts(containerId);
  if (!c) return c.status();
  return c->attempt;
}

std::string toString(const ApplicationId& id) {
  return fmt::format("application_{}_{:04d}", id.clusterTimestamp, id.seq);
}

std::string toString(const ApplicationAttemptId& id) {
  return fmt::format("appattempt_{}_{:04d}_{:06d}", id.app.clusterTimestamp, id.app.seq,
                     id.attempt);
}

}  // namespace spindle::protocol
