// Micro benchmarks for resource arithmetic and the resource calculators: the innermost
// operations of every allocation (fit checks, queue/app ordering compares, normalisation).
//
// Each benchmark runs over calculator (0 = Default, 1 = Dominant) x type count (2 = memory and
// vcores, 3 = plus yarn.io/gpu), over a fixed pool of pseudo-random resources so that branch
// prediction does not see one repeated input.
//
//   ./build-rel/bench/spindle_bench --benchmark_filter=BM_Resource
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "resource/resource.h"
#include "resource/resource_calculator.h"

namespace spindle {
namespace {

constexpr size_t kPool = 1024;  // power of two: index with a mask

ResourceTypes typesFor(int count) {
  if (count == 2) return ResourceTypes();
  return ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
}

std::unique_ptr<ResourceCalculator> calculatorFor(int which, const ResourceTypes& types) {
  return which == 0 ? makeDefaultResourceCalculator(types) : makeDominantResourceCalculator(types);
}

// Container-sized asks: 512 MB .. 16 GB, 1 .. 8 vcores, 0 .. 2 GPUs.
std::vector<Resource> pool(int typeCount, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> mem(1, 32);
  std::uniform_int_distribution<int64_t> cores(1, 8);
  std::uniform_int_distribution<int64_t> gpus(0, 2);
  std::vector<Resource> out;
  out.reserve(kPool);
  for (size_t i = 0; i < kPool; ++i) {
    Resource r = Resource::of(mem(rng) * 512, cores(rng));
    if (typeCount > 2) r.set(2, gpus(rng));
    out.push_back(r);
  }
  return out;
}

Resource clusterFor(int typeCount) {
  Resource c = Resource::of(1000 * 131072, 1000 * 32);  // 1000 nodes of 128 GB / 32 vcores
  if (typeCount > 2) c.set(2, 1000 * 4);
  return c;
}

struct Fixture {
  explicit Fixture(const benchmark::State& state)
      : typeCount(static_cast<int>(state.range(1))),
        types(typesFor(typeCount)),
        rc(calculatorFor(static_cast<int>(state.range(0)), types)),
        a(pool(typeCount, 1)),
        b(pool(typeCount, 2)),
        cluster(clusterFor(typeCount)) {}
  int typeCount;
  ResourceTypes types;
  std::unique_ptr<ResourceCalculator> rc;
  std::vector<Resource> a;
  std::vector<Resource> b;
  Resource cluster;
};

// Plain Resource arithmetic; the calculator argument does not enter (kept for a uniform grid).
void BM_ResourceAddSub(benchmark::State& state) {
  Fixture f(state);
  Resource acc = f.cluster;
  size_t i = 0;
  for (auto _ : state) {
    acc -= f.a[i];
    acc += f.b[i];
    benchmark::DoNotOptimize(acc);
    i = (i + 1) & (kPool - 1);
  }
}

void BM_ResourceFitsIn(benchmark::State& state) {
  Fixture f(state);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.rc->fitsIn(f.a[i], f.b[i]));
    i = (i + 1) & (kPool - 1);
  }
}

void BM_ResourceCompare(benchmark::State& state) {
  Fixture f(state);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.rc->compare(f.cluster, f.a[i], f.b[i]));
    i = (i + 1) & (kPool - 1);
  }
}

void BM_ResourceNormalize(benchmark::State& state) {
  Fixture f(state);
  AllocationBounds bounds{Resource::of(1024, 1), Resource::of(8192, 4), Resource::of(1024, 1)};
  if (f.typeCount > 2) {
    bounds.maximum.set(2, 4);
    bounds.increment.set(2, 1);
  }
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(normalizeRequest(*f.rc, f.a[i], bounds));
    i = (i + 1) & (kPool - 1);
  }
}

void BM_ResourceComputeAvailableContainers(benchmark::State& state) {
  Fixture f(state);
  Resource nodeFree = Resource::of(131072, 32);
  if (f.typeCount > 2) nodeFree.set(2, 4);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.rc->computeAvailableContainers(nodeFree, f.a[i]));
    i = (i + 1) & (kPool - 1);
  }
}

// calc: 0 = DefaultResourceCalculator, 1 = DominantResourceCalculator; types: 2 or 3.
#define SPINDLE_RESOURCE_BENCH(fn) \
  BENCHMARK(fn)->ArgsProduct({{0, 1}, {2, 3}})->ArgNames({"calc", "types"})

SPINDLE_RESOURCE_BENCH(BM_ResourceAddSub);
SPINDLE_RESOURCE_BENCH(BM_ResourceFitsIn);
SPINDLE_RESOURCE_BENCH(BM_ResourceCompare);
SPINDLE_RESOURCE_BENCH(BM_ResourceNormalize);
SPINDLE_RESOURCE_BENCH(BM_ResourceComputeAvailableContainers);

}  // namespace
}  // namespace spindle
