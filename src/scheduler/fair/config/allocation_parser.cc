// The allocation file's top level (AllocationFileParser) and the entry points.

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "scheduler/fair/config/allocation_config.h"
#include "scheduler/fair/config/allocation_parse.h"

namespace spindle::fair {
namespace {

using alloc::ParseState;

// parse_ws_pcdata_single keeps a whitespace-only <aclSubmitApps> </aclSubmitApps> (" " = nobody).
constexpr unsigned kParseOptions = pugi::parse_default | pugi::parse_ws_pcdata_single;

// Top-level scalar elements. Returns false for an unknown tag.
bool parseDefaultElement(const pugi::xml_node& node, ParseState& st, AllocationConfig& out,
                         std::optional<int64_t>& legacyFairTimeout, bool& defaultFairTimeoutSet) {
  const std::string tag = node.name();
  auto text = [&]() -> std::optional<std::string> {
    std::optional<std::string> t = alloc::elementText(node);
    if (!t || t->empty()) {
      st.error(node, "", "the element has no value");
      return std::nullopt;
    }
    return t;
  };
  auto report = [&](const Status& s) { st.error(node, "", s.message()); };
  auto asInt = [&](int32_t& target) {
    if (auto t = text()) {
      auto v = alloc::parseJavaInt(*t);
      v.isOk() ? void(target = v.value()) : report(v.status());
    }
  };
  auto asSeconds = [&](int64_t& target) {
    if (auto t = text()) {
      auto v = alloc::parseJavaLong(*t);
      v.isOk() ? void(target = saturatingMul(v.value(), 1000)) : report(v.status());
    }
  };
  auto asFloat = [&](float& target, float lo, float hi) {
    if (auto t = text()) {
      auto v = alloc::parseJavaFloat(*t);
      v.isOk() ? void(target = std::max(std::min(v.value(), hi), lo)) : report(v.status());
    }
  };
  auto asText = [&](std::string& target) {
    if (auto t = text()) target = *t;
  };
  if (tag == "userMaxAppsDefault") {
    asInt(out.userMaxAppsDefault);
  } else if (tag == "queueMaxAppsDefault") {
    asInt(out.queueMaxAppsDefault);
  } else if (tag == "queueMaxResourcesDefault") {
    if (auto t = text()) {
      auto v = parseResourceConfigValue(*t, st.types(), kResourceMax);
      v.isOk() ? void(out.queueMaxResourcesDefault = v.value()) : report(v.status());
    }
  } else if (tag == "queueMaxAMShareDefault") {
    asFloat(out.queueMaxAMShareDefault, -std::numeric_limits<float>::infinity(), 1.0f);
  } else if (tag == "defaultQueueSchedulingPolicy" || tag == "defaultQueueSchedulingMode") {
    if (auto t = text()) {
      auto v = parseSchedulingPolicy(*t);
      if (!v.isOk()) {
        report(v.status());
      } else if (v.value() == PolicyKind::kFifo) {
        report(
            invalidArgument("Bad fair scheduler config file: defaultQueueSchedulingPolicy or "
                            "defaultQueueSchedulingMode can't be FIFO."));
      } else {
        out.defaultSchedulingPolicy = v.value();
      }
    }
  } else if (tag == "defaultMinSharePreemptionTimeout") {
    asSeconds(out.defaultMinSharePreemptionTimeoutMs);
  } else if (tag == "defaultFairSharePreemptionTimeout") {
    asSeconds(out.defaultFairSharePreemptionTimeoutMs);
    defaultFairTimeoutSet = true;
  } else if (tag == "fairSharePreemptionTimeout") {
    int64_t legacy = 0;
    asSeconds(legacy);
    legacyFairTimeout = legacy;
  } else if (tag == "defaultFairSharePreemptionThreshold") {
    asFloat(out.defaultFairSharePreemptionThreshold, 0.0f, 1.0f);
  } else if (tag == "reservation-agent") {
    asText(out.reservationAgent);
  } else if (tag == "reservation-policy") {
    asText(out.reservationPolicy);
  } else if (tag == "reservation-planner") {
    asText(out.reservationPlanner);
  } else {
    return false;
  }
  return true;
}

void parseUser(const pugi::xml_node& node, ParseState& st, AllocationConfig& out) {
  const std::string name = node.attribute("name").value();
  if (name.empty()) {
    st.error(node, "", "a <user> element needs a name attribute");
    return;
  }
  for (pugi::xml_node field = node.first_child(); field; field = field.next_sibling()) {
    if (field.type() != pugi::node_element) continue;
    if (std::string_view(field.name()) != "maxRunningApps") {
      st.warn(field, "user " + name, "Bad element in allocations file, ignored");
      continue;
    }
    auto v = alloc::parseJavaInt(alloc::elementText(field).value_or(""));
    if (!v.isOk()) {
      st.error(field, "user " + name, v.status().message());
    } else {
      out.userMaxApps[name] = v.value();
    }
  }
}

Result<AllocationConfig> parseDocument(const pugi::xml_node& top, ParseState& st,
                                       const FairSiteConfig& site) {
  AllocationConfig out;
  std::vector<pugi::xml_node> queueNodes;
  std::optional<int64_t> legacyFairTimeout;
  bool defaultFairTimeoutSet = false;
  for (pugi::xml_node node = top.first_child(); node; node = node.next_sibling()) {
    if (node.type() != pugi::node_element) continue;
    const std::string_view tag = node.name();
    if (tag == "queue" || tag == "pool") {
      queueNodes.push_back(node);
    } else if (tag == "user") {
      parseUser(node, st, out);
    } else if (tag == "queuePlacementPolicy") {
      alloc::parsePlacementPolicy(node, st, out);
    } else if (!parseDefaultElement(node, st, out, legacyFairTimeout, defaultFairTimeoutSet)) {
      st.warn(node, "", "Bad element in allocations file, ignored");
    }
  }
  if (!defaultFairTimeoutSet && legacyFairTimeout) {
    out.defaultFairSharePreemptionTimeoutMs = *legacyFairTimeout;
  }
  // AllocationFileQueueParser: a top-level queue named root (any case) must be alone.
  for (const pugi::xml_node& node : queueNodes) {
    const std::string name = node.attribute("name").value();
    const bool isRoot = name.size() == 4 && (name[0] | 0x20) == 'r' && (name[1] | 0x20) == 'o' &&
                        (name[2] | 0x20) == 'o' && (name[3] | 0x20) == 't';
    if (isRoot && queueNodes.size() != 1) {
      st.error(node, "", "If configuring root queue, no other queues can be placed alongside it.");
      continue;
    }
    alloc::parseQueueElement(node, isRoot ? "" : "root", st, isRoot ? 1 : 2);
  }
  if (!out.placementPolicyFromFile) {
    out.placementPolicy =
        defaultPlacementPolicy(site.allowUndeclaredPools, site.userAsDefaultQueue);
  }
  alloc::resolveQueues(st, out);
  SPINDLE_RETURN_IF_ERROR(st.toStatus());
  return out;
}

Result<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return notFound("cannot read allocation file {}", path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

const FairQueueConfig* AllocationConfig::find(const std::string& path) const {
  auto it = queues.find(path);
  return it == queues.end() ? nullptr : &it->second;
}

bool AllocationConfig::hasAccess(const std::string& path, QueueAcl acl, const std::string& user,
                                 const std::vector<std::string>& userGroups) const {
  for (const FairQueueConfig* q = find(path); q != nullptr;
       q = q->parent.empty() ? nullptr : find(q->parent)) {
    if (q->administerAcl.allows(user, userGroups)) return true;
    if (acl == QueueAcl::kSubmitApplications && q->submitAcl.allows(user, userGroups)) return true;
  }
  return false;
}

int32_t AllocationConfig::maxRunningAppsOfUser(const std::string& user) const {
  auto it = userMaxApps.find(user);
  return it == userMaxApps.end() ? userMaxAppsDefault : it->second;
}

Resource FairQueueConfig::minShare(const Resource& cluster, int typeCount) const {
  return minResources ? minResources->resolve(cluster, typeCount) : Resource();
}

ResourceLimit FairQueueConfig::maxShare(const Resource& cluster, int typeCount) const {
  ResourceLimit limit =
      maxResources ? maxResources->resolveLimit(cluster, typeCount) : ResourceLimit::unbounded();
  const Resource min = minShare(cluster, typeCount);
  for (int i = 0; i < typeCount; ++i) limit.set(i, std::max(limit.get(i), min.get(i)));
  return limit;
}

Result<AllocationConfig> parseAllocationText(std::string_view xml, std::string_view sourceName,
                                             const ResourceTypes& types,
                                             const FairSiteConfig& site) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size(), kParseOptions);
  ParseState st(std::string(sourceName), xml, types);
  if (!parsed) {
    size_t line = 1;
    for (ptrdiff_t i = 0; i < parsed.offset && i < static_cast<ptrdiff_t>(xml.size()); ++i) {
      if (xml[static_cast<size_t>(i)] == '\n') ++line;
    }
    return invalidArgument("{}:{}: malformed XML: {}", sourceName, line, parsed.description());
  }
  const pugi::xml_node top = doc.document_element();
  if (std::string_view(top.name()) != "allocations") {
    return invalidArgument(
        "{}:{}: Bad fair scheduler config file: top-level element not "
        "<allocations>",
        sourceName, st.lineOf(top));
  }
  return parseDocument(top, st, site);
}

Result<AllocationConfig> parseAllocationFile(const std::string& path, const ResourceTypes& types,
                                             const FairSiteConfig& site) {
  SPINDLE_ASSIGN_OR_RETURN(std::string text, readFile(path));
  return parseAllocationText(text, path, types, site);
}

AllocationConfig emptyAllocation(const FairSiteConfig& site) {
  auto parsed =
      parseAllocationText("<allocations/>", "<no allocation file>", ResourceTypes(), site);
  return parsed.value();
}

Result<FairSchedulerConfig> parseFairSchedulerConfig(const Configuration& conf,
                                                     const ResourceTypes& types,
                                                     const std::string& allocationPath) {
  SPINDLE_ASSIGN_OR_RETURN(FairSiteConfig site, parseFairSiteConfig(conf));
  const std::string path = allocationPath.empty() ? site.allocationFile : allocationPath;
  const bool explicitFile = !allocationPath.empty() || site.allocationFileSet;
  std::ifstream probe(path);
  if (!probe && !explicitFile) {
    FairSchedulerConfig cfg{site, emptyAllocation(site), ""};
    cfg.allocation.warnings.push_back(
        fmt::format("allocation file {} not found; using the default queues", path));
    return cfg;
  }
  SPINDLE_ASSIGN_OR_RETURN(AllocationConfig allocation, parseAllocationFile(path, types, site));
  return FairSchedulerConfig{site, allocation, path};
}

Result<FairSchedulerConfig> parseFairSchedulerConfigText(const Configuration& conf,
                                                         const ResourceTypes& types,
                                                         std::string_view allocationXml,
                                                         std::string_view sourceName) {
  SPINDLE_ASSIGN_OR_RETURN(FairSiteConfig site, parseFairSiteConfig(conf));
  SPINDLE_ASSIGN_OR_RETURN(AllocationConfig allocation,
                           parseAllocationText(allocationXml, sourceName, types, site));
  return FairSchedulerConfig{site, allocation, ""};
}

}  // namespace spindle::fair
