#include "config/configuration.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <pugixml.hpp>

#include "base/strings.h"

namespace spindle {
namespace {

// Hadoop's Configuration.MAX_SUBST. Hadoop throws once it has made 20 substitutions in one
// value even when none remain; we allow 20 and fail only when a 21st would be needed.
constexpr int kMaxSubstitutions = 20;

// parse_ws_pcdata_single keeps a whitespace-only <value> </value>: YARN ACLs use " " to mean
// "nobody", which plain parse_default would turn into an empty value.
constexpr unsigned kParseOptions = pugi::parse_default | pugi::parse_ws_pcdata_single;

// Java's String.trim set (Hadoop trims config values with it).
std::string_view trim(std::string_view s) { return trimView(s, kJavaSpace); }

std::string toLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && toLower(a) == toLower(b);
}

// "file:line", or just "file" for a source that is not a file.
std::string describe(const PropertySource& source) {
  if (source.line <= 0) return source.file;
  return fmt::format("{}:{}", source.file, source.line);
}

// Maps byte offsets, as pugixml reports them, to 1-based line numbers.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(static_cast<ptrdiff_t>(i));
    }
  }
  // 0 when the offset is unknown (pugixml returns -1).
  int lineOf(ptrdiff_t offset) const {
    if (offset < 0) return 0;
    auto passed = std::lower_bound(newlines_.begin(), newlines_.end(), offset);
    return 1 + static_cast<int>(passed - newlines_.begin());
  }

 private:
  std::vector<ptrdiff_t> newlines_;
};

// ---- numbers -----------------------------------------------------------------------------------
// Each parser returns a bare message; the accessor prefixes it with file, line and property.

// Java's Long.parseLong: optional sign, decimal digits. With `allowHex`, also Hadoop's
// getHexDigits form "0x1F" / "-0x1F".
Result<int64_t> parseLong(std::string_view text, bool allowHex) {
  std::string_view s = text;
  const bool negative = s.starts_with('-');
  if (negative || s.starts_with('+')) s.remove_prefix(1);
  int base = 10;
  if (allowHex && (s.starts_with("0x") || s.starts_with("0X"))) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t magnitude = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, magnitude, base);
  if (s.empty() || ec == std::errc::invalid_argument || ptr != end) {
    return invalidArgument("expected an integer, got '{}'", text);
  }
  const uint64_t limit = uint64_t{1} << 63;  // |INT64_MIN|; INT64_MAX is one less
  if (ec == std::errc::result_out_of_range || magnitude > limit - (negative ? 0 : 1)) {
    return invalidArgument("integer '{}' does not fit in 64 bits", text);
  }
  // Modular negation, then conversion: well defined in C++20, and exact for INT64_MIN.
  return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
}

Result<int32_t> parseInt(std::string_view text, bool allowHex) {
  SPINDLE_ASSIGN_OR_RETURN(int64_t value, parseLong(text, allowHex));
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
    return invalidArgument("integer '{}' does not fit in 32 bits", text);
  }
  return static_cast<int32_t>(value);
}

// Java's Double.parseDouble, except that NaN and infinities are rejected: no scheduler setting
// means anything with them, and they would poison capacity arithmetic.
Result<double> parseDouble(std::string_view text) {
  std::string_view s = text;
  if (s.starts_with('+') && !s.starts_with("+-")) s.remove_prefix(1);  // from_chars takes no '+'
  double value = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (s.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return invalidArgument("expected a finite number, got '{}'", text);
  }
  return value;
}

Result<bool> parseBool(std::string_view text) {
  if (equalsIgnoreCase(text, "true")) return true;
  if (equalsIgnoreCase(text, "false")) return false;
  return invalidArgument("expected true or false, got '{}'", text);
}

// a * b, clamped to the int64 range as Java's TimeUnit.convert clamps.
int64_t saturatingMultiply(int64_t a, int64_t b) {
  int64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product;
  return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                            : std::numeric_limits<int64_t>::max();
}

struct DurationUnit {
  std::string_view suffix;
  int64_t multiplyToMs;
  int64_t divideToMs;  // TimeUnit.convert truncates toward zero, as integer division does
};

// Hadoop's ParsedTimeDuration, in its order: the first suffix the value ends with wins, so
// "5ms" is milliseconds, not "5m" followed by a stray 's'.
constexpr DurationUnit kDurationUnits[] = {
    {"ns", 1, 1'000'000}, {"us", 1, 1'000},    {"ms", 1, 1},         {"s", 1'000, 1},
    {"m", 60'000, 1},     {"h", 3'600'000, 1}, {"d", 86'400'000, 1},
};

// Hadoop's getTimeDurationHelper with milliseconds as the return unit.
Result<int64_t> parseDurationMs(std::string_view text, int64_t bareUnitMs) {
  const std::string lower = toLower(text);
  DurationUnit unit{"", bareUnitMs, 1};
  for (const DurationUnit& candidate : kDurationUnits) {
    if (std::string_view(lower).ends_with(candidate.suffix)) {
      unit = candidate;
      break;
    }
  }
  std::string_view number = std::string_view(lower);
  number.remove_suffix(unit.suffix.size());
  auto raw = parseLong(number, /*allowHex=*/false);
  if (!raw) {
    return invalidArgument(
        "expected a duration such as 30s or 1500ms (units ns, us, ms, s, m, h, d), got '{}'", text);
  }
  return saturatingMultiply(*raw, unit.multiplyToMs) / unit.divideToMs;
}

// StringUtils.TraditionalBinaryPrefix.string2long: digits with one optional trailing prefix.
Result<int64_t> parseSizeBytes(std::string_view text) {
  constexpr std::string_view kPrefixes = "kmgtpe";  // 2^10, 2^20, ... 2^60
  const unsigned char last = text.empty() ? '0' : static_cast<unsigned char>(text.back());
  const size_t index = kPrefixes.find(static_cast<char>(std::tolower(last)));
  if (!std::isdigit(last) && index == std::string_view::npos) {
    return invalidArgument(
        "invalid size prefix '{}' in '{}'; allowed prefixes are k, m, g, t, p, e "
        "(case-insensitive)",
        text.back(), text);
  }
  const int shift = std::isdigit(last) ? 0 : 10 * static_cast<int>(index + 1);
  auto number = parseLong(text.substr(0, text.size() - (shift ? 1 : 0)), /*allowHex=*/false);
  if (!number || *number > (std::numeric_limits<int64_t>::max() >> shift) ||
      *number < (std::numeric_limits<int64_t>::min() >> shift)) {
    return invalidArgument(
        "expected a byte count such as 512 or 128m (binary prefixes k, m, g, t, p, e) that "
        "fits in 64 bits, got '{}'",
        text);
  }
  return *number * (int64_t{1} << shift);
}

// StringUtils.getTrimmedStrings, dropping empty items.
std::vector<std::string> splitTrimmed(std::string_view s) {
  return spindle::splitTrimmed(s, ",\n", kJavaSpace);
}

// ---- variables ---------------------------------------------------------------------------------

// Where one ${name} sits in a string: `dollar` is the '$', [nameBegin, closeBrace) the name.
struct VariableRef {
  size_t dollar;
  size_t nameBegin;
  size_t closeBrace;
};

// Hadoop's findSubVariable: the first "${name}" whose name is non-empty and holds no ' ', '$'
// or '}'. A scan that hits one of those restarts just after it, so "${${a}}" finds "${a}".
std::optional<VariableRef> findVariable(std::string_view s) {
  size_t from = 1;
  while (true) {
    const size_t brace = s.find('{', from);
    if (brace == std::string_view::npos) return std::nullopt;
    from = brace + 1;
    if (s[brace - 1] != '$') continue;
    const size_t stop = s.find_first_of(" $}", brace + 1);
    if (stop == std::string_view::npos) return std::nullopt;
    if (s[stop] == '}' && stop > brace + 1) return VariableRef{brace - 1, brace + 1, stop};
    from = stop + 1;
  }
}

const char* getenvOrNull(std::string_view name) { return std::getenv(std::string(name).c_str()); }

// ${env.NAME}, ${env.NAME:-default} (default when unset or empty) and ${env.NAME-default}
// (default when unset), as Hadoop's substituteVars reads them; nullopt when unresolved.
std::optional<std::string> lookupEnvironment(std::string_view spec) {
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == ':' && i + 1 < spec.size() && spec[i + 1] == '-') {
      const char* value = getenvOrNull(spec.substr(0, i));
      if (value == nullptr || *value == '\0') return std::string(spec.substr(i + 2));
      return value;
    }
    if (spec[i] == '-') {
      const char* value = getenvOrNull(spec.substr(0, i));
      if (value == nullptr) return std::string(spec.substr(i + 1));
      return value;
    }
  }
  const char* value = getenvOrNull(spec);
  if (value == nullptr) return std::nullopt;
  return value;
}

// ---- XML ---------------------------------------------------------------------------------------

Result<std::string> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument("{}: cannot open: {}", path, std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return invalidArgument("{}: cannot read: {}", path, std::strerror(errno));
  return content.str();
}

// All character data of an element, as Hadoop's parser collects it (comments split PCDATA).
std::string elementText(pugi::xml_node element) {
  std::string text;
  for (pugi::xml_node child : element.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      text += child.value();
    }
  }
  return text;
}

// One <property> as written, before the final/override rules apply.
struct RawProperty {
  std::string name;
  std::optional<std::string> value;
  bool isFinal = false;
};

Result<bool> parseFinalFlag(std::string_view text, const std::string& where) {
  auto flag = parseBool(trim(text));
  if (!flag) return invalidArgument("{}<final> {}", where, flag.status().message());
  return flag;
}

// Reads name, value and final from attributes (<property name=".." value=".."/>, which Hadoop
// also accepts) and then child elements; the last occurrence wins, as in Hadoop's parser.
// Names are trimmed and values kept verbatim, as Hadoop does. An empty value counts as none.
Result<RawProperty> readProperty(pugi::xml_node node, const std::string& location) {
  RawProperty property;
  std::optional<std::string> finalText;
  auto take = [&](std::string_view key, std::string text) {
    if (key == "name") property.name = trim(text);
    if (key == "value") property.value = text.empty() ? std::nullopt : std::optional(text);
    if (key == "final") finalText = std::move(text);
  };
  for (pugi::xml_attribute attr : node.attributes()) take(attr.name(), attr.value());
  for (pugi::xml_node child : node.children()) {
    if (child.type() == pugi::node_element) take(child.name(), elementText(child));
  }
  if (property.name.empty()) return invalidArgument("{}: property without a <name>", location);
  if (finalText) {
    const std::string where = fmt::format("{}: property '{}': ", location, property.name);
    SPINDLE_ASSIGN_OR_RETURN(property.isFinal, parseFinalFlag(*finalText, where));
  }
  return property;
}

bool isInclude(std::string_view element) {
  return element == "include" || element.ends_with(":include");
}

// The <configuration> element, or an error naming the line of whatever stands in its place.
Result<pugi::xml_node> rootElement(const pugi::xml_document& doc, std::string_view file,
                                   const LineIndex& lines) {
  pugi::xml_node root = doc.document_element();
  if (std::string_view(root.name()) != "configuration") {
    return invalidArgument("{}:{}: root element is <{}>, expected <configuration>", file,
                           lines.lineOf(root.offset_debug()), root.name());
  }
  // pugixml accepts several top-level elements; XML and Hadoop do not.
  pugi::xml_node extra = root.next_sibling();
  while (extra && extra.type() != pugi::node_element) extra = extra.next_sibling();
  if (extra) {
    return invalidArgument("{}:{}: malformed XML: <{}> after the root element", file,
                           lines.lineOf(extra.offset_debug()), extra.name());
  }
  return root;
}

}  // namespace

// ---- parsing -----------------------------------------------------------------------------------

Result<Configuration> Configuration::parseFile(const std::string& path) {
  SPINDLE_ASSIGN_OR_RETURN(std::string content, readFile(path));
  return parseString(content, path);
}

// Properties are applied in document order through the same final rule as merge(), so a final
// property earlier in a file also wins over a later duplicate in that file. Top-level elements
// other than <property> are ignored as Hadoop ignores them, except XInclude, which Hadoop
// resolves: ignoring it would silently drop settings, so it is an error here.
Result<Configuration> Configuration::parseString(std::string_view xml,
                                                 std::string_view sourceName) {
  const LineIndex lines(xml);
  pugi::xml_document doc;
  pugi::xml_parse_result parsed =
      doc.load_buffer(xml.data(), xml.size(), kParseOptions, pugi::encoding_utf8);
  if (!parsed) {
    return invalidArgument("{}:{}: malformed XML: {}", sourceName, lines.lineOf(parsed.offset),
                           parsed.description());
  }
  SPINDLE_ASSIGN_OR_RETURN(pugi::xml_node root, rootElement(doc, sourceName, lines));
  Configuration conf;
  for (pugi::xml_node node : root.children()) {
    if (node.type() != pugi::node_element) continue;
    const PropertySource source{std::string(sourceName), lines.lineOf(node.offset_debug())};
    if (isInclude(node.name())) {
      return invalidArgument("{}: <{}> is not supported; load the included file separately",
                             describe(source), node.name());
    }
    if (std::string_view(node.name()) != "property") continue;
    SPINDLE_ASSIGN_OR_RETURN(RawProperty property, readProperty(node, describe(source)));
    if (!property.value) {
      conf.warnings_.push_back(fmt::format("{}: property '{}' has no value; ignored as Hadoop does",
                                           describe(source), property.name));
      continue;
    }
    conf.apply(property.name, Entry{std::move(*property.value), property.isFinal, source});
  }
  return conf;
}

// ---- mutation ----------------------------------------------------------------------------------

// Mirrors Configuration.loadProperty/checkForOverride: a final value stays, and overriding it
// with a different value leaves a warning naming both places.
void Configuration::apply(std::string_view name, Entry entry) {
  auto it = props_.find(name);
  if (it == props_.end()) {
    props_.emplace(std::string(name), std::move(entry));
    return;
  }
  Entry& current = it->second;
  if (!current.isFinal) {
    current = std::move(entry);
    return;
  }
  if (current.value != entry.value) {
    warnings_.push_back(fmt::format("{}: property '{}': ignored value '{}': final in {}",
                                    describe(entry.source), name, entry.value,
                                    describe(current.source)));
  }
}

void Configuration::set(std::string_view name, std::string_view value, PropertySource source) {
  apply(name, Entry{std::string(value), false, std::move(source)});
}

void Configuration::unset(std::string_view name) {
  auto it = props_.find(name);
  if (it != props_.end()) props_.erase(it);
}

void Configuration::merge(const Configuration& other) {
  warnings_.insert(warnings_.end(), other.warnings_.begin(), other.warnings_.end());
  for (const auto& [name, entry] : other.props_) apply(name, entry);
}

// ---- lookup ------------------------------------------------------------------------------------

bool Configuration::contains(std::string_view name) const { return props_.contains(name); }

std::optional<std::string> Configuration::getRaw(std::string_view name) const {
  auto it = props_.find(name);
  if (it == props_.end()) return std::nullopt;
  return it->second.value;
}

std::optional<std::string> Configuration::get(std::string_view name) const {
  auto it = props_.find(name);
  if (it == props_.end()) return std::nullopt;
  auto expanded = expand(name, it->second.value);
  if (!expanded) return it->second.value;
  return std::move(expanded).value();
}

std::string Configuration::get(std::string_view name, std::string_view defaultValue) const {
  auto value = get(name);
  return value ? *std::move(value) : std::string(defaultValue);
}

std::optional<PropertySource> Configuration::source(std::string_view name) const {
  auto it = props_.find(name);
  if (it == props_.end()) return std::nullopt;
  return it->second.source;
}

std::string Configuration::where(std::string_view name) const {
  auto it = props_.find(name);
  if (it == props_.end()) return fmt::format("property '{}': ", name);
  const std::string at = describe(it->second.source);
  // A scenario's JSON path already ends with the key (configuration.<file>.<key>): name it once.
  if (std::string_view(at).ends_with(fmt::format(".{}", name))) return at + ": ";
  return fmt::format("{}: property '{}': ", at, name);
}

std::vector<std::string> Configuration::namesWithPrefix(std::string_view prefix) const {
  std::vector<std::string> names;
  for (auto it = props_.lower_bound(prefix); it != props_.end(); ++it) {
    if (!std::string_view(it->first).starts_with(prefix)) break;
    names.push_back(it->first);
  }
  return names;
}

std::map<std::string, std::string> Configuration::all() const {
  std::map<std::string, std::string> out;
  for (const auto& [name, entry] : props_) out.emplace(name, *get(name));
  return out;
}

// ---- expansion ---------------------------------------------------------------------------------

// ${env.X} falls back to a property literally named "env.X", as in Hadoop. Hadoop consults Java
// system properties before other properties; there are none here.
std::optional<std::string> Configuration::lookupVariable(std::string_view var) const {
  if (var.starts_with("env.") && var.size() > 4) {
    if (auto value = lookupEnvironment(var.substr(4))) return value;
  }
  return getRaw(var);
}

// Hadoop's substituteVars:
//  1. Find the leftmost ${var}; done when there is none.
//  2. Resolve var to a raw value; if unresolved, stop and return the string as it stands.
//  3. If that value contains the very ${var} being replaced, return the original, unexpanded
//     value (a self-reference cannot be expanded).
//  4. Splice the value in and repeat; the spliced value's own ${...} are expanded in turn, so
//     nesting and repetition share the budget of kMaxSubstitutions.
Result<std::string> Configuration::expand(std::string_view name, const std::string& raw) const {
  std::string eval = raw;
  for (int done = 0;; ++done) {
    const std::optional<VariableRef> ref = findVariable(eval);
    if (!ref) return eval;
    if (done == kMaxSubstitutions) {
      return invalidArgument("{}variable substitution depth too large: more than {} in '{}'",
                             where(name), kMaxSubstitutions, raw);
    }
    const std::string_view var(eval.data() + ref->nameBegin, ref->closeBrace - ref->nameBegin);
    const std::optional<std::string> value = lookupVariable(var);
    if (!value) return eval;
    const size_t refLength = ref->closeBrace + 1 - ref->dollar;
    if (value->find(std::string_view(eval).substr(ref->dollar, refLength)) != std::string::npos) {
      return raw;
    }
    eval.replace(ref->dollar, refLength, *value);
  }
}

// ---- typed accessors ---------------------------------------------------------------------------

namespace {

// Prefixes a parser's bare message with "file:line: property 'x': ".
template <typename T>
Result<T> located(const Configuration& conf, std::string_view name, Result<T> parsed) {
  if (parsed) return parsed;
  return invalidArgument("{}{}", conf.where(name), parsed.status().message());
}

}  // namespace

Result<std::string> Configuration::trimmedValue(std::string_view name) const {
  auto it = props_.find(name);
  assert(it != props_.end());
  SPINDLE_ASSIGN_OR_RETURN(std::string value, expand(name, it->second.value));
  return std::string(trim(value));
}

// The accessors below keep the text in a const Result instead of moving it out with
// SPINDLE_ASSIGN_OR_RETURN: GCC 12 at -O1 and above reports a false -Wmaybe-uninitialized on the
// moved string.
Result<int64_t> Configuration::getLong(std::string_view name, int64_t defaultValue) const {
  if (!contains(name)) return defaultValue;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  return located(*this, name, parseLong(*text, /*allowHex=*/true));
}

Result<int32_t> Configuration::getInt(std::string_view name, int32_t defaultValue) const {
  if (!contains(name)) return defaultValue;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  return located(*this, name, parseInt(*text, /*allowHex=*/true));
}

Result<double> Configuration::getDouble(std::string_view name, double defaultValue) const {
  if (!contains(name)) return defaultValue;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  return located(*this, name, parseDouble(*text));
}

Result<bool> Configuration::getBool(std::string_view name, bool defaultValue) const {
  if (!contains(name)) return defaultValue;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  return located(*this, name, parseBool(*text));
}

Result<int64_t> Configuration::getTimeDurationMs(std::string_view name, int64_t defaultMs,
                                                 int64_t bareUnitMs) const {
  assert(bareUnitMs >= 1);
  if (!contains(name)) return defaultMs;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  return located(*this, name, parseDurationMs(*text, bareUnitMs));
}

Result<int64_t> Configuration::getSizeBytes(std::string_view name, int64_t defaultValue) const {
  if (!contains(name)) return defaultValue;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  return located(*this, name, parseSizeBytes(*text));
}

std::vector<std::string> Configuration::getStrings(std::string_view name) const {
  auto value = get(name);
  if (!value) return {};
  return splitTrimmed(*value);
}

// Hadoop's getInts parses each item with Integer.parseInt: decimal only, unlike getInt.
Result<std::vector<int32_t>> Configuration::getInts(std::string_view name) const {
  std::vector<int32_t> ints;
  if (!contains(name)) return ints;
  const Result<std::string> text = trimmedValue(name);
  if (!text) return text.status();
  for (const std::string& item : splitTrimmed(*text)) {
    auto parsed = parseInt(item, /*allowHex=*/false);
    if (!parsed) {
      return invalidArgument("{}item {}: {}", where(name), ints.size() + 1,
                             parsed.status().message());
    }
    ints.push_back(*parsed);
  }
  return ints;
}

}  // namespace spindle
