// Test fixture builder for capacity-scheduler.xml property sets (tests only).
//
//   auto cfg = CsConf().queues("root", "a,b").cap("root.a", "40").cap("root.b", "60").parse();
//   ASSERT_TRUE(cfg.isOk()) << cfg.status().message();
//   EXPECT_FLOAT_EQ(cfg->queue("root.a").partition("").absoluteCapacity, 0.4f);
#pragma once

#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/configuration.h"
#include "resource/resource_config.h"
#include "scheduler/capacity/config/capacity_config.h"

namespace spindle::testing {

class CsConf {
 public:
  // yarn.scheduler.capacity.<key> = value.
  CsConf& set(std::string_view key, std::string_view value) {
    conf_.set(std::string(kCapacityPrefix) + std::string(key), value);
    return *this;
  }
  // A property outside the yarn.scheduler.capacity. namespace.
  CsConf& raw(std::string_view key, std::string_view value) {
    conf_.set(key, value);
    return *this;
  }
  CsConf& queues(std::string_view path, std::string_view children) {
    return set(std::string(path) + ".queues", children);
  }
  CsConf& cap(std::string_view path, std::string_view value) {
    return set(std::string(path) + ".capacity", value);
  }
  CsConf& maxCap(std::string_view path, std::string_view value) {
    return set(std::string(path) + ".maximum-capacity", value);
  }
  CsConf& label(std::string name, bool exclusive = true) {
    labels_[name] = NodeLabelInfo{exclusive};
    return *this;
  }
  const Configuration& conf() const { return conf_; }

  Result<CapacityConfig> parse() const {
    ResourceTypes types;
    // yarn.scheduler.maximum-allocation-mb / -vcores: 8192 / 4 unless set with raw().
    AllocationBounds bounds = allocationBoundsFromConfig(conf_, types, false).value();
    return parseCapacityConfig(conf_, types, bounds, labels_);
  }

 private:
  Configuration conf_;
  ClusterLabels labels_;
};

// Asserts success and returns the config.
inline CapacityConfig parseOk(const CsConf& c) {
  Result<CapacityConfig> r = c.parse();
  EXPECT_TRUE(r.isOk()) << r.status().message();
  return r.isOk() ? r.value() : CapacityConfig{};
}

// Asserts failure and returns the message (one error per line).
inline std::string parseError(const CsConf& c) {
  Result<CapacityConfig> r = c.parse();
  EXPECT_FALSE(r.isOk());
  return r.isOk() ? std::string() : r.status().message();
}

// TestLeafQueue's common setup (reference vectors CS-*): root -> newRoot (100) -> a (8.5 / 20),
// b (80 / 99), c (1.5 / 10; child c1 100), d (9 / 11), e (1 / 1).
inline CsConf testLeafQueueSetup() {
  CsConf c;
  c.queues("root", "newRoot").cap("root.newRoot", "100");
  c.queues("root.newRoot", "a,b,c,d,e");
  c.cap("root.newRoot.a", "8.5").maxCap("root.newRoot.a", "20");
  c.cap("root.newRoot.b", "80").maxCap("root.newRoot.b", "99");
  c.cap("root.newRoot.c", "1.5").maxCap("root.newRoot.c", "10");
  c.queues("root.newRoot.c", "c1").cap("root.newRoot.c.c1", "100");
  c.cap("root.newRoot.d", "9").maxCap("root.newRoot.d", "11");
  c.cap("root.newRoot.e", "1").maxCap("root.newRoot.e", "1");
  return c;
}

}  // namespace spindle::testing
