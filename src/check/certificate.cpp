// The statements of format 1 and the order of statements; see parser.hpp.
#include <algorithm>
#include <array>
#include <optional>

#include "check/certificate.hpp"
#include "check/parser.hpp"
#include "check/reader.hpp"
#include "check/status.hpp"

namespace krcheck::detail {
namespace {

constexpr std::array<std::string_view, 27> kKeywords = {"kernelrank-certificate",
                                                        "task",
                                                        "construction",
                                                        "rule",
                                                        "steps",
                                                        "step",
                                                        "rows",
                                                        "row",
                                                        "pairs",
                                                        "pair",
                                                        "sum",
                                                        "claim",
                                                        "end",
                                                        "core",
                                                        "keypair",
                                                        "begin-embedded",
                                                        "end-embedded",
                                                        "queries",
                                                        "query",
                                                        "covers",
                                                        "cover",
                                                        "generated",
                                                        "drops",
                                                        "drop",
                                                        "blocks",
                                                        "block",
                                                        "word"};

constexpr std::uint64_t kMaxSteps = 100'000'000;
constexpr std::uint64_t kMaxPairs = kMaxRows * (kMaxRows - 1);
constexpr std::uint64_t kMaxStepK = 1'000'000;

}  // namespace

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 60;
  return "'" + std::string(text.substr(0, kShown)) + (text.size() > kShown ? "...'" : "'");
}

Certificate Parser::run() {
  if (!advance())
    reader_.malformed(0,
                      "empty file: expected 'kernelrank-certificate 1' or "
                      "'kernelrank-certificate 2'");
  parse_body(false);
  if (advance()) malformed("unexpected " + quoted(keyword()) + " after 'end'");
  return std::move(cert_);
}

void Parser::parse_body(bool embedded) {
  parse_header();
  require("task");
  parse_task(embedded);
  if (has_line_ && keyword() == "construction") advance();  // informational text
  require("rule");
  parse_rule(embedded);
  if (cert_.rule == RuleKind::order) {
    require("steps");  // in cube certificates too: the cube holds every instance a step names
    parse_steps();
    require("core");
    parse_core();
  } else if (cert_.rule == RuleKind::dependence) {
    require("queries");
    parse_queries();
    require("steps");
    parse_steps();
    require("covers");
    parse_covers();
  } else if (cert_.rule == RuleKind::inherit) {
    require("begin-embedded");
    parse_embedded();
  } else if (cert_.rule == RuleKind::trace_product) {
    require("blocks");
    parse_blocks();
    require("sum");
    parse_sum();
  } else if (cert_.rule == RuleKind::trace_uniform) {
    require("generated");
    parse_generated();
    require("drops");
    parse_drops();
    require("sum");
    parse_sum();
  } else {
    if (cert_.is_family) {
      require("steps");
      parse_steps();
    } else if (has_line_ && keyword() == "steps") {
      malformed("'steps' appears in family certificates only");
    }
    require("rows");
    parse_rows();
    if (cert_.is_family) {
      require("pairs");
      parse_pairs();
    } else if (has_line_ && keyword() == "pairs") {
      malformed("'pairs' appears in family certificates only");
    }
    require("sum");
    parse_sum();
  }
  require("claim");
  parse_claim();
  require("end");
  expect_field_count(reader_, line_, 1, "end");
}

// The current line must be the statement `word`.
void Parser::require(std::string_view word) {
  const std::string expected = "'" + std::string(word) + "'";
  if (!has_line_) malformed_at_end(expected);
  if (keyword() == word) return;
  const bool known = std::find(kKeywords.begin(), kKeywords.end(), keyword()) != kKeywords.end();
  const bool generated_elsewhere =
      keyword() == "generated" && cert_.rule != RuleKind::trace_uniform;
  malformed((known ? "statement " + quoted(keyword()) + " out of order"
                   : "unknown statement " + quoted(keyword())) +
            ": expected " + expected +
            (generated_elsewhere ? " (the generated line belongs to rule trace-uniform)" : ""));
}

// The next line of a counted block must be `word`; `index` counts from 1.
void Parser::require_item(std::string_view word, std::uint64_t index, std::uint64_t count,
                          long count_line) {
  const std::string expected = "'" + std::string(word) + "' line " + std::to_string(index) +
                               " of the " + std::to_string(count) + " declared on line " +
                               std::to_string(count_line);
  if (!advance()) malformed_at_end(expected);
  if (keyword() != word) malformed("expected " + expected + ", found " + quoted(keyword()));
}

// After a counted block: one more line of the same kind means the count was too small.
void Parser::reject_extra_item(std::string_view word, std::uint64_t count, long count_line) {
  advance();
  if (has_line_ && keyword() == word)
    malformed("more '" + std::string(word) + "' lines than the " + std::to_string(count) +
              " declared on line " + std::to_string(count_line));
}

Token Parser::token(std::string_view text) {
  Token packed(words_for_width(static_cast<std::size_t>(cert_.m)));
  if (!pack_token(text, static_cast<std::size_t>(cert_.m), packed.data()))
    malformed(token_problem(text, static_cast<std::size_t>(cert_.m)));
  return packed;
}

void Parser::step_ids(std::size_t first, std::vector<std::uint32_t>& into) {
  const auto steps = static_cast<std::uint64_t>(cert_.steps.size());
  for (std::size_t t = first; t < line_.fields.size(); ++t) {
    if (steps == 0) malformed("step id " + quoted(line_.fields[t]) + " but no steps are declared");
    const auto id = integer(line_.fields[t], steps, "a step id");
    if (id == 0) malformed("step ids count from 1");
    into.push_back(static_cast<std::uint32_t>(id - 1));
  }
}

void Parser::parse_header() {
  if (keyword() != "kernelrank-certificate")
    malformed("expected header 'kernelrank-certificate 1' or 'kernelrank-certificate 2', found " +
              quoted(keyword()));
  expect_field_count(reader_, line_, 2, "kernelrank-certificate <version>");
  const auto version = line_.fields[1];
  if (version != "1" && version != "2" && version != "3")
    malformed("unsupported certificate format version " + quoted(version) + ", expected 1, 2 or 3");
  cert_.version = version == "1" ? 1 : version == "2" ? 2 : 3;
  cert_.header_line = line_.number;
  advance();
}

void Parser::parse_task(bool embedded) {
  cert_.task_line = line_.number;
  const auto& f = line_.fields;
  if (f.size() < 2 || (f[1] != "cube" && f[1] != "family"))
    malformed("expected 'task cube ...' or 'task family ...'");
  cert_.is_family = f[1] == "family";
  if (embedded && cert_.is_family)
    malformed("the embedded certificate of rule inherit must have a cube task");
  const std::string shape =
      "task " + std::string(f[1]) +
      " m=<m> n=<n> mode=<first|last|all> class=<NK|PF> positions=<independent|dependent>" +
      (cert_.is_family ? " sha256=<hex>" : "");
  if (!cert_.is_family && f.size() == 8 && f[7].substr(0, 7) == "sha256=")
    malformed("'sha256=' is for family certificates only");
  expect_field_count(reader_, line_, cert_.is_family ? 8 : 7, shape);
  // Format 3 (rule trace-product only) holds no token of width m, so m may be larger.
  const int max_m = cert_.version == 3 ? kMaxProductWidth : kMaxWidth;
  const auto m =
      integer(key_value(reader_, line_.number, f[2], "m"), static_cast<std::uint64_t>(max_m), "m");
  if (m < 1) malformed("m=0 is out of range 1.." + std::to_string(max_m));
  const auto n = integer(key_value(reader_, line_.number, f[3], "n"), kMaxLength, "n");
  if (n < kMinLength)
    malformed("n=" + std::to_string(n) + " is out of range " + std::to_string(kMinLength) + ".." +
              std::to_string(kMaxLength));
  cert_.m = static_cast<int>(m);
  cert_.n = static_cast<int>(n);
  const auto mode = key_value(reader_, line_.number, f[4], "mode");
  if (mode == "first")
    cert_.mode = QueryMode::first;
  else if (mode == "last")
    cert_.mode = QueryMode::last;
  else if (mode == "all")
    cert_.mode = QueryMode::all;
  else
    malformed("unknown mode " + quoted(mode) + ", expected first, last or all");
  const auto model_class = key_value(reader_, line_.number, f[5], "class");
  if (model_class != "NK" && model_class != "PF")
    malformed("unknown class " + quoted(model_class) + ", expected NK or PF");
  cert_.model_class = model_class == "NK" ? ModelClass::NK : ModelClass::PF;
  const auto positions = key_value(reader_, line_.number, f[6], "positions");
  if (positions != "independent" && positions != "dependent")
    malformed("unknown positions " + quoted(positions) + ", expected independent or dependent");
  cert_.dependent_positions = positions == "dependent";
  if (cert_.is_family) {
    const auto digest = digest_from_hex(key_value(reader_, line_.number, f[7], "sha256"), true);
    if (!digest) malformed("sha256= must be 64 hexadecimal digits");
    cert_.family_digest = *digest;
  }
  for (const auto field : f) {
    if (!cert_.task_statement.empty()) cert_.task_statement += ' ';
    cert_.task_statement += field;
  }
  advance();
}

void Parser::parse_rule(bool embedded) {
  cert_.rule_line = line_.number;
  const auto& f = line_.fields;
  const std::string_view kind = f.size() >= 2 ? f[1] : std::string_view();
  const bool format3_rule = kind == "trace-product" || kind == "shifted-trace";
  if (format3_rule != (cert_.version == 3))
    malformed(format3_rule
                  ? "rule " + std::string(kind) +
                        " needs certificate format 3, but the header on line " +
                        std::to_string(cert_.header_line) + " says " + std::to_string(cert_.version)
                  : "format 3 (header on line " + std::to_string(cert_.header_line) +
                        ") has rules trace-product and shifted-trace only");
  if (kind == "shifted-trace") {
    parse_shifted_trace();
    advance();
    return;
  }
  if (kind == "trace-product") {
    if (f.size() != 4) expect_field_count(reader_, line_, 3, "rule trace-product precision=<P>");
    if (cert_.is_family) malformed("rule trace-product is for cube tasks only");
    cert_.rule = RuleKind::trace_product;
    const auto precision = key_value(reader_, line_.number, f[2], "precision");
    cert_.precision = static_cast<int>(integer(precision, kMaxPrecision, "precision"));
    if (f.size() == 4) {  // the Hadamard-power refinement L4'
      const auto power = integer(key_value(reader_, line_.number, f[3], "power"),
                                 static_cast<std::uint64_t>(kMaxHadamardPower), "power");
      if (power < 1) malformed("power=0 is out of range 1.." + std::to_string(kMaxHadamardPower));
      cert_.hadamard_power = static_cast<int>(power);
    }
    advance();
    return;
  }
  if ((kind == "order" || kind == "dependence" || kind == "inherit" || kind == "trace-uniform") &&
      cert_.version < 2)
    malformed("rule " + std::string(kind) + " needs certificate format 2, but the header on line " +
              std::to_string(cert_.header_line) + " says 1");
  if (kind == "trace") {
    expect_field_count(reader_, line_, 3, "rule trace precision=<P>");
    cert_.rule = RuleKind::trace;
    const auto precision = key_value(reader_, line_.number, f[2], "precision");
    cert_.precision = static_cast<int>(integer(precision, kMaxPrecision, "precision"));
  } else if (kind == "dominance") {
    expect_field_count(reader_, line_, 2, "rule dominance");
    cert_.rule = RuleKind::dominance;
  } else if (kind == "order") {
    expect_field_count(reader_, line_, 3, "rule order rank=<R>");
    cert_.rule = RuleKind::order;
    const auto rank = integer(key_value(reader_, line_.number, f[2], "rank"), kMaxWidth, "rank");
    if (rank != 1 && rank != 2)
      malformed("rank=" + std::to_string(rank) + ": the order rule refutes rank 1 or 2 only");
    cert_.order_rank = static_cast<int>(rank);
  } else if (kind == "dependence") {
    expect_field_count(reader_, line_, 3, "rule dependence rank=<R>");
    cert_.rule = RuleKind::dependence;
    const auto rank = integer(key_value(reader_, line_.number, f[2], "rank"), kMaxWidth, "rank");
    if (rank < 1 || rank > static_cast<std::uint64_t>(kMaxDependenceRank))
      malformed("rank=" + std::to_string(rank) + ": the dependence rule refutes ranks 1 to " +
                std::to_string(kMaxDependenceRank) + " only");
    cert_.dependence_rank = static_cast<int>(rank);
  } else if (kind == "inherit") {
    expect_field_count(reader_, line_, 2, "rule inherit");
    if (embedded) malformed("rule inherit cannot be nested: the embedded certificate uses it");
    if (cert_.is_family)
      malformed("rule inherit is for cube tasks only (the task on line " +
                std::to_string(cert_.task_line) + " is a family)");
    cert_.rule = RuleKind::inherit;
  } else if (kind == "trace-uniform") {
    expect_field_count(reader_, line_, 3, "rule trace-uniform precision=<P>");
    if (cert_.is_family)
      malformed("rule trace-uniform is for cube tasks only (the task on line " +
                std::to_string(cert_.task_line) + " is a family)");
    cert_.rule = RuleKind::trace_uniform;
    const auto precision = key_value(reader_, line_.number, f[2], "precision");
    cert_.precision = static_cast<int>(integer(precision, kMaxPrecision, "precision"));
  } else if (cert_.version < 2) {
    malformed("expected 'rule trace precision=<P>' or 'rule dominance'");
  } else {
    malformed(
        "expected 'rule trace precision=<P>', 'rule dominance', 'rule order rank=<R>', "
        "'rule dependence rank=<R>', 'rule inherit' or 'rule trace-uniform precision=<P>'");
  }
  advance();
}

// rule shifted-trace precision=<P> shift=<p/q>: family tasks with position-independent maps
// (shifted_rule.hpp); t = p/q in lowest terms with 0 < t < 1.
void Parser::parse_shifted_trace() {
  expect_field_count(reader_, line_, 4, "rule shifted-trace precision=<P> shift=<p/q>");
  if (!cert_.is_family)
    malformed("rule shifted-trace is for family tasks only (the task on line " +
              std::to_string(cert_.task_line) + " is a cube)");
  if (cert_.m > kMaxWidth)
    malformed("rule shifted-trace lists tokens, so m must be at most " + std::to_string(kMaxWidth) +
              " (the task on line " + std::to_string(cert_.task_line) +
              " has m=" + std::to_string(cert_.m) + ")");
  if (cert_.dependent_positions)
    malformed("rule shifted-trace is proved for position-independent maps only (the task on line " +
              std::to_string(cert_.task_line) + " has positions=dependent)");
  cert_.rule = RuleKind::shifted_trace;
  const auto& f = line_.fields;
  const auto precision = key_value(reader_, line_.number, f[2], "precision");
  cert_.precision = static_cast<int>(integer(precision, kMaxPrecision, "precision"));
  const std::string_view text = key_value(reader_, line_.number, f[3], "shift");
  const auto slash = text.find('/');
  const std::string_view num_text = text.substr(0, slash);
  const std::string_view den_text =
      slash == std::string_view::npos ? std::string_view() : text.substr(slash + 1);
  if (slash == std::string_view::npos || !is_canonical_integer(num_text) ||
      !is_canonical_integer(den_text))
    malformed("shift=" + std::string(text) + ": expected a fraction p/q with 0 < p < q");
  const BigInt num{std::string(num_text)}, den{std::string(den_text)};
  if (num < 1 || num >= den)
    malformed("shift=" + std::string(text) + " is not strictly between 0 and 1");
  if (gcd(num, den) != 1) malformed("shift=" + std::string(text) + " is not in lowest terms");
  cert_.shift = Rational(num, den);
}

void Parser::parse_steps() {
  cert_.steps_line = line_.number;
  expect_field_count(reader_, line_, 2, "steps <count>");
  const auto count = integer(line_.fields[1], kMaxSteps, "the number of steps");
  const std::string shape = "step <id> pos=<p> q=<token> a=<token> b=<token> k=<K>";
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("step", index, count, cert_.steps_line);
    expect_field_count(reader_, line_, 7, shape);
    const auto& f = line_.fields;
    if (integer(f[1], kMaxSteps, "the step id") != index)
      malformed("step ids must be 1, 2, 3, ... in order: expected " + std::to_string(index) +
                ", found " + quoted(f[1]));
    Step step;
    step.line = line_.number;
    step.position = static_cast<int>(integer(key_value(reader_, line_.number, f[2], "pos"),
                                             static_cast<std::uint64_t>(cert_.n), "pos"));
    if (step.position < 1) malformed("pos=0: positions count from 1");
    step.query = token(key_value(reader_, line_.number, f[3], "q"));
    step.a = token(key_value(reader_, line_.number, f[4], "a"));
    step.b = token(key_value(reader_, line_.number, f[5], "b"));
    step.k = integer(key_value(reader_, line_.number, f[6], "k"), kMaxStepK, "k");
    cert_.steps.push_back(std::move(step));
  }
  reject_extra_item("step", count, cert_.steps_line);
}

void Parser::parse_rows() {
  cert_.rows_line = line_.number;
  expect_field_count(reader_, line_, 2, "rows <count>");
  const auto count = integer(line_.fields[1], kMaxRows, "the number of rows");
  if (count == 0) malformed("a certificate needs at least one row");
  cert_.own = TokenMatrix(static_cast<std::size_t>(cert_.m));
  cert_.query = TokenMatrix(static_cast<std::size_t>(cert_.m));
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("row", index, count, cert_.rows_line);
    expect_field_count(reader_, line_, 3, "row <own token c_i> <query token q_i>");
    for (int which = 1; which <= 2; ++which) {
      TokenMatrix& target = which == 1 ? cert_.own : cert_.query;
      if (!target.append(line_.fields[static_cast<std::size_t>(which)]))
        malformed(token_problem(line_.fields[static_cast<std::size_t>(which)],
                                static_cast<std::size_t>(cert_.m)));
    }
    cert_.row_lines.push_back(line_.number);
  }
  reject_extra_item("row", count, cert_.rows_line);
}

void Parser::parse_pairs() {
  cert_.pairs_line = line_.number;
  expect_field_count(reader_, line_, 2, "pairs <count>");
  const auto count = integer(line_.fields[1], kMaxPairs, "the number of pairs");
  const auto rows = static_cast<std::uint64_t>(cert_.row_count());
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("pair", index, count, cert_.pairs_line);
    const auto& f = line_.fields;
    if (f.size() < 5 || f[3] != ":")
      malformed("expected 'pair <i> <j> : <step id> ...' with at least one step id");
    PairLine pair;
    pair.line = line_.number;
    const auto i = integer(f[1], rows, "the row index i");
    const auto j = integer(f[2], rows, "the row index j");
    if (i == 0 || j == 0) malformed("row indices count from 1");
    if (i == j)
      malformed("pair " + std::to_string(i) + " " + std::to_string(j) +
                ": a row is not paired with itself");
    pair.row = static_cast<std::uint32_t>(i - 1);
    pair.column = static_cast<std::uint32_t>(j - 1);
    pair.first_step = cert_.pair_steps.size();
    step_ids(4, cert_.pair_steps);
    pair.step_count = f.size() - 4;
    cert_.pairs.push_back(pair);
  }
  reject_extra_item("pair", count, cert_.pairs_line);
}

void Parser::parse_sum() {
  cert_.sum_line = line_.number;
  expect_field_count(reader_, line_, 2, "sum <value>");
  const std::string_view text = line_.fields[1];
  const auto slash = text.find('/');
  const bool integer_sum = cert_.rule == RuleKind::trace || cert_.rule == RuleKind::trace_uniform ||
                           cert_.rule == RuleKind::trace_product ||
                           cert_.rule == RuleKind::shifted_trace;
  if (integer_sum || slash == std::string_view::npos) {
    if (!is_canonical_integer(text))
      malformed(integer_sum
                    ? "the " +
                          std::string(cert_.rule == RuleKind::trace           ? "trace"
                                      : cert_.rule == RuleKind::trace_uniform ? "trace-uniform"
                                      : cert_.rule == RuleKind::trace_product ? "trace-product"
                                                                              : "shifted-trace") +
                          " rule's sum must be a decimal integer, found " + quoted(text)
                    : "expected the sum as an integer or a fraction p/q, found " + quoted(text));
    cert_.stated_sum = Rational(BigInt(std::string(text)));
  } else {
    const auto num_text = text.substr(0, slash);
    const auto den_text = text.substr(slash + 1);
    if (!is_canonical_integer(num_text) || !is_canonical_integer(den_text))
      malformed("expected the sum as an integer or a fraction p/q, found " + quoted(text));
    const BigInt num(std::string{num_text});
    const BigInt den(std::string{den_text});
    if (den == 0) malformed("zero denominator in the sum " + quoted(text));
    if (den < 2 || gcd(num, den) != 1)
      malformed("the fraction " + quoted(text) +
                " is not in lowest terms (integers are written without '/')");
    cert_.stated_sum = Rational(num, den);
  }
  advance();
}

void Parser::parse_claim() {
  cert_.claim_line = line_.number;
  expect_field_count(reader_, line_, 4, "claim r >= <K>");
  if (line_.fields[1] != "r" || line_.fields[2] != ">=") malformed("expected 'claim r >= <K>'");
  if (!is_canonical_integer(line_.fields[3]))
    malformed("expected K as a decimal integer without sign or leading zeros, found " +
              quoted(line_.fields[3]));
  cert_.claim = BigInt(std::string(line_.fields[3]));
  advance();
}

}  // namespace krcheck::detail

namespace krcheck {

Certificate parse_certificate(std::istream& in, const std::string& file) {
  return detail::Parser(in, file).run();
}

Certificate parse_certificate(std::istream& in, const std::string& file, Digest& digest) {
  Sha256 hash;
  Certificate cert = detail::Parser(in, file, &hash).run();  // run() reads to the end
  digest = hash.finish();
  return cert;
}

}  // namespace krcheck
