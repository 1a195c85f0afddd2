// Internal to spindle_fair_config: the state shared by the allocation-file parser's pieces
// (allocation_parser.cc: top level and placement; allocation_queues.cc: <queue> elements and
// resolution). Every problem is recorded with the file, the line and the element it concerns:
//
//   ParseState st(source, text, types);
//   st.error(node, "queue root.a", "Missing resource: mb");
//   // -> "fair-scheduler.xml:12: <maxResources> (queue root.a): Missing resource: mb"
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "base/status.h"
#include "scheduler/fair/config/allocation_config.h"

namespace spindle::fair::alloc {

// A <queue> as written, before defaults and inheritance are applied.
struct RawQueue {
  FairQueueConfig cfg;  // identity, tree, directly stored values
  std::optional<int32_t> maxRunningApps;
  std::optional<float> maxAMShare;
  std::optional<PolicyKind> policy;
  std::optional<int64_t> minSharePreemptionTimeoutMs;
  std::optional<int64_t> fairSharePreemptionTimeoutMs;
  std::optional<float> fairSharePreemptionThreshold;
  std::optional<bool> allowPreemptionFrom;
  std::optional<Resource> maxContainerAllocation;
  bool submitAclSet = false;
  bool administerAclSet = false;
};

class ParseState {
 public:
  ParseState(std::string source, std::string_view text, const ResourceTypes& types);

  const ResourceTypes& types() const { return types_; }
  int lineOf(const pugi::xml_node& node) const;
  // "<source>:<line>: <element>[ (context)]: message"
  void error(const pugi::xml_node& node, std::string_view context, std::string_view message);
  void warn(const pugi::xml_node& node, std::string_view context, std::string_view message);
  void errorAt(int line, std::string_view message);
  bool hasErrors() const { return !errors_.empty(); }
  Status toStatus() const;
  std::vector<std::string> takeWarnings() { return std::move(warnings_); }

  std::map<std::string, RawQueue> queues;  // by full path
  std::vector<std::string> order;          // preorder of declaration

 private:
  std::string where(const pugi::xml_node& node, std::string_view context) const;

  std::string source_;
  std::vector<ptrdiff_t> newlines_;
  const ResourceTypes& types_;
  std::vector<std::pair<int, std::string>> errors_;  // (line, message), reported by line
  std::vector<std::string> warnings_;
};

// The element's text: the first text child, trimmed unless `keepSpaces` (ACLs, where a leading
// space means "groups only"). nullopt when the element has no text (YARN fails with a
// NullPointerException there).
std::optional<std::string> elementText(const pugi::xml_node& node, bool keepSpaces = false);

// Java's Integer.parseInt / Long.parseLong (strict decimal) and Float.parseFloat (decimal or
// exponent form, optional f/d suffix). Boolean: "true"/"false" in any case (Java's parseBoolean
// would read anything else as false; a typo is an error here).
Result<int32_t> parseJavaInt(std::string_view text);
Result<int64_t> parseJavaLong(std::string_view text);
Result<float> parseJavaFloat(std::string_view text);
Result<bool> parseStrictBool(std::string_view text);

// Deeper <queue> nesting than any real hierarchy is refused: it bounds the recursion and the
// size of the queue paths (each level's path repeats its parent's).
inline constexpr int kMaxQueueDepth = 64;

// Parses one top-level <queue>/<pool> (and its subtree) under `parentPath` ("" for the root
// queue element itself); `depth` is its level in the hierarchy (root is 1).
void parseQueueElement(const pugi::xml_node& node, const std::string& parentPath, ParseState& st,
                       int depth);
// Parses <queuePlacementPolicy>: its rules, validated; on success sets out.placementPolicy and
// out.placementPolicyFromFile.
void parsePlacementPolicy(const pugi::xml_node& node, ParseState& st, AllocationConfig& out);
// Adds implicit root and root.default, applies defaults and inheritance, checks policy
// placement; fills out.queues, out.preorder and out.configuredQueues.
void resolveQueues(ParseState& st, AllocationConfig& out);

}  // namespace spindle::fair::alloc
