// Seeded random numbers whose sequence is the same on every platform and standard library.
//
//   Rng rng(42);
//   int64_t offset = rng.uniformInt(0, 999);   // inclusive bounds
//   double d = rng.uniform01();
//
// std::uniform_int_distribution and friends are implementation-defined, so the same seed could
// give different decisions with another libstdc++; these draws are defined here exactly.
// The engine is SplitMix64 feeding xoshiro256**.
#pragma once

#include <array>
#include <cstdint>

namespace spindle {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t next();
  // Uniform in [lo, hi], inclusive; lo <= hi. Unbiased (rejection sampling).
  int64_t uniformInt(int64_t lo, int64_t hi);
  // Uniform in [0, 1) with 53 random bits.
  double uniform01();
  // Standard normal via Box-Muller (deterministic: no cached second value).
  double normal(double mean, double stddev);
  // exp(normal(mu, sigma)).
  double logNormal(double mu, double sigma);
  // A child generator whose stream is independent of later draws on this one.
  Rng fork();

 private:
  std::array<uint64_t, 4> s_{};
};

}  // namespace spindle
