// <queue>/<pool> elements of the allocation file (AllocationFileQueueParser.loadQueue) and the
// resolution of defaults and inheritance (AllocationConfiguration getters,
// FSQueue.updatePreemptionVariables, policy placement checks of FSParentQueue / QueueManager).

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "base/strings.h"
#include "scheduler/fair/config/allocation_parse.h"

namespace spindle::fair::alloc {
namespace {

std::string queueContext(const std::string& path) { return "queue " + path; }

// Reads one child element of a queue into `q`. Returns false for an unknown element.
class QueueFieldReader {
 public:
  QueueFieldReader(ParseState& st, RawQueue& q) : st_(st), q_(q), ctx_(queueContext(q.cfg.path)) {}

  void read(const pugi::xml_node& field) {
    const std::string tag = field.name();
    if (tag == "minResources") {
      q_.cfg.minResources = resource(field, 0);
    } else if (tag == "maxResources") {
      q_.cfg.maxResources = resource(field, kResourceMax);
    } else if (tag == "maxChildResources") {
      q_.cfg.maxChildResources = resource(field, kResourceMax);
    } else if (tag == "maxContainerAllocation") {
      readMaxContainerAllocation(field);
    } else if (tag == "maxRunningApps") {
      q_.maxRunningApps = value(field, parseJavaInt);
    } else if (tag == "maxAMShare") {
      if (auto v = value(field, parseJavaFloat)) q_.maxAMShare = std::min(*v, 1.0f);
    } else if (tag == "weight") {
      if (auto v = value(field, parseJavaFloat)) q_.cfg.weight = *v;
    } else if (tag == "minSharePreemptionTimeout") {
      q_.minSharePreemptionTimeoutMs = seconds(field);
    } else if (tag == "fairSharePreemptionTimeout") {
      q_.fairSharePreemptionTimeoutMs = seconds(field);
    } else if (tag == "fairSharePreemptionThreshold") {
      if (auto v = value(field, parseJavaFloat)) {
        q_.fairSharePreemptionThreshold = std::max(std::min(*v, 1.0f), 0.0f);
      }
    } else if (tag == "allowPreemptionFrom") {
      q_.allowPreemptionFrom = value(field, parseStrictBool);
    } else if (tag == "schedulingPolicy" || tag == "schedulingMode") {
      q_.policy = value(field, parseSchedulingPolicy);
    } else if (tag == "aclSubmitApps") {
      q_.submitAclSet = acl(field, q_.cfg.submitAcl);
    } else if (tag == "aclAdministerApps") {
      q_.administerAclSet = acl(field, q_.cfg.administerAcl);
    } else if (tag == "aclAdministerReservations") {
      q_.cfg.aclAdministerReservations = elementText(field, true).value_or("");
    } else if (tag == "aclListReservations") {
      q_.cfg.aclListReservations = elementText(field, true).value_or("");
    } else if (tag == "aclSubmitReservations") {
      q_.cfg.aclSubmitReservations = elementText(field, true).value_or("");
    } else if (tag == "reservation") {
      q_.cfg.reservation = true;
    } else {
      st_.warn(field, ctx_, "Bad element in allocations file, ignored");
    }
  }

 private:
  std::optional<std::string> text(const pugi::xml_node& field) {
    std::optional<std::string> t = elementText(field);
    if (!t || t->empty()) st_.error(field, ctx_, "the element has no value");
    if (t && t->empty()) return std::nullopt;
    return t;
  }

  template <typename Parser>
  auto value(const pugi::xml_node& field, Parser parse)
      -> std::optional<std::decay_t<decltype(parse(std::string_view()).value())>> {
    std::optional<std::string> t = text(field);
    if (!t) return std::nullopt;
    auto parsed = parse(*t);
    if (!parsed.isOk()) {
      st_.error(field, ctx_, parsed.status().message());
      return std::nullopt;
    }
    return parsed.value();
  }

  std::optional<ConfigurableResource> resource(const pugi::xml_node& field, int64_t missing) {
    std::optional<std::string> t = text(field);
    if (!t) return std::nullopt;
    auto parsed = parseResourceConfigValue(*t, st_.types(), missing);
    if (!parsed.isOk()) {
      st_.error(field, ctx_, parsed.status().message());
      return std::nullopt;
    }
    return parsed.value();
  }

  // Allocation-file timeouts are seconds; YARN stores val * 1000L.
  std::optional<int64_t> seconds(const pugi::xml_node& field) {
    std::optional<int64_t> s = value(field, parseJavaLong);
    if (!s) return std::nullopt;
    return saturatingMul(*s, 1000);
  }

  void readMaxContainerAllocation(const pugi::xml_node& field) {
    std::optional<ConfigurableResource> r = resource(field, kResourceMax);
    if (!r) return;
    if (r->isPercentage()) {
      st_.error(field, ctx_,
                "maxContainerAllocation must be an absolute resource, not a "
                "percentage");
      return;
    }
    q_.maxContainerAllocation = r->resolve(Resource(), st_.types().count());
  }

  bool acl(const pugi::xml_node& field, AccessControlList& out) {
    const std::string t = elementText(field, true).value_or("");
    auto parsed = parseAccessControlList(t);
    if (!parsed.isOk()) {
      st_.error(field, ctx_, parsed.status().message());
      return false;
    }
    out = parsed.value();
    return true;
  }

  ParseState& st_;
  RawQueue& q_;
  std::string ctx_;
};

// "The configuration settings for X are invalid. A queue element that contains child queue
// elements or that has the type='parent' attribute cannot also include a <E> element."
std::string parentOnlyLeafElement(const std::string& path, const char* element) {
  return fmt::format(
      "The configuration settings for {} are invalid. A queue element that "
      "contains child queue elements or that has the type='parent' attribute "
      "cannot also include a {} element.",
      path, element);
}

bool isQueueTag(std::string_view tag) { return tag == "queue" || tag == "pool"; }

}  // namespace

void parseQueueElement(const pugi::xml_node& node, const std::string& parentPath, ParseState& st,
                       int depth) {
  if (depth > kMaxQueueDepth) {
    st.error(node, queueContext(parentPath),
             fmt::format("<queue> elements nested deeper than {} levels (root is level 1)",
                         kMaxQueueDepth));
    return;
  }
  const std::string name(trimView(node.attribute("name").value(), kJavaSpace));
  if (name.empty()) {
    st.error(node, parentPath.empty() ? "" : queueContext(parentPath),
             "Bad fair scheduler config file: queue name shouldn't be empty or consist only of "
             "whitespace.");
    return;
  }
  if (name.find('.') != std::string::npos) {
    st.error(node, "",
             fmt::format("Bad fair scheduler config file: queue name ({}) shouldn't "
                         "contain period.",
                         name));
    return;
  }
  const std::string path =
      parentPath.empty() ? std::string("root") : fmt::format("{}.{}", parentPath, name);
  if (auto it = st.queues.find(path); it != st.queues.end()) {
    st.error(
        node, queueContext(path),
        fmt::format("queue {} is declared twice (first at line {})", path, it->second.cfg.line));
    return;
  }
  RawQueue& q = st.queues[path];
  st.order.push_back(path);
  q.cfg.path = path;
  q.cfg.name = parentPath.empty() ? "root" : name;
  q.cfg.parent = parentPath;
  q.cfg.declared = true;
  q.cfg.line = st.lineOf(node);
  bool hasChildren = false;
  QueueFieldReader reader(st, q);
  for (pugi::xml_node field = node.first_child(); field; field = field.next_sibling()) {
    if (field.type() != pugi::node_element) continue;
    if (isQueueTag(field.name())) {
      hasChildren = true;
      continue;
    }
    reader.read(field);
  }
  // Children after this queue's own fields, so that `order` stays a preorder.
  for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
    if (child.type() != pugi::node_element || !isQueueTag(child.name())) continue;
    const size_t before = st.order.size();
    parseQueueElement(child, path, st, depth + 1);
    if (st.order.size() > before) st.queues[path].cfg.children.push_back(st.order[before]);
  }
  RawQueue& done = st.queues[path];  // the map may not move nodes, but be explicit
  done.cfg.isParent = hasChildren || std::string_view(node.attribute("type").value()) == "parent";
  if (done.cfg.isParent && done.cfg.reservation) {
    st.error(node, queueContext(path), parentOnlyLeafElement(path, "reservation"));
  }
  if (done.cfg.isParent && done.maxAMShare) {
    st.error(node, queueContext(path), parentOnlyLeafElement(path, "maxAMShare"));
  }
  if (path == "root" && done.maxContainerAllocation) {
    st.error(node, queueContext(path), "maxContainerAllocation is not valid for the root queue");
  }
}

namespace {

void addImplicit(ParseState& st, const std::string& path, const std::string& parent,
                 bool isParent) {
  if (st.queues.count(path) > 0) return;
  RawQueue& q = st.queues[path];
  q.cfg.path = path;
  q.cfg.name = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
  q.cfg.parent = parent;
  q.cfg.isParent = isParent;
  if (!parent.empty()) st.queues[parent].cfg.children.push_back(path);
}

// Warns when an absolute max is below an absolute min in some type (YARN logs "Queue %s has max
// resources %s less than min resources %s"); the effective max is raised to the min.
void checkMaxAtLeastMin(const FairQueueConfig& q, int typeCount,
                        std::vector<std::string>& warnings) {
  if (!q.minResources || !q.maxResources) return;
  if (q.minResources->isPercentage() || q.maxResources->isPercentage()) return;
  for (int i = 0; i < typeCount; ++i) {
    if (q.maxResources->absoluteValue(i) < q.minResources->absoluteValue(i)) {
      warnings.push_back(
          fmt::format("line {}: Queue {} has max resources less than min resources; "
                      "the max share is raised to the min share",
                      q.line, q.path));
      return;
    }
  }
}

}  // namespace

void resolveQueues(ParseState& st, AllocationConfig& out) {
  for (const auto& [path, q] : st.queues) {
    if (q.cfg.isParent) {
      out.configuredQueues.parents.insert(path);
    } else {
      out.configuredQueues.leaves.insert(path);
    }
  }
  const bool rootDeclared = st.queues.count("root") > 0;
  addImplicit(st, "root", "", true);
  if (!rootDeclared) {
    // Top-level queues were parsed under the implicit root: link them in file order.
    for (const std::string& path : st.order) {
      if (st.queues[path].cfg.parent == "root") st.queues["root"].cfg.children.push_back(path);
    }
  }
  st.queues["root"].cfg.isParent = true;
  addImplicit(st, "root.default", "root", false);

  std::vector<std::string> warnings = st.takeWarnings();
  // Preorder walk: parents are resolved before their children.
  std::function<void(const std::string&)> visit = [&](const std::string& path) {
    RawQueue& raw = st.queues[path];
    FairQueueConfig& q = raw.cfg;
    const FairQueueConfig* parent = q.parent.empty() ? nullptr : &out.queues.at(q.parent);
    q.maxRunningApps = raw.maxRunningApps.value_or(out.queueMaxAppsDefault);
    q.maxAMShare = raw.maxAMShare.value_or(out.queueMaxAMShareDefault);
    q.policy = raw.policy.value_or(out.defaultSchedulingPolicy);
    if (!q.maxResources && parent) q.maxResources = out.queueMaxResourcesDefault;
    q.minSharePreemptionTimeoutMs = raw.minSharePreemptionTimeoutMs.value_or(
        parent ? parent->minSharePreemptionTimeoutMs : out.defaultMinSharePreemptionTimeoutMs);
    q.fairSharePreemptionTimeoutMs = raw.fairSharePreemptionTimeoutMs.value_or(
        parent ? parent->fairSharePreemptionTimeoutMs : out.defaultFairSharePreemptionTimeoutMs);
    q.fairSharePreemptionThreshold = raw.fairSharePreemptionThreshold.value_or(
        parent ? parent->fairSharePreemptionThreshold : out.defaultFairSharePreemptionThreshold);
    q.allowPreemptionFrom = raw.allowPreemptionFrom.value_or(true) &&
                            (parent == nullptr || parent->allowPreemptionFrom);
    q.maxContainerAllocation = raw.maxContainerAllocation
                                   ? raw.maxContainerAllocation
                                   : (parent ? parent->maxContainerAllocation : std::nullopt);
    if (!raw.submitAclSet && !parent) q.submitAcl.everyone = true;
    if (!raw.administerAclSet && !parent) q.administerAcl.everyone = true;
    q.policyAllowed = parent == nullptr || parent->policyAllowed;
    if (q.policyAllowed && q.isParent && !isAllowedOnParent(q.policy)) {
      q.policyAllowed = false;
      warnings.push_back(
          fmt::format("line {}: queue {} is a parent queue and cannot use the FIFO "
                      "policy; YARN does not create it or its subtree",
                      q.line, path));
    } else if (q.policyAllowed && parent && !isChildPolicyAllowed(parent->policy, q.policy)) {
      q.policyAllowed = false;
      warnings.push_back(
          fmt::format("line {}: queue {} uses policy {}, which its parent's policy {} "
                      "does not allow; YARN does not create it or its subtree",
                      q.line, path, policyName(q.policy), policyName(parent->policy)));
    }
    checkMaxAtLeastMin(q, st.types().count(), warnings);
    out.queues.emplace(path, q);
    out.preorder.push_back(path);
    for (const std::string& child : std::vector<std::string>(q.children)) visit(child);
  };
  visit("root");
  for (std::string& w : warnings) out.warnings.push_back(std::move(w));
}

}  // namespace spindle::fair::alloc
