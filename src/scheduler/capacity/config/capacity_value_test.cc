#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/config/capacity_value.h"

namespace spindle::capacity_config {
namespace {

using ::testing::HasSubstr;

TEST(CapacityText, PercentWeightAndAbsoluteForms) {
  ResourceTypes types;
  CapacityText percent = parseCapacityText(" 12.5 ", types).value();
  EXPECT_EQ(percent.mode, CapacityMode::kPercent);
  EXPECT_FLOAT_EQ(percent.number, 12.5f);
  CapacityText weight = parseCapacityText("2.0w", types).value();
  EXPECT_EQ(weight.mode, CapacityMode::kWeight);
  EXPECT_FLOAT_EQ(weight.number, 2.0f);
  CapacityText absolute = parseCapacityText("[memory=10240,vcores=12]", types).value();
  EXPECT_EQ(absolute.mode, CapacityMode::kAbsolute);
  EXPECT_EQ(absolute.absolute, Resource::of(10240, 12));
}

TEST(CapacityText, AbsoluteUnitsConvertToMebibytesAsUnitsConversionUtil) {
  ResourceTypes types;
  EXPECT_EQ(parseCapacityText("[memory=10Gi]", types)->absolute.memoryMb(), 10240);
  EXPECT_EQ(parseCapacityText("[memory-mb=1G]", types)->absolute.memoryMb(), 953)
      << "decimal G = 10^9 bytes, truncated to Mi";
  EXPECT_EQ(parseCapacityText("[memory=2048Mi, vcores=1]", types)->absolute.memoryMb(), 2048);
  Result<CapacityText> vcoreUnit = parseCapacityText("[memory=1,vcores=2k]", types);
  ASSERT_FALSE(vcoreUnit.isOk());
  EXPECT_THAT(vcoreUnit.status().message(), HasSubstr("only allowed for memory"));
  Result<CapacityText> badUnit = parseCapacityText("[memory=2Xi]", types);
  ASSERT_FALSE(badUnit.isOk());
  EXPECT_THAT(badUnit.status().message(), HasSubstr("Unknown unit 'Xi'"));
}

TEST(CapacityText, AbsoluteAcceptsDeclaredExtraTypes) {
  ResourceTypes types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
  CapacityText t = parseCapacityText("[memory=4096,vcores=4,yarn.io/gpu=2]", types).value();
  EXPECT_EQ(t.absolute.get(types.indexOf("yarn.io/gpu").value()), 2);
  Result<CapacityText> twice = parseCapacityText("[memory=1,memory-mb=2]", types);
  ASSERT_FALSE(twice.isOk());
  EXPECT_THAT(twice.status().message(), HasSubstr("given twice"));
}

TEST(ResourcePairs, MaximumAllocationStringForm) {
  ResourceTypes types = ResourceTypes::withExtras({{"yarn.io/gpu", ""}}).value();
  ResourcePairs p = parseResourcePairs("memory-mb=8G, vcores=4, gpu=1", types).value();
  EXPECT_EQ(p.values.memoryMb(), 8192);
  EXPECT_EQ(p.values.vcores(), 4);
  EXPECT_EQ(p.values.get(2), 1);
  EXPECT_TRUE(p.present[2]);
  EXPECT_EQ(parseResourcePairs("memory=512M", types)->values.memoryMb(), 512);
  Result<ResourcePairs> bad = parseResourcePairs("memory-mb:8192", types);
  ASSERT_FALSE(bad.isOk());
  EXPECT_THAT(bad.status().message(), HasSubstr("is not a valid resource type/amount pair"));
  Result<ResourcePairs> unit = parseResourcePairs("memory-mb=8T", types);
  ASSERT_FALSE(unit.isOk());
  EXPECT_THAT(unit.status().message(), HasSubstr("Acceptable units are M/G or empty"));
}

TEST(JavaFloat, PrintsAsFloatToString) {
  EXPECT_EQ(javaFloat(120.0f), "120.0");
  EXPECT_EQ(javaFloat(0.085f), "0.085");
  EXPECT_EQ(javaFloat(1.1f), "1.1");
  EXPECT_EQ(javaFloat(0.5f + 0.6f), "1.1");
  EXPECT_EQ(javaFloat(-5.0f), "-5.0");
  EXPECT_EQ(javaFloat(0.0f), "0.0");
  EXPECT_EQ(javaFloat(1e-4f), "1.0E-4");
  EXPECT_EQ(javaFloat(12345678.0f), "1.2345678E7");
}

}  // namespace
}  // namespace spindle::capacity_config
