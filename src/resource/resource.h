// Resource vectors: integer amounts of memory-mb, vcores and configured extra types.
//
//   ResourceTypes types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
//   Resource r = Resource::of(4096, 4);          // memory-mb, vcores; extras zero
//   r.set(types.indexOf("yarn.io/gpu").value(), 2);
//   Resource sum = r + Resource::of(1024, 1);    // saturating, never overflows
//   ResourceLimit max = ResourceLimit::unbounded();
//   bool ok = max.allows(sum);
//
// Two types, two meanings (STYLE rule 2): in a Resource an absent (never set) type is zero; in a
// ResourceLimit an absent type is unlimited. Both hold kMaxResourceTypes slots inline so that
// arithmetic allocates nothing; slots beyond the registry's count() stay zero / unbounded.
// Index 0 is memory-mb and index 1 is vcores, as in YARN's ResourceUtils.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace spindle {

inline constexpr int kMaxResourceTypes = 8;
inline constexpr int kMemoryIndex = 0;
inline constexpr int kVcoresIndex = 1;
inline constexpr int64_t kResourceMax = std::numeric_limits<int64_t>::max();

// Saturating integer helpers: results clamp to [INT64_MIN, INT64_MAX] instead of wrapping.
// Add, subtract and the componentwise tests below are inline: every allocation and release
// runs several of them.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}
inline int64_t saturatingSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) {
    return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}
int64_t saturatingMul(int64_t a, int64_t b);

class Resource {
 public:
  constexpr Resource() = default;
  static Resource of(int64_t memoryMb, int64_t vcores) {
    Resource r;
    r.v_[kMemoryIndex] = memoryMb;
    r.v_[kVcoresIndex] = vcores;
    return r;
  }
  static Resource none() { return Resource(); }

  int64_t memoryMb() const { return v_[kMemoryIndex]; }
  int64_t vcores() const { return v_[kVcoresIndex]; }
  int64_t get(int i) const { return v_[i]; }
  void set(int i, int64_t value) { v_[i] = value; }
  Resource& setMemoryMb(int64_t m) {
    v_[kMemoryIndex] = m;
    return *this;
  }
  Resource& setVcores(int64_t c) {
    v_[kVcoresIndex] = c;
    return *this;
  }

  Resource& operator+=(const Resource& o) {
    for (int i = 0; i < kMaxResourceTypes; ++i) v_[i] = saturatingAdd(v_[i], o.v_[i]);
    return *this;
  }
  Resource& operator-=(const Resource& o) {
    for (int i = 0; i < kMaxResourceTypes; ++i) v_[i] = saturatingSub(v_[i], o.v_[i]);
    return *this;
  }
  friend Resource operator+(Resource a, const Resource& b) { return a += b; }
  friend Resource operator-(Resource a, const Resource& b) { return a -= b; }
  // Multiplies every type by an integer, saturating.
  Resource times(int64_t k) const;
  bool operator==(const Resource&) const = default;

  // Every type >= 0.
  bool isNonNegative() const {
    bool ok = true;
    for (int64_t x : v_) ok &= x >= 0;
    return ok;
  }
  // Every type == 0.
  bool isZero() const {
    int64_t any = 0;
    for (int64_t x : v_) any |= x;
    return any == 0;
  }
  // Componentwise a <= b for every type: Hadoop's Resources.fitsIn.
  bool fitsIn(const Resource& capacity) const {
    bool fits = true;
    for (int i = 0; i < kMaxResourceTypes; ++i) fits &= v_[i] <= capacity.v_[i];
    return fits;
  }
  // Componentwise min / max.
  static Resource componentwiseMin(const Resource& a, const Resource& b);
  static Resource componentwiseMax(const Resource& a, const Resource& b);
  // Negative types clamped to zero.
  Resource clampedAtZero() const;

  // "<memory:4096, vCores:4>" with extras appended as ", yarn.io/gpu: 2" when non-zero,
  // the form YARN prints in logs and REST diagnostics.
  std::string toString() const;

 private:
  std::array<int64_t, kMaxResourceTypes> v_{};
};

// Hadoop's Resources.multiplyAndRoundDown (and Resources.multiply): every type (long)(v * by),
// truncated toward zero; no calculator involved.
Resource multiplyAndRoundDown(const Resource& r, double by);

// A limit: every type absent means unlimited (kResourceMax).
class ResourceLimit {
 public:
  static ResourceLimit unbounded() { return ResourceLimit(); }
  static ResourceLimit of(const Resource& r, int count);  // first `count` types bounded by r
  int64_t get(int i) const { return v_[i]; }
  void set(int i, int64_t v) { v_[i] = v; }
  bool isBounded(int i) const { return v_[i] != kResourceMax; }
  bool allows(const Resource& r) const;
  // r with every type clamped to this limit.
  Resource clamp(const Resource& r) const;

 private:
  ResourceLimit() { v_.fill(kResourceMax); }
  std::array<int64_t, kMaxResourceTypes> v_;
};

// One declared resource type.
struct ResourceTypeInfo {
  std::string name;   // "memory-mb", "vcores", "yarn.io/gpu"
  std::string units;  // "Mi" for memory, "" for counts
};

// The registry of resource types in use: memory-mb and vcores always, then the extras declared
// with yarn.resource-types, in declaration order. Owned by the cluster model; only the extras'
// names are also kept process-wide (withExtras records them), for Resource::toString, as YARN's
// ResourceUtils registry is.
class ResourceTypes {
 public:
  ResourceTypes();  // memory-mb and vcores only
  // Adds extras; error on duplicates, bad names, or more than kMaxResourceTypes in all.
  static Result<ResourceTypes> withExtras(const std::vector<ResourceTypeInfo>& extras);

  int count() const { return static_cast<int>(types_.size()); }
  const ResourceTypeInfo& info(int i) const { return types_[i]; }
  // Index by name; "memory" is accepted as an alias of memory-mb as YARN does.
  std::optional<int> indexOf(std::string_view name) const;

 private:
  std::vector<ResourceTypeInfo> types_;
};

}  // namespace spindle
