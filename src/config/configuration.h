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
//     Hadoop does; a <property> without <name> is an error naming the line. A property with no
//     or an empty <value> is skipped, as Hadoop skips it, with a note in warnings(). The
//     attribute form <property name=".." value=".." final=".."/> is accepted; <xi:include> is
//     an error rather than silently dropped.
//  2. Later sources override earlier ones, except a property marked final in an earlier source,
//     which keeps its value (Hadoop logs a warning; we record it in warnings()).
//  3. Values expand ${name} from other properties and ${env.NAME} from the environment, up to 20
//     levels deep like Hadoop's MAX_SUBST; an unresolvable ${x} is left as is and, as in Hadoop,
//     ends expansion of that value.
//  4. Values are trimmed of surrounding whitespace when read through typed accessors.
// Every typed accessor returns an error that names the source file, line and property when the
// value cannot be parsed. Parse, then validate and freeze into typed configs elsewhere
// (STYLE rule 9): this class is the raw-property layer.
//
// Thread-safety: const methods may run concurrently; anything that mutates needs exclusive access.
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
  void set(std::string_view name, std::string_view value, PropertySource source = {"<set>", 0});
  void unset(std::string_view name);
  // Adds every property of `other` on top of this one (rule 2).
  void merge(const Configuration& other);

  bool contains(std::string_view name) const;
  // The value after ${} expansion, untrimmed; nullopt when absent. When expansion exceeds the
  // depth limit the raw value is returned; typed accessors report that case as an error.
  std::optional<std::string> get(std::string_view name) const;
  std::string get(std::string_view name, std::string_view defaultValue) const;
  // The value before expansion.
  std::optional<std::string> getRaw(std::string_view name) const;
  std::optional<PropertySource> source(std::string_view name) const;

  // Typed accessors: the default when absent; an error when present but malformed.
  Result<int64_t> getLong(std::string_view name, int64_t defaultValue) const;
  Result<int32_t> getInt(std::string_view name, int32_t defaultValue) const;
  Result<double> getDouble(std::string_view name, double defaultValue) const;
  // "true"/"false", case-insensitive, as Hadoop's getBoolean. Unlike Hadoop, which logs a
  // warning and returns the default for anything else, any other value is an error: a typo such
  // as "ture" should stop the run, not silently flip a switch.
  Result<bool> getBool(std::string_view name, bool defaultValue) const;
  // Hadoop's getTimeDuration: a number with an optional suffix ns, us, ms, s, m, h, d; a bare
  // number is in `bareUnitMs` units expressed in ms (1 for ms, 1000 for seconds; must be >= 1).
  // Like Java's TimeUnit.convert, ns and us truncate toward zero and overflow saturates.
  Result<int64_t> getTimeDurationMs(std::string_view name, int64_t defaultMs,
                                    int64_t bareUnitMs = 1) const;
  // Hadoop's getLongBytes: a number with an optional binary prefix k, m, g, t, p, e
  // (case-insensitive), e.g. "128m" = 134217728.
  Result<int64_t> getSizeBytes(std::string_view name, int64_t defaultValue) const;
  // Comma-separated, each trimmed, empties dropped (getTrimmedStrings). Like Hadoop, newlines
  // separate items too, so a long list may span lines in the XML.
  std::vector<std::string> getStrings(std::string_view name) const;
  // getStrings, each parsed as a decimal 32-bit integer (Hadoop's getInts); empty when absent.
  Result<std::vector<int32_t>> getInts(std::string_view name) const;

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
  // Adds or replaces one property unless an existing one is final (rule 2).
  void apply(std::string_view name, Entry entry);
  // Hadoop's substituteVars on `raw`; an error when the depth limit is exceeded.
  Result<std::string> expand(std::string_view name, const std::string& raw) const;
  std::optional<std::string> lookupVariable(std::string_view var) const;
  // The expanded value of a present property, trimmed for typed accessors.
  Result<std::string> trimmedValue(std::string_view name) const;

  std::map<std::string, Entry, std::less<>> props_;
  std::vector<std::string> warnings_;
};

}  // namespace spindle
