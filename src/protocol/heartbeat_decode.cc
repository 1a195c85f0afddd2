#include "protocol/heartbeat_decode.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace spindle::protocol {
namespace {

using json = nlohmann::json;

// Where the parser is. Each object state knows its members; a member this reader does not
// know, a second copy of one, or a value of another type ends the parse (nullopt). Members
// read are bits: nodeStatus 1 (root); nodeId 1, responseId 2, containersStatuses 4,
// nodeHealthStatus 8, keepAliveApplications 16 (nodeStatus); isNodeHealthy 1, healthReport 2,
// lastHealthReportTime 4 (health); containerId 1, state 2, diagnostics 4, exitStatus 8,
// memory 16, vCores 32, allocatedResource 64 (a status with its resource).
enum class At {
  kTop,         // before the body's object
  kRoot,        // in {"nodeStatus": ...}
  kNodeStatus,  // in nodeStatus
  kStatusList,  // in containersStatuses [...]
  kStatus,      // in one ContainerStatus
  kResource,    // in a status's allocatedResource
  kHealth,      // in nodeHealthStatus
  kKeepAlive,   // in keepAliveApplications [...]
};

class Reader {
 public:
  NodeHeartbeatRequest out;
  bool sawNodeStatus = false, sawNodeId = false, sawResponseId = false;

  // SAX callbacks (nlohmann::json_sax). Returning false stops the parse.
  bool null() { return false; }
  bool boolean(bool v) {
    if (at_ == At::kHealth && key_ == "isNodeHealthy" && take(1)) {
      out.nodeStatus.nodeHealthStatus.isNodeHealthy = v;
      return true;
    }
    return false;
  }
  bool number_integer(int64_t v) { return integer(v); }
  bool number_unsigned(uint64_t v) {
    return v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) &&
           integer(static_cast<int64_t>(v));
  }
  bool number_float(double, const std::string&) { return false; }
  bool binary(json::binary_t&) { return false; }
  bool string(std::string& v) {
    NodeStatus& n = out.nodeStatus;
    switch (at_) {
      case At::kNodeStatus:
        if (key_ == "nodeId" && take(1)) {
          n.nodeId = std::move(v);
          sawNodeId = true;
          return true;
        }
        return false;
      case At::kStatus:
        if (key_ == "containerId" && take(1)) {
          status().containerId = std::move(v);
          return true;
        }
        if (key_ == "state" && take(2)) return readState(v);
        if (key_ == "diagnostics" && take(4)) {
          status().diagnostics = std::move(v);
          return true;
        }
        return false;
      case At::kHealth:
        if (key_ == "healthReport" && take(2)) {
          n.nodeHealthStatus.healthReport = std::move(v);
          return true;
        }
        return false;
      case At::kKeepAlive: n.keepAliveApplications.push_back(std::move(v)); return true;
      default: return false;
    }
  }
  bool start_object(size_t) {
    switch (at_) {
      case At::kTop: return enter(At::kRoot);
      case At::kRoot:
        if (key_ != "nodeStatus" || !take(1)) return false;
        sawNodeStatus = true;
        return enter(At::kNodeStatus);
      case At::kNodeStatus: return key_ == "nodeHealthStatus" && take(8) && enter(At::kHealth);
      case At::kStatusList:
        out.nodeStatus.containersStatuses.emplace_back();
        return enter(At::kStatus);
      case At::kStatus:
        if (key_ != "allocatedResource" || !take(64)) return false;
        status().allocatedResource.emplace();
        return enter(At::kResource);
      default: return false;
    }
  }
  bool end_object() { return leave(); }
  bool start_array(size_t) {
    if (at_ != At::kNodeStatus) return false;
    if (key_ == "containersStatuses" && take(4)) return enter(At::kStatusList);
    if (key_ == "keepAliveApplications" && take(16)) return enter(At::kKeepAlive);
    return false;
  }
  bool end_array() { return leave(); }
  bool key(std::string& k) {
    key_ = std::move(k);
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  // Whether every record read passes read()'s checks.
  bool valid() const {
    if (!sawNodeStatus || !sawNodeId || !sawResponseId || out.nodeStatus.nodeId.empty()) {
      return false;
    }
    for (size_t i = 0; i < out.nodeStatus.containersStatuses.size(); ++i) {
      const ContainerStatus& s = out.nodeStatus.containersStatuses[i];
      if ((seenPerStatus_[i] & 3) != 3 || s.containerId.empty()) return false;
      if (s.state == ContainerState::COMPLETE && s.exitStatus == kInvalidExitStatus) return false;
      if (s.allocatedResource &&
          ((seenPerStatus_[i] & (16 | 32)) != (16 | 32) || s.allocatedResource->memory < 0 ||
           s.allocatedResource->vCores < 0)) {
        return false;
      }
    }
    return true;
  }

 private:
  ContainerStatus& status() { return out.nodeStatus.containersStatuses.back(); }

  bool integer(int64_t v) {
    NodeStatus& n = out.nodeStatus;
    const bool fits32 =
        v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    if (at_ == At::kNodeStatus && key_ == "responseId" && fits32 && take(2)) {
      n.responseId = static_cast<int32_t>(v);
      sawResponseId = true;
      return true;
    }
    if (at_ == At::kStatus && key_ == "exitStatus" && fits32 && take(8)) {
      status().exitStatus = static_cast<int32_t>(v);
      return true;
    }
    if (at_ == At::kHealth && key_ == "lastHealthReportTime" && take(4)) {
      n.nodeHealthStatus.lastHealthReportTime = v;
      return true;
    }
    if (at_ == At::kResource && key_ == "memory" && takeStatus(16)) {
      status().allocatedResource->memory = v;
      return true;
    }
    if (at_ == At::kResource && key_ == "vCores" && takeStatus(32)) {
      status().allocatedResource->vCores = v;
      return true;
    }
    return false;
  }

  bool readState(const std::string& v) {
    ContainerState s;
    if (v == "RUNNING") {
      s = ContainerState::RUNNING;
    } else if (v == "COMPLETE") {
      s = ContainerState::COMPLETE;
    } else if (v == "NEW") {
      s = ContainerState::NEW;
    } else {
      return false;
    }
    status().state = s;
    return true;
  }

  // Marks member `bit` of the current object as read; false when it was read before.
  bool take(uint32_t bit) {
    if (at_ == At::kStatus || at_ == At::kResource) return takeStatus(bit);
    uint32_t& seen = seen_.back();
    if (seen & bit) return false;
    seen |= bit;
    return true;
  }
  // A status's members and its resource's share the status's bits (resource: 16 and 32).
  bool takeStatus(uint32_t bit) {
    uint32_t& seen = seenPerStatus_.back();
    if (seen & bit) return false;
    seen |= bit;
    return true;
  }

  bool enter(At next) {
    stack_.push_back(at_);
    at_ = next;
    if (next == At::kStatus) seenPerStatus_.push_back(0);
    if (next != At::kStatus && next != At::kResource) seen_.push_back(0);
    return true;
  }
  bool leave() {
    if (stack_.empty()) return false;
    if (at_ != At::kStatus && at_ != At::kResource) seen_.pop_back();
    at_ = stack_.back();
    stack_.pop_back();
    return true;
  }

  At at_ = At::kTop;
  std::string key_;
  std::vector<At> stack_;
  std::vector<uint32_t> seen_;           // members read, per open object or list (bits)
  std::vector<uint32_t> seenPerStatus_;  // members read, per container status
};

}  // namespace

std::optional<NodeHeartbeatRequest> decodeHeartbeatDirect(std::string_view body) {
  Reader r;
  try {
    if (!json::sax_parse(body.begin(), body.end(), &r)) return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  if (!r.valid()) return std::nullopt;
  return std::move(r.out);
}

}  // namespace spindle::protocol
