// Strong, tag-typed integer ids: NodeId, AppId, QueueId, ... cannot be mixed up.
//
//   NodeId n{3};
//   AppId a{1};
//   n == a;               // does not compile
//   std::unordered_map<NodeId, Node> nodes;  // hashable
//
// Ids are dense indexes handed out by the object that owns the entities (the cluster owns node
// ids, the scheduler owns app ids); the owner maps them to YARN's string forms.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace spindle {

template <typename Tag, typename Rep = uint32_t>
class StrongId {
 public:
  using rep_type = Rep;
  static constexpr Rep kInvalid = std::numeric_limits<Rep>::max();

  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep v) : v_(v) {}

  constexpr Rep value() const { return v_; }
  constexpr bool valid() const { return v_ != kInvalid; }
  constexpr auto operator<=>(const StrongId&) const = default;

 private:
  Rep v_ = kInvalid;
};

struct NodeTag {};
struct RackTag {};
struct AppTag {};
struct QueueTag {};
struct UserTag {};

using NodeId = StrongId<NodeTag>;
using RackId = StrongId<RackTag>;
// The sequence number of application_<clusterTimestamp>_<seq>; 1-based like YARN's.
using AppId = StrongId<AppTag>;
using QueueId = StrongId<QueueTag>;

// appattempt_<ts>_<app>_<attempt>: attempt numbers start at 1.
struct AttemptId {
  AppId app;
  uint32_t attempt = 0;
  auto operator<=>(const AttemptId&) const = default;
};

// container_<ts>_<app>_<attempt>_<seq>: seq is per application, 1 is the AM container.
struct ContainerId {
  AttemptId attempt;
  uint64_t seq = 0;
  AppId app() const { return attempt.app; }
  auto operator<=>(const ContainerId&) const = default;
};

}  // namespace spindle

template <typename Tag, typename Rep>
struct std::hash<spindle::StrongId<Tag, Rep>> {
  size_t operator()(const spindle::StrongId<Tag, Rep>& id) const noexcept {
    return std::hash<Rep>()(id.value());
  }
};

template <>
struct std::hash<spindle::ContainerId> {
  size_t operator()(const spindle::ContainerId& id) const noexcept {
    return std::hash<uint64_t>()((uint64_t{id.attempt.app.value()} << 40) ^
                                 (uint64_t{id.attempt.attempt} << 32) ^ id.seq);
  }
};
