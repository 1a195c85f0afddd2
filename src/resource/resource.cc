#include "resource/resource.h"

#include <algorithm>
#include <array>
#include <mutex>

#include <fmt/format.h>

namespace spindle {

int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    return ((a < 0) != (b < 0)) ? std::numeric_limits<int64_t>::min()
                                : std::numeric_limits<int64_t>::max();
  }
  return r;
}

Resource Resource::times(int64_t k) const {
  Resource r;
  for (int i = 0; i < kMaxResourceTypes; ++i) r.v_[i] = saturatingMul(v_[i], k);
  return r;
}

Resource multiplyAndRoundDown(const Resource& r, double by) {
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    out.set(i, static_cast<int64_t>(static_cast<double>(r.get(i)) * by));
  }
  return out;
}

Resource Resource::componentwiseMin(const Resource& a, const Resource& b) {
  Resource r;
  for (int i = 0; i < kMaxResourceTypes; ++i) r.v_[i] = std::min(a.v_[i], b.v_[i]);
  return r;
}

Resource Resource::componentwiseMax(const Resource& a, const Resource& b) {
  Resource r;
  for (int i = 0; i < kMaxResourceTypes; ++i) r.v_[i] = std::max(a.v_[i], b.v_[i]);
  return r;
}

Resource Resource::clampedAtZero() const {
  Resource r;
  for (int i = 0; i < kMaxResourceTypes; ++i) r.v_[i] = std::max<int64_t>(0, v_[i]);
  return r;
}

namespace {

// The names of the extra resource types, by index, for toString: YARN's Resource.toString reads
// the process-wide ResourceUtils registry the same way. Written when a configuration declares
// types (ResourceTypes::withExtras), read when a message is formatted.
struct TypeNames {
  std::mutex mu;
  std::array<std::string, kMaxResourceTypes> names;
};

TypeNames& typeNames() {
  static TypeNames* t = new TypeNames();  // never destroyed: read until the process ends
  return *t;
}

}  // namespace

std::string Resource::toString() const {
  std::string s = fmt::format("<memory:{}, vCores:{}", memoryMb(), vcores());
  bool extras = false;
  for (int i = 2; i < kMaxResourceTypes; ++i) extras = extras || v_[i] != 0;
  if (!extras) return s + ">";
  TypeNames& t = typeNames();
  std::lock_guard lock(t.mu);
  for (int i = 2; i < kMaxResourceTypes; ++i) {
    if (v_[i] == 0) continue;
    if (t.names[i].empty()) {
      s += fmt::format(", r{}: {}", i, v_[i]);
    } else {
      s += fmt::format(", {}: {}", t.names[i], v_[i]);
    }
  }
  return s + ">";
}

ResourceLimit ResourceLimit::of(const Resource& r, int count) {
  ResourceLimit l;
  for (int i = 0; i < count; ++i) l.v_[i] = r.get(i);
  return l;
}

bool ResourceLimit::allows(const Resource& r) const {
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (r.get(i) > v_[i]) return false;
  }
  return true;
}

Resource ResourceLimit::clamp(const Resource& r) const {
  Resource out;
  for (int i = 0; i < kMaxResourceTypes; ++i) out.set(i, std::min(r.get(i), v_[i]));
  return out;
}

ResourceTypes::ResourceTypes() : types_{{"memory-mb", "Mi"}, {"vcores", ""}} {}

Result<ResourceTypes> ResourceTypes::withExtras(const std::vector<ResourceTypeInfo>& extras) {
  ResourceTypes t;
  for (const auto& e : extras) {
    if (e.name.empty()) return invalidArgument("yarn.resource-types: empty resource type name");
    if (t.indexOf(e.name)) {
      return invalidArgument("yarn.resource-types: resource type '{}' declared twice", e.name);
    }
    if (t.count() == kMaxResourceTypes) {
      return invalidArgument("yarn.resource-types: at most {} resource types are supported",
                             kMaxResourceTypes);
    }
    t.types_.push_back(e);
  }
  TypeNames& names = typeNames();
  std::lock_guard lock(names.mu);
  for (int i = 2; i < t.count(); ++i) names.names[i] = t.types_[i].name;
  return t;
}

std::optional<int> ResourceTypes::indexOf(std::string_view name) const {
  if (name == "memory") return kMemoryIndex;
  for (int i = 0; i < count(); ++i) {
    if (types_[i].name == name) return i;
  }
  return std::nullopt;
}

}  // namespace spindle
