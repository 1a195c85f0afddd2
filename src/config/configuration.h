// Hadoop Configuration files: yarn-site.xml, capacity-scheduler.xml, sls-runner.xml, ...
//
//   auto conf = Configuration::parseFile("conf/yarn-site.xml");
//   if (!conf) { report(conf.status()); return 2; }       // "yarn-site.xml:12: ..."
//   conf->set("yarn.scheduler.minimum-allocation-mb", "512");  // property maps, tests
//   auto minMb = conf->getLong("yarn.scheduler.minimum-allocation-mb", 1024);
//   auto interval = conf->getTimeDurationMs("yarn.resourcemanager.monitor.interval", 3000);
//
// Mirrors org.apache.hadoop.conf.Configuration as far as a scheduler needs it:
//  1. A file is <configuration> with <property> elements holding <name>, <value>, optional
//     <final>true</final> and <description>. Unknown elements inside <property> are ignored, as
//     Hadoop does; a <property> without <name> is an error naming the line.
//  2. Later sources override earlier ones, except a property marked final in an earlier source,
//     which keeps its value (Hadoop logs a warning; we record it in warnings()).
//  3. Values expand ${name} from other properties and ${env.NAME} from the environment, up to 20
//     levels deep like Hadoop's MAX_SUBST; an unresolvable ${x} is left as is.
//  4. Values are trimmed of surrounding whitespace when read through typed accessors.
// Every typed accessor returns an error that names the source file, line and property when the
// value cannot be parsed. Parse, then validate and freeze into typed configs elsewhere
// (STYLE rule 9): this class is the raw-property layer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace spindle {

// Where a property's value came from, for error messages.
struct PropertySource {
  std::string file;  // file path, or a label such as "scenario step 0 properties"
  int line = 0;      // 1-based line of the <property> element; 0 when not from a file
};

class Configuration {
 public:
  Configuration() = default;

  // Parses a Hadoop XML configuration. Errors: unreadable file, malformed XML (with line),
  // root element not <configuration>, property without a name.
  static Result<Configuration> parseFile(const std::string& path);
  static Result<Configuration> parseString(std::string_view xml, std::string_view sourceName);

  // Sets a property programmatically (scenario property maps, tests); respects final.
  void set(std::string_view name, std::string_view value,
           PropertySource source = {"<set>", 0});
  void unset(std::string_view name);
  // Adds every property of `other` on top of this one (rule 2).
  void merge(const Configuration& other);

  bool contains(std::string_view name) const;
  // The value after ${} expansion, untrimmed; nullopt when absent.
  std::optional<std::string> get(std::string_view name) const;
  std::string get(std::string_view name, std::string_view defaultValue) const;
  // The value before expansion.
  std::optional<std::string> getRaw(std::string_view name) const;
  std::optional<PropertySource> source(std::string_view name) const;

  // Typed accessors: the default when absent; an error when present but malformed.
  Result<int64_t> getLong(std::string_view name, int64_t defaultValue) const;
  Result<int32_t> getInt(std::string_view name, int32_t defaultValue) const;
  Result<double> getDouble(std::string_view name, double defaultValue) const;
  // "true"/"false", case-insensitive, as Hadoop's getBoolean.
  Result<bool> getBool(std::string_view name, bool defaultValue) const;
  // Hadoop's getTimeDuration: a number with an optional suffix ns, us, ms, s, m, h, d; a bare
  // number is in `defaultUnitMs` units expressed in ms (1 for ms, 1000 for seconds).
  Result<int64_t> getTimeDurationMs(std::string_view name, int64_t defaultMs,
                                    int64_t bareUnitMs = 1) const;
  // Hadoop's getLongBytes: a number with an optional binary prefix k, m, g, t, p, e
  // (case-insensitive), e.g. "128m" = 134217728.
  Result<int64_t> getSizeBytes(std::string_view name, int64_t defaultValue) const;
  // Comma-separated, each trimmed, empties dropped (getTrimmedStrings).
  std::vector<std::string> getStrings(std::string_view name) const;

  // All property names with the given prefix, sorted.
  std::vector<std::string> namesWithPrefix(std::string_view prefix) const;
  // All properties (name -> expanded value), sorted by name.
  std::map<std::string, std::string> all() const;
  // Notes such as attempts to override a final property.
  const std::vector<std::string>& warnings() const { return warnings_; }

  // "file:line: property NAME: " prefix for validation messages elsewhere.
  std::string where(std::string_view name) const;

 private:
  struct Entry {
    std::string value;
    bool isFinal = false;
    PropertySource source;
  };
  std::map<std::string, Entry, std::less<>> props_;
  std::vector<std::string> warnings_;
};

}  // namespace spindle
