#include "placement/spec_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <utility>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace spindle::placement {

namespace {

// Java's String.trim drops every character <= ' '.
std::string_view javaTrim(std::string_view s, size_t* skipped = nullptr) {
  size_t begin = 0;
  while (begin < s.size() && static_cast<unsigned char>(s[begin]) <= ' ') ++begin;
  size_t end = s.size();
  while (end > begin && static_cast<unsigned char>(s[end - 1]) <= ' ') --end;
  if (skipped != nullptr) *skipped = begin;
  return s.substr(begin, end - begin);
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// A piece of the input with its offset in the whole text being parsed.
struct Token {
  std::string_view text;
  size_t offset = 0;
};

// A parse failure. `hard` failures are not swallowed by the Expr fallback chain (they stand for
// the inputs on which YARN throws a runtime exception that escapes the chain).
struct Error {
  std::string message;
  size_t offset = 0;
  std::string token;
  bool hard = false;
  std::string cause;  // the most plausible sub-parser's failure, for "Invalid constraint ..."

  std::string render() const {
    std::string out = fmt::format("{} [offset {}, token '{}']", message, offset, token);
    if (!cause.empty()) out += "; " + cause;
    return out;
  }
};

template <typename T>
using Parsed = std::variant<T, Error>;

template <typename T>
bool failed(const Parsed<T>& p) {
  return std::holds_alternative<Error>(p);
}

template <typename T>
Result<T> toResult(Parsed<T>&& p) {
  if (failed(p)) return invalidArgument("{}", std::get<Error>(p).render());
  return std::get<T>(std::move(p));
}

Error errorAt(Token where, std::string message, bool hard = false) {
  return Error{std::move(message), where.offset, std::string(where.text), hard, {}};
}

// StringTokenizer(text, delimiters) followed by trim on every token: empty pieces between
// delimiters vanish, a blank piece survives as an empty token.
std::vector<Token> tokenize(Token in, std::string_view delimiters) {
  std::vector<Token> out;
  size_t start = 0;
  while (start < in.text.size()) {
    size_t stop = in.text.find_first_of(delimiters, start);
    if (stop == std::string_view::npos) stop = in.text.size();
    if (stop > start) {
      size_t skipped = 0;
      std::string_view piece = javaTrim(in.text.substr(start, stop - start), &skipped);
      out.push_back({piece, in.offset + start + skipped});
    }
    start = stop + 1;
  }
  return out;
}

// MultipleConstraintsTokenizer with offsets.
std::vector<Token> splitTopLevel(Token in) {
  std::vector<size_t> stack;  // positions of ':' and '('
  const std::string_view s = in.text;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ':' || s[i] == '(') {
      stack.push_back(i);
    } else if (s[i] == ')') {
      // Pop back to the matching '(' (dropping the ':' inside); a ')' with no open '(' is
      // ignored.
      auto open = std::find_if(stack.rbegin(), stack.rend(), [&](size_t p) { return s[p] == '('; });
      if (open != stack.rend()) stack.erase(std::prev(open.base()), stack.end());
    }
  }
  std::vector<Token> out;
  size_t start = 0;
  stack.push_back(s.size());
  for (size_t split : stack) {
    if (split > start) out.push_back({s.substr(start, split - start), in.offset + start});
    start = split + 1;
  }
  return out;
}

// Java Integer.parseInt: optional sign, decimal digits, 32-bit range, no blanks.
std::optional<int32_t> parseJavaInt(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string_view digits = s;
  if (digits.front() == '+' || digits.front() == '-') digits.remove_prefix(1);
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  int64_t value = 0;
  for (char c : digits) {
    value = value * 10 + (c - '0');
    if (value > int64_t{1} << 31) return std::nullopt;
  }
  if (s.front() == '-') value = -value;
  if (value > std::numeric_limits<int32_t>::max() || value < std::numeric_limits<int32_t>::min()) {
    return std::nullopt;
  }
  return static_cast<int32_t>(value);
}

constexpr std::string_view kNamespaces[] = {"self", "not-self", "app-id", "app-tag", "all"};

// A target tag with an optional namespace prefix, split at the LAST '/'.
Parsed<TargetExpression> parseTarget(Token t) {
  const size_t slash = t.text.rfind('/');
  if (slash == std::string_view::npos) {
    return allocationTag({std::string(t.text)});
  }
  const std::string_view prefix = t.text.substr(0, slash);
  if (std::find(std::begin(kNamespaces), std::end(kNamespaces), prefix) == std::end(kNamespaces)) {
    return errorAt({prefix, t.offset}, fmt::format("Invalid namespace prefix: {}", prefix));
  }
  return allocationTagWithNamespace(std::string(prefix), {std::string(t.text.substr(slash + 1))});
}

Parsed<Scope> parseScope(Token t) {
  if (equalsIgnoreCase(t.text, "node")) return Scope::kNode;
  if (equalsIgnoreCase(t.text, "rack")) return Scope::kRack;
  return errorAt(t, fmt::format("expecting scope to node or rack, but met {}", t.text));
}

Parsed<std::vector<TargetExpression>> parseTargets(const std::vector<Token>& tokens, size_t begin,
                                                   size_t end) {
  std::vector<TargetExpression> targets;
  for (size_t i = begin; i < end; ++i) {
    Parsed<TargetExpression> t = parseTarget(tokens[i]);
    if (failed(t)) return std::get<Error>(std::move(t));
    targets.push_back(std::get<TargetExpression>(std::move(t)));
  }
  return targets;
}

Parsed<PlacementConstraint> parseExpr(Token expr);

Parsed<PlacementConstraint> targetExpr(Token expr) {
  const std::vector<Token> tokens = tokenize(expr, ",");
  if (tokens.empty()) return errorAt(expr, "expecting in or notin, but get nothing");
  const Token op = tokens[0];
  const bool in = equalsIgnoreCase(op.text, "in");
  if (!in && !equalsIgnoreCase(op.text, "notin")) {
    return errorAt(op, fmt::format("expecting in or notin, but get {}", op.text));
  }
  if (tokens.size() < 2) {
    return errorAt(op, fmt::format("expecting a scope after {}", op.text), /*hard=*/true);
  }
  Parsed<Scope> scope = parseScope(tokens[1]);
  if (failed(scope)) return std::get<Error>(std::move(scope));
  auto targets = parseTargets(tokens, 2, tokens.size());
  if (failed(targets)) return std::get<Error>(std::move(targets));
  auto& list = std::get<std::vector<TargetExpression>>(targets);
  return in ? targetIn(std::get<Scope>(scope), std::move(list))
            : targetNotIn(std::get<Scope>(scope), std::move(list));
}

Parsed<PlacementConstraint> cardinalityExpr(Token expr) {
  const std::vector<Token> tokens = tokenize(expr, ",");
  if (tokens.empty() || !equalsIgnoreCase(tokens[0].text, "cardinality")) {
    const Token op = tokens.empty() ? expr : tokens[0];
    return errorAt(op, fmt::format("expecting cardinality , but met {}", op.text));
  }
  if (tokens.size() < 2) return errorAt(tokens[0], "Expecting more tokens");
  Parsed<Scope> scope = parseScope(tokens[1]);
  if (failed(scope)) return std::get<Error>(std::move(scope));
  const size_t remaining = tokens.size() - 2;
  if (remaining < 3) {
    return errorAt(tokens.back(),
                   fmt::format("Invalid syntax for a cardinality expression, expecting "
                               "\"cardinality,SCOPE,TARGET_TAG,...,TARGET_TAG,MIN_CARDINALITY,"
                               "MAX_CARDINALITY\" at least 5 elements, but only {} is given.",
                               remaining + 2));
  }
  const Token minToken = tokens[tokens.size() - 2];
  const Token maxToken = tokens[tokens.size() - 1];
  const std::optional<int32_t> min = parseJavaInt(minToken.text);
  if (!min)
    return errorAt(minToken, fmt::format("Expecting an Integer, but get {}", minToken.text));
  const std::optional<int32_t> max = parseJavaInt(maxToken.text);
  if (!max)
    return errorAt(maxToken, fmt::format("Expecting an Integer, but get {}", maxToken.text));
  auto targets = parseTargets(tokens, 2, tokens.size() - 2);
  if (failed(targets)) return std::get<Error>(std::move(targets));
  return targetCardinality(std::get<Scope>(scope), *min, *max,
                           std::get<std::vector<TargetExpression>>(std::move(targets)));
}

Parsed<PlacementConstraint> conjunctionExpr(Token expr) {
  const std::string_view s = expr.text;
  const bool isAnd = s.starts_with("and") || s.starts_with("AND");
  const bool isOr = !isAnd && (s.starts_with("or") || s.starts_with("OR"));
  if (!isAnd && !isOr) {
    return errorAt(expr, fmt::format("Excepting starting with \"and\" or \"or\", but met {}", s));
  }
  const size_t open = s.find('(');
  const size_t close = s.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return errorAt(expr, fmt::format("Unexpected format, expecting [AND|OR](A:B...) but current "
                                     "expression is {}",
                                     s));
  }
  const Token inner{s.substr(open + 1, close - open - 1), expr.offset + open + 1};
  const std::vector<Token> parts = splitTopLevel(inner);
  if (parts.empty()) {
    return errorAt(expr, fmt::format("expecting at least one constraint inside {}", s),
                   /*hard=*/true);
  }
  std::vector<PlacementConstraint> children;
  for (const Token& part : parts) {
    Parsed<PlacementConstraint> child = parseExpr(part);
    if (failed(child)) return std::get<Error>(std::move(child));
    children.push_back(std::get<PlacementConstraint>(std::move(child)));
  }
  return isAnd ? andOf(std::move(children)) : orOf(std::move(children));
}

Parsed<PlacementConstraint> nodeAttributeExpr(Token expr) {
  const std::vector<Token> tokens = tokenize(expr, ",");
  std::string name;
  NodeAttributeOp op = NodeAttributeOp::kEq;
  bool sawPair = false;
  std::set<std::string> values;
  for (const Token& token : tokens) {
    // Split on the characters '!' and '=' (empty pieces vanish, nothing is trimmed): "k!=v",
    // "k=v" and "k==v" give {k, v}; a token with no delimiter is one more value.
    std::vector<std::string_view> raw;
    size_t start = 0;
    while (start < token.text.size()) {
      size_t stop = token.text.find_first_of("!=", start);
      if (stop == std::string_view::npos) stop = token.text.size();
      if (stop > start) raw.push_back(token.text.substr(start, stop - start));
      start = stop + 1;
    }
    if (raw.size() >= 2) {
      op = token.text.find("!=") != std::string_view::npos ? NodeAttributeOp::kNe
                                                           : NodeAttributeOp::kEq;
      name = std::string(raw[0]);
      values.insert(std::string(raw[1]));
      sawPair = true;
    } else if (raw.size() == 1) {
      values.insert(std::string(raw[0]));
    }
  }
  if (!sawPair) {
    return errorAt(expr, fmt::format("expecting valid expression like k=v or k!=v, but get [{}]",
                                     fmt::join(values, ", ")));
  }
  return targetNodeAttribute(
      Scope::kNode, op,
      {nodeAttribute(std::move(name), std::vector<std::string>(values.begin(), values.end()))});
}

// The sub-parser whose failure best explains why `expr` is not a constraint.
const Error* plausibleCause(Token expr, const Error& target, const Error& cardinality,
                            const Error& conjunction, const Error& attribute) {
  const std::vector<Token> tokens = tokenize(expr, ",");
  const std::string_view first = tokens.empty() ? std::string_view() : tokens[0].text;
  if (equalsIgnoreCase(first, "in") || equalsIgnoreCase(first, "notin")) return &target;
  if (equalsIgnoreCase(first, "cardinality")) return &cardinality;
  const std::string_view trimmed = javaTrim(expr.text);
  if (trimmed.size() > 2 && (equalsIgnoreCase(trimmed.substr(0, 3), "and") ||
                             equalsIgnoreCase(trimmed.substr(0, 2), "or"))) {
    if (trimmed != expr.text) return nullptr;  // leading blanks: the message says enough
    return &conjunction;
  }
  if (expr.text.find('=') != std::string_view::npos) return &attribute;
  return nullptr;
}

Parsed<PlacementConstraint> parseExpr(Token expr) {
  Parsed<PlacementConstraint> target = targetExpr(expr);
  if (!failed(target) || std::get<Error>(target).hard) return target;
  Parsed<PlacementConstraint> card = cardinalityExpr(expr);
  if (!failed(card) || std::get<Error>(card).hard) return card;
  Parsed<PlacementConstraint> conj = conjunctionExpr(expr);
  if (!failed(conj) || std::get<Error>(conj).hard) return conj;
  Parsed<PlacementConstraint> attr = nodeAttributeExpr(expr);
  if (!failed(attr)) return attr;
  Error error = errorAt(expr, fmt::format("Invalid constraint expression {}", expr.text));
  if (const Error* cause = plausibleCause(expr, std::get<Error>(target), std::get<Error>(card),
                                          std::get<Error>(conj), std::get<Error>(attr))) {
    error.cause = cause->render();
  }
  return error;
}

Parsed<SourceTags> sourceTags(Token in) {
  const std::string_view s = in.text;
  std::vector<Token> pieces;
  size_t start = 0;
  while (start < s.size()) {
    size_t stop = s.find('(', start);
    if (stop == std::string_view::npos) stop = s.size();
    if (stop > start) pieces.push_back({s.substr(start, stop - start), in.offset + start});
    start = stop + 1;
  }
  if (pieces.size() != 2 || !s.ends_with(')')) {
    return errorAt(in, fmt::format("Expecting source allocation tag to be specified "
                                   "sourceTag(numOfAllocations) syntax, but met {}",
                                   s));
  }
  const Token count{pieces[1].text.substr(0, pieces[1].text.size() - 1), pieces[1].offset};
  const std::optional<int32_t> n = parseJavaInt(count.text);
  if (!n) {
    return errorAt(
        count, fmt::format("Value of the expression must be an integer, but met {}", count.text));
  }
  return SourceTags{std::string(pieces[0].text), *n};
}

Parsed<PlacementSpec> placementSpec(Token spec) {
  PlacementSpec out;
  const std::vector<Token> items = splitTopLevel(spec);
  std::optional<Token> withoutSource;
  for (const Token& item : items) {
    const size_t split = item.text.find("),");
    if (split != std::string_view::npos) {
      const std::string source = std::string(item.text.substr(0, split)) + ")";
      Parsed<SourceTags> tags = sourceTags({source, item.offset});
      if (failed(tags)) return std::get<Error>(std::move(tags));
      Parsed<PlacementConstraint> c =
          parseExpr({item.text.substr(split + 2), item.offset + split + 2});
      if (failed(c)) return std::get<Error>(std::move(c));
      out.push_back(
          {std::get<SourceTags>(std::move(tags)), std::get<PlacementConstraint>(std::move(c))});
      continue;
    }
    Parsed<PlacementConstraint> attr = nodeAttributeExpr(item);
    if (!failed(attr)) {
      out.push_back({SourceTags{}, std::get<PlacementConstraint>(std::move(attr))});
      withoutSource = item;
      continue;
    }
    Parsed<SourceTags> tags = sourceTags(item);
    if (failed(tags)) return std::get<Error>(std::move(tags));
    out.push_back({std::get<SourceTags>(std::move(tags)), std::nullopt});
  }
  if (withoutSource && out.size() > 1) {
    return errorAt(*withoutSource,
                   "Source allocation tags is required for a multi placement constraint "
                   "expression.");
  }
  return out;
}

}  // namespace

Result<PlacementSpec> parsePlacementSpec(std::string_view spec) {
  return toResult(placementSpec({spec, 0}));
}

Result<PlacementConstraint> parseExpression(std::string_view expr) {
  return toResult(parseExpr({expr, 0}));
}

Result<PlacementConstraint> parseTargetExpression(std::string_view expr) {
  return toResult(targetExpr({expr, 0}));
}

Result<PlacementConstraint> parseCardinalityExpression(std::string_view expr) {
  return toResult(cardinalityExpr({expr, 0}));
}

Result<PlacementConstraint> parseConjunctionExpression(std::string_view expr) {
  return toResult(conjunctionExpr({expr, 0}));
}

Result<PlacementConstraint> parseNodeAttributeExpression(std::string_view expr) {
  return toResult(nodeAttributeExpr({expr, 0}));
}

std::vector<std::string> splitConstraints(std::string_view text) {
  std::vector<std::string> out;
  for (const Token& t : splitTopLevel({text, 0})) out.emplace_back(t.text);
  return out;
}

Result<SourceTags> parseSourceTags(std::string_view text) {
  return toResult(sourceTags({text, 0}));
}

}  // namespace spindle::placement
