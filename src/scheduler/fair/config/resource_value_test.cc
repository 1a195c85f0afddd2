// Vectors CFG-1..4 (TestFairSchedulerConfiguration.testParseResourceConfigValue and its error
// cases): FairSchedulerConfiguration.parseResourceConfigValue.
#include "scheduler/fair/config/resource_value.h"

#include <gtest/gtest.h>

namespace spindle::fair {
namespace {

Resource parse(const std::string& text, const Resource& cluster = Resource::of(10240, 4)) {
  auto r = parseResourceConfigValue(text, ResourceTypes(), kResourceMax);
  EXPECT_TRUE(r.isOk()) << text << ": " << r.status().message();
  return r.isOk() ? r->resolve(cluster, 2) : Resource();
}

TEST(ResourceValueTest, CFG1_OldAbsoluteForm) {
  for (const char* text :
       {"2 vcores, 5120 mb", "5120 mb, 2 vcores", "2vcores,5120mb", "5120mb,2vcores",
        "5120mb   mb, 2    vcores", "5120 Mb, 2 vCores", "  5120 mb, 2 vcores  ",
        "  5120.3 mb, 2.35 vcores  ", "  5120. mb, 2. vcores  "}) {
    EXPECT_EQ(parse(text), Resource::of(5120, 2)) << text;
  }
}

TEST(ResourceValueTest, CFG2_OldPercentageForm) {
  const std::vector<std::pair<const char*, Resource>> cases{
      {"50% memory, 50% cpu", Resource::of(5120, 2)},
      {"50% Memory, 50% CpU", Resource::of(5120, 2)},
      {"50% memory, 100% cpu", Resource::of(5120, 4)},
      {" 100% cpu, 50% memory", Resource::of(5120, 4)},
      {"50% memory, 0% cpu", Resource::of(5120, 0)},
      {"50 % memory, 50 % cpu", Resource::of(5120, 2)},
      {"50%memory,50%cpu", Resource::of(5120, 2)},
      {"50.% memory, 50.% cpu", Resource::of(5120, 2)},
      {"10.9% memory, 50.6% cpu", Resource::of(1116, 2)},
      {"50%", Resource::of(5120, 2)},
  };
  for (const auto& [text, expected] : cases) EXPECT_EQ(parse(text), expected) << text;
}

TEST(ResourceValueTest, CFG3_NewFormWithExtraType) {
  auto types = ResourceTypes::withExtras({{"test1", ""}});
  ASSERT_TRUE(types.isOk());
  Resource cluster = Resource::of(10240, 4);
  cluster.set(2, 8);
  auto resolve = [&](const char* text, int64_t missing) {
    auto r = parseResourceConfigValue(text, *types, missing);
    EXPECT_TRUE(r.isOk()) << text << ": " << r.status().message();
    return r.isOk() ? r->resolve(cluster, 3) : Resource();
  };
  auto expect = [](int64_t m, int64_t v, int64_t t) {
    Resource r = Resource::of(m, v);
    r.set(2, t);
    return r;
  };
  EXPECT_EQ(resolve("vcores=2, memory-mb=5120", kResourceMax), expect(5120, 2, kResourceMax));
  EXPECT_EQ(resolve("vcores=2, memory-mb=5120", 0), expect(5120, 2, 0));
  EXPECT_EQ(resolve("vcores=2, memory-mb=5120, test1=4", 0), expect(5120, 2, 4));
  EXPECT_EQ(resolve("50%", 0), expect(5120, 2, 4));
  EXPECT_EQ(resolve("vcores=75%, memory-mb=40%", 0), expect(4096, 3, 8));
  EXPECT_EQ(resolve("vcores=75%, memory-mb=40%, test1=50%", 0), expect(4096, 3, 4));
}

TEST(ResourceValueTest, CFG4_ErrorMessages) {
  auto types = ResourceTypes::withExtras({{"test1", ""}});
  ASSERT_TRUE(types.isOk());
  const std::vector<std::pair<const char*, const char*>> cases{
      {"1024", "Missing resource: mb"},
      {"1024mb", "Missing resource: vcores"},
      {"1024vcores", "Missing resource: mb"},
      {"1o24vc0res", "Missing resource: mb"},
      {"95%, 50% memory", "Missing resource: cpu"},
      {"50% cpu, 1024 mb", "Missing resource: memory"},
      {"50% memory, 2 vcores", "Missing resource: cpu"},
      {"-10% memory, 50% cpu", "percentage should not be negative"},
      {"-2 vcores,5120 mb", "Invalid value of vcores"},
      {"2 vcores,-5120 mb", "Invalid value of memory"},
      {"memory-mb=-5120,vcores=2", "Invalid value of memory"},
      {"vcores=-75%,memory-mb=40%", "is either not a non-negative number"},
      {"vcores=2,memory-mb=5120,test1=-4", "Invalid value of test1"},
  };
  for (const auto& [text, message] : cases) {
    auto r = parseResourceConfigValue(text, *types, kResourceMax);
    ASSERT_FALSE(r.isOk()) << text;
    EXPECT_NE(r.status().message().find(message), std::string::npos)
        << text << " gave: " << r.status().message();
  }
}

TEST(ResourceValueTest, NewFormRejectsUnknownNamesMixedFormsAndNonIntegers) {
  auto unknown = parseResourceConfigValue("memory-mb=1024, gpu=1", ResourceTypes(), 0);
  ASSERT_FALSE(unknown.isOk());
  EXPECT_NE(unknown.status().message().find("\"gpu\" was not recognized"), std::string::npos);
  auto mixed = parseResourceConfigValue("memory-mb=50%, vcores=2", ResourceTypes(), 0);
  ASSERT_FALSE(mixed.isOk());
  EXPECT_NE(mixed.status().message().find("must all be percentages"), std::string::npos);
  auto fraction = parseResourceConfigValue("memory-mb=1.5, vcores=2", ResourceTypes(), 0);
  ASSERT_FALSE(fraction.isOk());
  EXPECT_NE(fraction.status().message().find("must all be integers"), std::string::npos);
  EXPECT_FALSE(parseResourceConfigValue("   ", ResourceTypes(), 0).isOk());
}

TEST(ResourceValueTest, GpuInNewFormAndOldFormLeavesExtrasAtMissing) {
  auto types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}});
  ASSERT_TRUE(types.isOk());
  auto gpu = parseResourceConfigValue("memory-mb=1024, vcores=10, yarn.io/gpu=1", *types, 0);
  ASSERT_TRUE(gpu.isOk());
  EXPECT_EQ(gpu->absoluteValue(2), 1);
  auto old = parseResourceConfigValue("1024 mb, 10 vcores", *types, kResourceMax);
  ASSERT_TRUE(old.isOk());
  EXPECT_EQ(old->absoluteValue(2), kResourceMax);
  EXPECT_FALSE(old->resolveLimit(Resource(), 3).isBounded(2));
}

}  // namespace
}  // namespace spindle::fair
