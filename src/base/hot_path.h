// The few hardware facts the allocation paths rely on, in one place: the cache-line size the
// hot types are laid out for, and prefetch hints.
//
//   struct alignas(kCacheLineSize) Entry { ... };          // one entry, one cache line
//   static_assert(sizeof(Entry) == kCacheLineSize);
//   prefetchLine(app);                                      // start loading one line
//   prefetchRange(queue, sizeof(*queue));                   // every line of [p, p + bytes)
//
// Why prefetch at all: the allocation and release paths touch apps, queues and container
// records that are cold between two visits (10,000 apps, 1,000 leaves do not stay in cache).
// Starting their loads together, before the first is read, lets the cache misses overlap
// instead of arriving one after another. A prefetch is only a hint: it never changes a result,
// and a plain implementation would not need it.
//
// Layout claims next to the hot types ("one entry is one cache line", "the fields a release
// touches come first") are checked with static_assert on sizeof / alignof / offsetof.
// offsetof on a type that is not standard-layout (private members, std::string members) is
// conditionally supported; GCC and Clang compute it exactly for classes without virtual bases,
// but warn (-Winvalid-offsetof); such checks sit between
//   #pragma GCC diagnostic push
//   #pragma GCC diagnostic ignored "-Winvalid-offsetof"
// and the matching pop, which GCC and Clang both read.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spindle {

// The cache-line size of the x86-64 and common AArch64 cores Spindle runs on. Not
// std::hardware_destructive_interference_size: GCC warns that its value may differ between
// compiler versions and flags, and the layouts here must not.
inline constexpr size_t kCacheLineSize = 64;

// Asks the CPU to start loading the cache line holding `p` (for reading, keep in all cache
// levels: __builtin_prefetch's defaults).
// The empty volatile asm is an effect the optimiser must keep. Without it, a function that only
// prefetches has no visible effect, GCC's analysis marks it pure, and calls to it are deleted
// (seen: FairScheduler::prefetchChargePath's calls were removed from the release path).
[[gnu::always_inline]] inline void prefetchLine(const void* p) {
  __builtin_prefetch(p);
  asm volatile("");
}

// Asks the CPU to start loading every cache line of [p, p + bytes).
inline void prefetchRange(const void* p, size_t bytes) {
  const auto first = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{kCacheLineSize - 1};
  const auto last = reinterpret_cast<uintptr_t>(p) + bytes;
  for (uintptr_t a = first; a < last; a += kCacheLineSize) {
    __builtin_prefetch(reinterpret_cast<const void*>(a));
    // An empty volatile asm: without it GCC deletes the loop, a prefetch having no effect it
    // must keep.
    asm volatile("");
  }
}

}  // namespace spindle
