#include "protocol/response_decode.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace spindle::protocol {
namespace {

using json = nlohmann::json;

bool fits32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

// The SAX callbacks nlohmann::sax_parse calls, turned into the few events a record reader
// needs; returning false anywhere stops the parse (the body is left to the document path).
// Each open object or list is a frame: where it is (`At`, the reader's own enum) and the
// members of it read so far, as bits, so that a second copy of a member stops the parse. The
// reader (`Derived`) answers onString, onInt, onBool, onObject and onArray for the member named
// key_ in the current frame, and onLeave when a frame closes (its checks).
template <typename Derived, typename At>
class SaxReader {
 public:
  SaxReader() {
    frames_.reserve(8);
    frames_.push_back({At::kTop, 0});
  }
  bool null() { return false; }
  bool boolean(bool v) { return self().onBool(v); }
  bool number_integer(int64_t v) { return self().onInt(v); }
  bool number_unsigned(uint64_t v) {
    return v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) &&
           self().onInt(static_cast<int64_t>(v));
  }
  bool number_float(double, const std::string&) { return false; }
  bool binary(json::binary_t&) { return false; }
  bool string(std::string& v) { return self().onString(v); }
  bool start_object(size_t) { return self().onObject(); }
  bool end_object() { return leave(); }
  bool start_array(size_t) { return self().onArray(); }
  bool end_array() { return leave(); }
  bool key(std::string& k) {
    key_.assign(k);  // a copy keeps key_'s buffer: no allocation per member
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 protected:
  struct Frame {
    At at;
    uint32_t seen;  // members read (bits chosen by the reader)
  };

  At at() const { return frames_.back().at; }
  bool is(std::string_view k) const { return key_ == k; }
  // Marks member `bit` of the current frame as read; false when it was read before.
  bool take(uint32_t bit) {
    uint32_t& seen = frames_.back().seen;
    if (seen & bit) return false;
    seen |= bit;
    return true;
  }
  bool enter(At next) {
    frames_.push_back({next, 0});
    return true;
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  bool leave() {
    if (frames_.size() <= 1 || !self().onLeave(frames_.back())) return false;
    frames_.pop_back();
    return true;
  }

  std::string key_;
  std::vector<Frame> frames_;
};

template <typename Reader, typename Record>
std::optional<Record> run(std::string_view body) {
  Reader r;
  try {
    if (!json::sax_parse(body.begin(), body.end(), &r)) return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return std::move(r.out);
}

// --- NodeHeartbeatResponse ---------------------------------------------------------------------

// Bits of the answer's members: responseId 1, nodeAction 2, containersToCleanup 4,
// applicationsToCleanup 8, nextHeartBeatInterval 16, diagnosticsMessage 32,
// areNodeAttributesAcceptedByRM 64, areNodeLabelsAcceptedByRM 128.
enum class HbAt { kTop, kRoot, kContainers, kApps };

class HeartbeatResponseReader : public SaxReader<HeartbeatResponseReader, HbAt> {
 public:
  NodeHeartbeatResponse out;

  bool onBool(bool v) {
    if (at() != HbAt::kRoot) return false;
    if (is("areNodeAttributesAcceptedByRM") && take(64)) {
      out.areNodeAttributesAcceptedByRM = v;
      return true;
    }
    if (is("areNodeLabelsAcceptedByRM") && take(128)) {
      out.areNodeLabelsAcceptedByRM = v;
      return true;
    }
    return false;
  }
  bool onInt(int64_t v) {
    if (at() != HbAt::kRoot) return false;
    if (is("responseId") && fits32(v) && take(1)) {
      out.responseId = static_cast<int32_t>(v);
      return true;
    }
    if (is("nextHeartBeatInterval") && v > 0 && take(16)) {
      out.nextHeartBeatInterval = v;
      return true;
    }
    return false;
  }
  bool onString(std::string& v) {
    switch (at()) {
      case HbAt::kRoot:
        if (is("nodeAction") && take(2)) return readAction(v);
        if (is("diagnosticsMessage") && take(32)) {
          out.diagnosticsMessage = std::move(v);
          return true;
        }
        return false;
      case HbAt::kContainers: out.containersToCleanup.push_back(std::move(v)); return true;
      case HbAt::kApps: out.applicationsToCleanup.push_back(std::move(v)); return true;
      default: return false;
    }
  }
  bool onObject() { return at() == HbAt::kTop && enter(HbAt::kRoot); }
  bool onArray() {
    if (at() != HbAt::kRoot) return false;
    if (is("containersToCleanup") && take(4)) return enter(HbAt::kContainers);
    if (is("applicationsToCleanup") && take(8)) return enter(HbAt::kApps);
    return false;
  }
  bool onLeave(const Frame& f) { return f.at != HbAt::kRoot || (f.seen & 3) == 3; }

 private:
  bool readAction(const std::string& v) {
    for (NodeAction a : {NodeAction::NORMAL, NodeAction::RESYNC, NodeAction::SHUTDOWN}) {
      if (v == toString(a)) {
        out.nodeAction = a;
        return true;
      }
    }
    return false;
  }
};

// --- AllocateResponse --------------------------------------------------------------------------

// Bits of the members. Root: amCommand 1, responseId 2, allocatedContainers 4,
// completedContainerStatuses 8, limit 16, numClusterNodes 32, preempt 64,
// rejectedSchedulingRequests 128, updatedNodes 256. Container: id 1, nodeId 2,
// nodeHttpAddress 4, resource 8, priority 16, allocationRequestId 32. ContainerStatus:
// containerId 1, state 2, diagnostics 4, exitStatus 8, allocatedResource 16. A resource:
// memory 1, vCores 2. preempt: strictContract 1; strictContract: container 1.
enum class AllocAt {
  kTop,
  kRoot,
  kAllocated,          // allocatedContainers [...]
  kContainer,          // one Container
  kContainerResource,  // its resource
  kCompleted,          // completedContainerStatuses [...]
  kStatus,             // one ContainerStatus
  kStatusResource,     // its allocatedResource
  kLimit,              // limit
  kPreempt,            // preempt
  kStrict,             // preempt.strictContract
  kPreemptList,        // preempt.strictContract.container [...]
  kEmptyList,          // rejectedSchedulingRequests or updatedNodes: only [] is read here
};

class AllocateResponseReader : public SaxReader<AllocateResponseReader, AllocAt> {
 public:
  AllocateResponse out;

  bool onBool(bool) { return false; }
  bool onInt(int64_t v) {
    switch (at()) {
      case AllocAt::kRoot:
        if (is("responseId") && fits32(v) && take(2)) {
          out.responseId = static_cast<int32_t>(v);
          return true;
        }
        if (is("numClusterNodes") && fits32(v) && take(32)) {
          out.numClusterNodes = static_cast<int32_t>(v);
          return true;
        }
        return false;
      case AllocAt::kContainer:
        if (is("priority") && fits32(v) && take(16)) {
          container().priority = static_cast<int32_t>(v);
          return true;
        }
        if (is("allocationRequestId") && take(32)) {
          container().allocationRequestId = v;
          return true;
        }
        return false;
      case AllocAt::kStatus:
        if (is("exitStatus") && fits32(v) && take(8)) {
          status().exitStatus = static_cast<int32_t>(v);
          return true;
        }
        return false;
      case AllocAt::kContainerResource:
      case AllocAt::kStatusResource:
      case AllocAt::kLimit:
        if (is("memory") && take(1)) {
          resource().memory = v;
          return true;
        }
        if (is("vCores") && take(2)) {
          resource().vCores = v;
          return true;
        }
        return false;
      default: return false;
    }
  }
  bool onString(std::string& v) {
    switch (at()) {
      case AllocAt::kRoot: return is("amCommand") && take(1) && readCommand(v);
      case AllocAt::kContainer:
        if (is("id") && take(1)) {
          container().id = std::move(v);
          return true;
        }
        if (is("nodeId") && take(2)) {
          container().nodeId = std::move(v);
          return true;
        }
        if (is("nodeHttpAddress") && take(4)) {
          container().nodeHttpAddress = std::move(v);
          return true;
        }
        return false;
      case AllocAt::kStatus:
        if (is("containerId") && take(1)) {
          status().containerId = std::move(v);
          return true;
        }
        if (is("state") && take(2)) return readState(v);
        if (is("diagnostics") && take(4)) {
          status().diagnostics = std::move(v);
          return true;
        }
        return false;
      case AllocAt::kPreemptList: out.preemptContainers.push_back(std::move(v)); return true;
      default: return false;
    }
  }
  bool onObject() {
    switch (at()) {
      case AllocAt::kTop: return enter(AllocAt::kRoot);
      case AllocAt::kRoot:
        if (is("limit") && take(16)) return enter(AllocAt::kLimit);
        if (is("preempt") && take(64)) return enter(AllocAt::kPreempt);
        return false;
      case AllocAt::kAllocated:
        out.allocatedContainers.emplace_back();
        return enter(AllocAt::kContainer);
      case AllocAt::kContainer:
        return is("resource") && take(8) && enter(AllocAt::kContainerResource);
      case AllocAt::kCompleted:
        out.completedContainerStatuses.emplace_back();
        return enter(AllocAt::kStatus);
      case AllocAt::kStatus:
        if (!is("allocatedResource") || !take(16)) return false;
        status().allocatedResource.emplace();
        return enter(AllocAt::kStatusResource);
      case AllocAt::kPreempt: return is("strictContract") && take(1) && enter(AllocAt::kStrict);
      default: return false;
    }
  }
  bool onArray() {
    if (at() == AllocAt::kStrict) return is("container") && take(1) && enter(AllocAt::kPreemptList);
    if (at() != AllocAt::kRoot) return false;
    if (is("allocatedContainers") && take(4)) return enter(AllocAt::kAllocated);
    if (is("completedContainerStatuses") && take(8)) return enter(AllocAt::kCompleted);
    if (is("rejectedSchedulingRequests") && take(128)) return enter(AllocAt::kEmptyList);
    if (is("updatedNodes") && take(256)) return enter(AllocAt::kEmptyList);
    return false;
  }
  // read()'s checks, made as each record closes.
  bool onLeave(const Frame& f) {
    switch (f.at) {
      case AllocAt::kRoot: return (f.seen & 2) != 0;
      case AllocAt::kContainer: return (f.seen & (1 | 2 | 8)) == (1 | 2 | 8);
      case AllocAt::kStatus: {
        const ContainerStatus& s = status();
        return (f.seen & 3) == 3 && !s.containerId.empty() &&
               !(s.state == ContainerState::COMPLETE && s.exitStatus == kInvalidExitStatus);
      }
      case AllocAt::kContainerResource:
      case AllocAt::kStatusResource:
      case AllocAt::kLimit: return f.seen == 3 && resource().memory >= 0 && resource().vCores >= 0;
      default: return true;
    }
  }

 private:
  Container& container() { return out.allocatedContainers.back(); }
  ContainerStatus& status() { return out.completedContainerStatuses.back(); }
  ResourceRecord& resource() {
    switch (at()) {
      case AllocAt::kContainerResource: return container().resource;
      case AllocAt::kStatusResource: return *status().allocatedResource;
      default: return out.limit;
    }
  }
  bool readCommand(const std::string& v) {
    for (AMCommand c : {AMCommand::AM_RESYNC, AMCommand::AM_SHUTDOWN}) {
      if (v == toString(c)) {
        out.amCommand = c;
        return true;
      }
    }
    return false;
  }
  bool readState(const std::string& v) {
    for (ContainerState s :
         {ContainerState::RUNNING, ContainerState::COMPLETE, ContainerState::NEW}) {
      if (v == toString(s)) {
        status().state = s;
        return true;
      }
    }
    return false;
  }
};

}  // namespace

std::optional<NodeHeartbeatResponse> decodeHeartbeatResponseDirect(std::string_view body) {
  return run<HeartbeatResponseReader, NodeHeartbeatResponse>(body);
}

std::optional<AllocateResponse> decodeAllocateResponseDirect(std::string_view body) {
  return run<AllocateResponseReader, AllocateResponse>(body);
}

}  // namespace spindle::protocol
