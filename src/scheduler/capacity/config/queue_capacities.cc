// Step 4: capacities per queue and partition, derived absolutes and the build-time checks of
// YARN's ParentQueue and CSQueueUtils. Java float arithmetic throughout, as YARN's QueueCapacities.
//
// Algorithm:
//  1. Per queue, its partitions: "" plus every label it names in its own keys plus every cluster
//     label it can access (root: all cluster labels, each fixed at 100 %).
//  2. Per queue and partition, parse capacity (percent, weight or absolute; default 0),
//     maximum-capacity (percent or absolute; unset or -1 = 100) and
//     maximum-am-resource-percent (the label value defaults to the queue value).
//  3. Per parent (pre-order) and partition, the children's mode: the set of forms with a
//     positive value (ParentQueue.getCapacityConfigurationTypeForQueues); more than one is an
//     error. Relative capacity: percent / 100, weight / sum of sibling weights, absolute 0.
//     absoluteCapacity = relative x parent's, absoluteMaximumCapacity = max x parent's.
//  4. Checks: abs-capacity <= abs-maximum-capacity; percent children sum to 1 (tolerance
//     0.0005) or 0 as ParentQueue.validate allows, with allow-zero-capacity-sum; absolute
//     children only below an absolute parent (or root), their sum within the parent's.

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "scheduler/capacity/config/config_builder.h"

namespace spindle::capacity_config {
namespace {

constexpr float kPrecision = 0.0005f;  // ParentQueue's PRECISION (0.05 %)
constexpr float kMaxWeight = 10000.0f;

const char* modeName(CapacityMode m) {
  switch (m) {
    case CapacityMode::kPercent: return "percentage";
    case CapacityMode::kWeight: return "weight";
    case CapacityMode::kAbsolute: return "absolute";
  }
  return "?";
}

// "for queue root.a" or "for node-label=x in queue=root.a", as YARN words the two getters.
std::string whose(const std::string& path, const std::string& label) {
  if (label.empty()) return fmt::format("for queue {}", path);
  return fmt::format("for node-label={} in queue={}", label, path);
}

std::set<std::string> partitionLabels(const BuildContext& ctx, const QueueConfig& q) {
  std::set<std::string> labels{""};
  auto configured = ctx.configuredLabels.find(q.path);
  if (configured != ctx.configuredLabels.end()) {
    labels.insert(configured->second.begin(), configured->second.end());
  }
  for (const auto& [label, info] : ctx.labels) {
    if (q.canAccess(label)) labels.insert(label);
  }
  return labels;
}

bool isPositive(const CapacityValue& v) {
  switch (v.mode) {
    case CapacityMode::kPercent: return v.fraction > 0;
    case CapacityMode::kWeight: return v.weight > 0;
    case CapacityMode::kAbsolute: return !v.absolute.isZero();
  }
  return false;
}

// Root: capacity and maximum-capacity are fixed at 100 (CapacitySchedulerConfiguration);
// 100 may be written. The fixed-capacity rule is the percentage setter's: an absolute capacity
// ([memory=...,vcores=...], for a label or not) is accepted, as YARN's getLabeledQueueCapacity
// reads root's percent as 100 whatever the text and keeps the resource as root's configured
// minimum (QueueResourceQuotas); root's capacities and effective resources stay the
// partition's.
void readRootPartition(BuildContext& ctx, const std::string& label, PartitionConfig& p) {
  for (const char* suffix : {"capacity", "maximum-capacity"}) {
    const std::string key = labelKey("root", label, suffix);
    std::optional<std::string> value = ctx.conf.get(key);
    if (!value) continue;
    auto parsed = parseCapacityText(*value, ctx.types);
    const bool isCapacity = std::string_view(suffix) == "capacity";
    if (isCapacity && !parsed && trimView(*value).starts_with('[')) {
      ctx.problems.error(key, "{}", parsed.status().message());
      continue;
    }
    if (isCapacity && parsed && parsed->mode == CapacityMode::kAbsolute) {
      p.capacity.mode = CapacityMode::kAbsolute;
      p.capacity.absolute = parsed->absolute;
      continue;
    }
    bool hundred = parsed && parsed->mode == CapacityMode::kPercent &&
                   (parsed->number == 100.0f || (parsed->number == -1.0f && !isCapacity));
    if (hundred) continue;
    ctx.problems.error(key, "Cannot set {}, root queue has a fixed capacity of 100.0f (got '{}')",
                       suffix, trimView(*value));
  }
  p.capacity.fraction = 1;
  p.maximumCapacity.fraction = 1;
  p.relativeCapacity = 1;
  p.absoluteCapacity = 1;
  p.absoluteMaximumCapacity = 1;
}

void readCapacity(BuildContext& ctx, const QueueConfig& q, const std::string& label,
                  PartitionConfig& p) {
  const std::string key = labelKey(q.path, label, "capacity");
  std::optional<std::string> value = ctx.conf.get(key);
  if (!value) return;  // percent 0
  auto parsed = parseCapacityText(*value, ctx.types);
  if (!parsed) {
    ctx.problems.error(key, "{}", parsed.status().message());
    return;
  }
  p.capacity.mode = parsed->mode;
  if (parsed->mode == CapacityMode::kPercent) {
    if (parsed->number < 0 || parsed->number > 100) {
      ctx.problems.error(key, "Illegal capacity of {} {}{}", javaFloat(parsed->number),
                         whose(q.path, label),
                         label.empty() ? "" : ", valid capacity should in range of [0, 100].");
      return;
    }
    p.capacity.fraction = parsed->number / 100.0f;
  } else if (parsed->mode == CapacityMode::kWeight) {
    if (parsed->number < 0 || parsed->number > kMaxWeight) {
      ctx.problems.error(key,
                         "Illegal weight of {} {}, valid weight should be in range of "
                         "[0, 10000]",
                         javaFloat(parsed->number), whose(q.path, label));
      return;
    }
    p.capacity.weight = parsed->number;
  } else {
    // A zero resource is a zero guarantee: the queue stays in absolute mode with nothing
    // guaranteed (YARN 3.x reads [memory=0,vcores=0] as Resources.none()).
    p.capacity.absolute = parsed->absolute;
    if (parsed->droppedWithoutMemory) {
      ctx.problems.warn(key,
                        "'{}' gives no memory, so YARN reads it as [memory=0,vcores=0] (a zero "
                        "guarantee); the other values are ignored",
                        trimView(*value));
    }
  }
}

// Returns whether the key was set explicitly (to a value other than -1).
bool readMaximumCapacity(BuildContext& ctx, const QueueConfig& q, const std::string& label,
                         PartitionConfig& p) {
  p.maximumCapacity.fraction = 1;
  const std::string key = labelKey(q.path, label, "maximum-capacity");
  std::optional<std::string> value = ctx.conf.get(key);
  if (!value) return false;
  auto parsed = parseCapacityText(*value, ctx.types);
  if (!parsed) {
    ctx.problems.error(key, "{}", parsed.status().message());
    return true;
  }
  if (parsed->mode == CapacityMode::kWeight) {
    ctx.problems.error(key,
                       "maximum-capacity has no weight form ('{}'): use a percent or an "
                       "absolute resource",
                       trimView(*value));
    return true;
  }
  if (parsed->mode == CapacityMode::kAbsolute && parsed->absolute.isZero()) {
    // getMaximumResourceRequirement: none means no configured maximum (100 %).
    ctx.problems.warn(key, "'{}' is read as no maximum (YARN: Resources.none(), 100%)",
                      trimView(*value));
    return false;
  }
  if (parsed->mode == CapacityMode::kAbsolute) {
    p.maximumCapacity.mode = CapacityMode::kAbsolute;
    p.maximumCapacity.absolute = parsed->absolute;
    return true;
  }
  if (parsed->number == -1.0f) return false;  // DEFAULT_MAXIMUM_CAPACITY_VALUE: 100
  if (parsed->number < 0 || parsed->number > 100) {
    ctx.problems.error(key, "Illegal maximum capacity of {} {}", javaFloat(parsed->number),
                       whose(q.path, label));
    return true;
  }
  p.maximumCapacity.fraction = parsed->number / 100.0f;
  return true;
}

float readAmPercent(BuildContext& ctx, const std::string& key, float fallback) {
  float v = static_cast<float>(
      ctx.problems.take(ctx.conf.getDouble(key, fallback), static_cast<double>(fallback)));
  if (v < 0 || v > 1) {
    ctx.problems.error(key, "is a fraction in [0, 1] (0.1 = 10%), got {}", javaFloat(v));
    return fallback;
  }
  return v;
}

// AbstractCSQueue: a queue uses absolute resources for both capacity and maximum-capacity or
// for neither; its minimum must fit in its maximum.
void checkQueueAbsoluteConsistency(BuildContext& ctx, const QueueConfig& q,
                                   const std::string& label, const PartitionConfig& p,
                                   bool maxSet) {
  bool minAbsolute = p.capacity.mode == CapacityMode::kAbsolute;
  bool maxAbsolute = p.maximumCapacity.mode == CapacityMode::kAbsolute;
  bool capSet = ctx.conf.contains(labelKey(q.path, label, "capacity"));
  if ((minAbsolute && maxSet && !maxAbsolute) || (maxAbsolute && capSet && !minAbsolute)) {
    ctx.problems.error(labelKey(q.path, label, "maximum-capacity"),
                       "Queue '{}' should use either percentage based capacity configuration or "
                       "absolute resource (label={})",
                       q.path, label);
    return;
  }
  if (!minAbsolute || !maxAbsolute) return;
  for (int i = 0; i < ctx.types.count(); ++i) {
    int64_t max = p.maximumCapacity.absolute.get(i);
    if (max > 0 && p.capacity.absolute.get(i) > max) {
      ctx.problems.error(labelKey(q.path, label, "capacity"),
                         "Min resource configuration {} is greater than its max value:{} in "
                         "queue:{}",
                         p.capacity.absolute.toString(), p.maximumCapacity.absolute.toString(),
                         q.path);
      return;
    }
  }
}

void readPartitions(BuildContext& ctx, QueueConfig& q) {
  // getMaximumApplicationMasterResourcePerQueuePercent: the queue key, else the global one.
  const float queueAm = readAmPercent(ctx, queueKey(q.path, "maximum-am-resource-percent"),
                                      static_cast<float>(ctx.out.maximumAmResourcePercent));
  for (const std::string& label : partitionLabels(ctx, q)) {
    PartitionConfig& p = q.partitions[label];
    p.maximumAmResourcePercent =
        label.empty()
            ? queueAm
            : readAmPercent(ctx, labelKey(q.path, label, "maximum-am-resource-percent"), queueAm);
    if (q.parent.empty()) {
      readRootPartition(ctx, label, p);
      continue;
    }
    readCapacity(ctx, q, label, p);
    bool maxSet = readMaximumCapacity(ctx, q, label, p);
    checkQueueAbsoluteConsistency(ctx, q, label, p, maxSet);
    if (!q.canAccess(label) && isPositive(p.capacity)) {
      ctx.problems.warn(labelKey(q.path, label, "capacity"),
                        "queue {} cannot access label {} (see {}), so this capacity is unused",
                        q.path, label, queueKey(q.path, "accessible-node-labels"));
    }
  }
}

// ---- per parent ------------------------------------------------------------------------------

struct ParentView {
  const QueueConfig& parent;
  std::vector<QueueConfig*> children;
};

// Labels any child has a partition for, in order.
std::set<std::string> childLabels(const ParentView& v) {
  std::set<std::string> labels;
  for (const QueueConfig* c : v.children) {
    for (const auto& [label, p] : c->partitions) labels.insert(label);
  }
  return labels;
}

// ParentQueue.getCapacityConfigurationTypeForQueues: the one mode with a positive value among
// the children (percent when none), or an error listing them.
std::optional<CapacityMode> childrenMode(BuildContext& ctx, const ParentView& v,
                                         const std::string& label) {
  std::set<CapacityMode> modes;
  std::vector<std::string> details;
  for (const QueueConfig* c : v.children) {
    auto it = c->partitions.find(label);
    if (it == c->partitions.end() || !isPositive(it->second.capacity)) continue;
    modes.insert(it->second.capacity.mode);
    details.push_back(fmt::format("{{Queue={}, label={} uses {} mode}}", c->path, label,
                                  modeName(it->second.capacity.mode)));
  }
  if (modes.size() > 1) {
    ctx.problems.error(queueKey(v.parent.path, "queues"),
                       "Parent queue '{}' have children queue used mixed of weight mode, "
                       "percentage and absolute mode, it is not allowed, please double check, "
                       "details:{}",
                       v.parent.path, fmt::join(details, ". "));
    return std::nullopt;
  }
  return modes.empty() ? CapacityMode::kPercent : *modes.begin();
}

void deriveChildren(BuildContext& ctx, const ParentView& v, const std::string& label,
                    CapacityMode mode) {
  const PartitionConfig* parentPart = nullptr;
  if (auto it = v.parent.partitions.find(label); it != v.parent.partitions.end()) {
    parentPart = &it->second;
  }
  const float parentAbs = parentPart ? static_cast<float>(parentPart->absoluteCapacity) : 0.0f;
  const float parentAbsMax =
      parentPart ? static_cast<float>(parentPart->absoluteMaximumCapacity) : 0.0f;
  float weightSum = 0;
  for (const QueueConfig* c : v.children) {
    auto it = c->partitions.find(label);
    if (it != c->partitions.end() && it->second.capacity.mode == CapacityMode::kWeight) {
      weightSum += static_cast<float>(it->second.capacity.weight);
    }
  }
  for (QueueConfig* c : v.children) {
    auto it = c->partitions.find(label);
    if (it == c->partitions.end()) continue;
    PartitionConfig& p = it->second;
    float relative = 0;
    if (p.capacity.mode == CapacityMode::kPercent)
      relative = static_cast<float>(p.capacity.fraction);
    if (p.capacity.mode == CapacityMode::kWeight && weightSum > 0) {
      relative = static_cast<float>(p.capacity.weight) / weightSum;
    }
    p.relativeCapacity = relative;
    float abs = relative > 0 ? relative * parentAbs : 0.0f;
    float absMax = static_cast<float>(p.maximumCapacity.fraction) * parentAbsMax;
    p.absoluteCapacity = abs;
    p.absoluteMaximumCapacity = absMax;
    if (mode != CapacityMode::kAbsolute && abs > absMax) {
      ctx.problems.error(labelKey(c->path, label, "capacity"),
                         "Illegal queue capacity setting (abs-capacity={}) > "
                         "(abs-maximum-capacity={}) for queue=[{}],label=[{}]",
                         javaFloat(abs), javaFloat(absMax), c->path, label);
    }
  }
}

// Whether the parent's capacity for `label` is checked against its children: "" always, a
// label the parent names in its keys, and at root any label a child gives capacity to.
bool checksLabel(const BuildContext& ctx, const ParentView& v, const std::string& label) {
  if (label.empty()) return true;
  auto configured = ctx.configuredLabels.find(v.parent.path);
  if (configured != ctx.configuredLabels.end() && configured->second.count(label) > 0) {
    return true;
  }
  if (!v.parent.parent.empty()) return false;
  for (const QueueConfig* c : v.children) {
    auto it = c->partitions.find(label);
    if (it != c->partitions.end() && isPositive(it->second.capacity)) return true;
  }
  return false;
}

// The queue's own name (AbstractCSQueue.getQueueName): the last part of its path, as YARN's
// capacity-sum messages name it.
std::string shortName(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// ParentQueue.setChildQueues for percent children, with its messages word for word (YARN 3.4:
// the queue's short name, "for label=", and "childqueues" as YARN spells it).
void checkPercentSum(BuildContext& ctx, const ParentView& v, const std::string& label) {
  float sum = 0;
  for (const QueueConfig* c : v.children) {
    auto it = c->partitions.find(label);
    if (it != c->partitions.end()) sum += static_cast<float>(it->second.relativeCapacity);
  }
  const PartitionConfig& pp = v.parent.partition(label);
  const bool parentPercent = pp.capacity.mode == CapacityMode::kPercent;
  const float parentCapacity = static_cast<float>(pp.relativeCapacity);
  const bool allowZero = v.parent.allowZeroCapacitySum;
  const std::string key = queueKey(v.parent.path, "queues");
  const std::string name = shortName(v.parent.path);
  const std::string head = fmt::format(
      "Illegal capacity sum of {} for children of queue {} for "
      "label={}",
      javaFloat(sum), name, label);
  if (std::fabs(1.0f - sum) > kPrecision) {
    if (std::fabs(sum) > kPrecision) {
      // YARN's message, then (Spindle) each child's configured capacity, so the sum can be fixed
      // without reading the file.
      std::string values;
      for (const QueueConfig* c : v.children) {
        auto it = c->partitions.find(label);
        const double pct = it != c->partitions.end() ? it->second.relativeCapacity * 100 : 0;
        values += fmt::format("{}{}={:g}%", values.empty() ? "" : ", ", c->path, pct);
      }
      ctx.problems.error(key, "{}. It should be either 0 or 1.0 (children: {})", head, values);
    } else if (parentPercent && std::fabs(parentCapacity) > kPrecision && !allowZero) {
      ctx.problems.error(key,
                         "{}. It is set to 0, but parent percent != 0, and doesn't allow "
                         "children capacity to set to 0",
                         head);
    }
  } else if (parentPercent && std::fabs(parentCapacity) <= 0.0f && !allowZero) {
    ctx.problems.error(key,
                       "{}. queue={} has zero capacity, but childqueues have positive capacities",
                       head, name);
  }
}

// Absolute children: the parent must be absolute too (root excepted) and hold their sum.
void checkAbsoluteChildren(BuildContext& ctx, const ParentView& v, const std::string& label) {
  const PartitionConfig& pp = v.parent.partition(label);
  const bool parentIsRoot = v.parent.parent.empty();
  if (!parentIsRoot && pp.capacity.mode != CapacityMode::kAbsolute) {
    for (const QueueConfig* c : v.children) {
      if (c->partition(label).capacity.mode != CapacityMode::kAbsolute) continue;
      ctx.problems.error(labelKey(c->path, label, "capacity"),
                         "Parent queue '{}' and child queue '{}' should use either percentage "
                         "based capacity configuration or absolute resource together for "
                         "label:{}",
                         v.parent.path, c->path, label);
    }
    return;
  }
  // Root's resource is the cluster, known at run time; a configured minimum of root's (an
  // absolute capacity for the partition) bounds its children as any parent's.
  if (parentIsRoot && pp.capacity.mode != CapacityMode::kAbsolute) return;
  Resource sum;
  for (const QueueConfig* c : v.children) sum += c->partition(label).capacity.absolute;
  if (!sum.fitsIn(pp.capacity.absolute)) {
    ctx.problems.error(labelKey(v.parent.path, label, "capacity"),
                       "Parent Queues capacity: {} is less than to its children:{} for queue:{}",
                       pp.capacity.absolute.toString(), sum.toString(), shortName(v.parent.path));
  }
}

void deriveParent(BuildContext& ctx, QueueConfig& parent) {
  ParentView v{parent, {}};
  for (const std::string& child : parent.children) v.children.push_back(&ctx.out.queues.at(child));
  for (const std::string& label : childLabels(v)) {
    std::optional<CapacityMode> mode = childrenMode(ctx, v, label);
    if (!mode) continue;
    deriveChildren(ctx, v, label, *mode);
    if (*mode == CapacityMode::kAbsolute) {
      checkAbsoluteChildren(ctx, v, label);
    } else if (*mode == CapacityMode::kPercent && checksLabel(ctx, v, label)) {
      checkPercentSum(ctx, v, label);
    }
  }
}

}  // namespace

void readQueueCapacities(BuildContext& ctx) {
  for (const std::string& path : ctx.out.preorder) {
    QueueConfig& q = ctx.out.queues.at(path);
    q.allowZeroCapacitySum = ctx.problems.take(
        ctx.conf.getBool(queueKey(path, "allow-zero-capacity-sum"), false), false);
    readPartitions(ctx, q);
  }
  for (const std::string& path : ctx.out.preorder) {
    QueueConfig& q = ctx.out.queues.at(path);
    if (!q.isLeaf()) deriveParent(ctx, q);
  }
}

}  // namespace spindle::capacity_config
