// <queuePlacementPolicy> of the allocation file (2.x QueuePlacementPolicy.fromXml and
// QueuePlacementRule.initializeFromXml).

#include <map>
#include <memory>

#include <fmt/format.h>

#include "scheduler/fair/config/allocation_parse.h"

namespace spindle::fair::alloc {
namespace {

const std::map<std::string, PlacementRuleKind, std::less<>>& ruleKinds() {
  static const auto* kinds = new std::map<std::string, PlacementRuleKind, std::less<>>{
      {"specified", PlacementRuleKind::kSpecified},
      {"user", PlacementRuleKind::kUser},
      {"primaryGroup", PlacementRuleKind::kPrimaryGroup},
      {"secondaryGroupExistingQueue", PlacementRuleKind::kSecondaryGroupExistingQueue},
      {"nestedUserQueue", PlacementRuleKind::kNestedUserQueue},
      {"default", PlacementRuleKind::kDefault},
      {"reject", PlacementRuleKind::kReject},
  };
  return *kinds;
}

// QueuePlacementPolicy.createAndInitializeRule.
std::optional<PlacementRule> parseRule(const pugi::xml_node& node, ParseState& st) {
  const std::string name = node.attribute("name").value();
  if (name.empty()) {
    st.error(node, "queuePlacementPolicy", "No name provided for a rule element");
    return std::nullopt;
  }
  auto kind = ruleKinds().find(name);
  if (kind == ruleKinds().end()) {
    st.error(node, "queuePlacementPolicy", fmt::format("No rule class found for {}", name));
    return std::nullopt;
  }
  PlacementRule rule;
  rule.kind = kind->second;
  rule.line = st.lineOf(node);
  if (pugi::xml_attribute create = node.attribute("create")) {
    auto parsed = parseStrictBool(create.value());
    if (!parsed.isOk()) {
      st.error(node, fmt::format("rule {}", name),
               "attribute create: " + parsed.status().message());
    } else {
      rule.create = parsed.value();
    }
  }
  if (rule.kind == PlacementRuleKind::kDefault) {
    const std::string queue = node.attribute("queue").value();
    if (!queue.empty()) rule.defaultQueue = queue.starts_with("root.") ? queue : "root." + queue;
  }
  if (rule.kind == PlacementRuleKind::kNestedUserQueue) {
    for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
      if (child.type() != pugi::node_element || std::string_view(child.name()) != "rule") continue;
      std::optional<PlacementRule> nested = parseRule(child, st);
      if (!nested) return std::nullopt;
      rule.nested = std::make_shared<const PlacementRule>(*nested);
      break;
    }
    if (!rule.nested) {
      st.error(node, "queuePlacementPolicy", "No nested rule specified in <nestedUserQueue> rule");
      return std::nullopt;
    }
  }
  return rule;
}

}  // namespace

void parsePlacementPolicy(const pugi::xml_node& node, ParseState& st, AllocationConfig& out) {
  PlacementPolicy policy;
  bool ok = true;
  for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
    if (child.type() != pugi::node_element) continue;
    std::optional<PlacementRule> rule = parseRule(child, st);
    if (rule) {
      policy.rules.push_back(*rule);
    } else {
      ok = false;
    }
  }
  if (!ok) return;
  if (Status valid = validatePlacementPolicy(policy); !valid.isOk()) {
    st.error(node, "", valid.message());
    return;
  }
  out.placementPolicy = std::move(policy);
  out.placementPolicyFromFile = true;
}

}  // namespace spindle::fair::alloc
