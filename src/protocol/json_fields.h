// Located, typed reads of one JSON message: every error names the message and the field path.
//
//   JsonFields f(body, "NodeHeartbeatRequest");
//   NodeStatus s;
//   JsonFields st = f.object("nodeStatus");
//   s.nodeId = st.str("nodeId");
//   s.responseId = st.int32("responseId");
//   if (!f.ok()) return f.status();   // "NodeHeartbeatRequest.nodeStatus.responseId: expected
//                                     //  an integer, got \"x\""
//
// Reads never throw: the first error is kept (shared by the children of one message) and later
// reads return defaults. Unknown members are ignored, so a newer peer's extra fields pass.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle::protocol {

class JsonFields {
 public:
  // `j` must be an object (an error otherwise).
  JsonFields(const nlohmann::json& j, std::string path);

  bool ok() const { return error_->isOk(); }
  const Status& status() const { return *error_; }
  const std::string& path() const { return path_; }
  bool has(std::string_view key) const;

  // Required members: absence is an error.
  std::string str(std::string_view key);
  int64_t int64(std::string_view key);
  int32_t int32(std::string_view key);
  // Optional members: the default when absent or null.
  std::string str(std::string_view key, std::string_view def);
  int64_t int64(std::string_view key, int64_t def);
  int32_t int32(std::string_view key, int32_t def);
  double number(std::string_view key, double def);
  bool boolean(std::string_view key, bool def);
  // An array of strings; empty when absent. A single string is accepted as a one-element list
  // (Jersey's natural JSON writes one-element lists that way).
  std::vector<std::string> strings(std::string_view key);
  // An object of string values ({"NAME": "value"}); empty when absent.
  std::map<std::string, std::string> stringMap(std::string_view key);
  // A required nested object.
  JsonFields object(std::string_view key);
  // An optional nested object; nullopt when absent or null.
  std::optional<JsonFields> optObject(std::string_view key);
  // The objects of an array member (empty when absent); a single object counts as a list of one.
  std::vector<JsonFields> objects(std::string_view key);

  // Records an error at this path (the first one wins).
  void fail(std::string_view key, std::string_view what);

 private:
  JsonFields(const nlohmann::json& j, std::string path, std::shared_ptr<Status> error);
  const nlohmann::json* member(std::string_view key, bool required);
  std::string pathOf(std::string_view key) const;

  const nlohmann::json* j_;
  std::string path_;
  std::shared_ptr<Status> error_;
};

// Parses a message body; the error names `what` and the parser's position.
Result<nlohmann::json> parseJsonBody(std::string_view body, std::string_view what);

}  // namespace spindle::protocol
