// The statements of the rules that format 2 adds; see parser.hpp.
#include <algorithm>
#include <limits>
#include <utility>

#include "check/parser.hpp"

namespace krcheck::detail {

// `core C`, then C lines `keypair X Y : <step id> ...`. The count is capped because the
// checker enumerates all 2^C orientations of the key pairs.
void Parser::parse_core() {
  cert_.core_line = line_.number;
  expect_field_count(reader_, line_, 2, "core <count>");
  const auto count = integer(line_.fields[1], kMaxRows, "the number of keypairs");
  if (count > kMaxKeyPairs)
    malformed("core " + std::to_string(count) + ": at most " + std::to_string(kMaxKeyPairs) +
              " keypairs (the checker examines all 2^C orientations)");
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("keypair", index, count, cert_.core_line);
    const auto& f = line_.fields;
    if (f.size() < 5 || f[3] != ":")
      malformed("expected 'keypair <token> <token> : <step id> ...' with at least one step id");
    KeyPairLine pair;
    pair.line = line_.number;
    pair.x = token(f[1]);
    pair.y = token(f[2]);
    if (pair.x == pair.y) malformed("a keypair needs two different key tokens");
    pair.first_step = cert_.core_steps.size();
    step_ids(4, cert_.core_steps);
    pair.step_count = f.size() - 4;
    cert_.keypairs.push_back(std::move(pair));
  }
  reject_extra_item("keypair", count, cert_.core_line);
}

// `queries Q`, then Q lines `query TOKEN`: the dependence rule's R + 1 distinct queries.
void Parser::parse_queries() {
  cert_.queries_line = line_.number;
  expect_field_count(reader_, line_, 2, "queries <count>");
  const auto count = integer(line_.fields[1], kMaxRows, "the number of queries");
  const auto needed = static_cast<std::uint64_t>(cert_.dependence_rank) + 1;
  if (count != needed)
    malformed("queries " + std::to_string(count) + ": the dependence rule at rank " +
              std::to_string(cert_.dependence_rank) + " takes R + 1 = " + std::to_string(needed) +
              " queries");
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("query", index, count, cert_.queries_line);
    expect_field_count(reader_, line_, 2, "query <token>");
    Token query = token(line_.fields[1]);
    // Equal queries would make any R + 1 of them trivially dependent.
    const auto same =
        std::find(cert_.dependence_queries.begin(), cert_.dependence_queries.end(), query);
    if (same != cert_.dependence_queries.end())
      malformed("query " + quoted(line_.fields[1]) + " repeats the query on line " +
                std::to_string(cert_.query_lines[static_cast<std::size_t>(
                    same - cert_.dependence_queries.begin())]));
    cert_.dependence_queries.push_back(std::move(query));
    cert_.query_lines.push_back(line_.number);
  }
  reject_extra_item("query", count, cert_.queries_line);
}

// `covers C`, then C lines `cover SIGNS A B : <step id> ...`, one id per nonzero sign.
void Parser::parse_covers() {
  cert_.covers_line = line_.number;
  expect_field_count(reader_, line_, 2, "covers <count>");
  const auto count = integer(line_.fields[1], kMaxRows, "the number of covers");
  const std::size_t length = cert_.dependence_queries.size();
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("cover", index, count, cert_.covers_line);
    const auto& f = line_.fields;
    if (f.size() < 5 || f[4] != ":")
      malformed("expected 'cover <signs> <token> <token> : <step id> ...'");
    CoverLine cover;
    cover.line = line_.number;
    cover.signs = std::string(f[1]);
    if (cover.signs.size() != length)
      malformed("signs " + quoted(f[1]) + " have length " + std::to_string(cover.signs.size()) +
                ", expected one sign per query: " + std::to_string(length));
    const auto other = cover.signs.find_first_not_of("+-0");
    if (other != std::string::npos)
      malformed("signs " + quoted(f[1]) + ": " + quoted(f[1].substr(other, 1)) +
                " is not +, - or 0");
    const auto nonzero = static_cast<std::size_t>(
        std::count_if(cover.signs.begin(), cover.signs.end(), [](char c) { return c != '0'; }));
    if (nonzero == 0) malformed("signs " + quoted(f[1]) + " are all 0: a cover needs a sign");
    cover.a = token(f[2]);
    cover.b = token(f[3]);
    if (cover.a == cover.b) malformed("a cover needs two different key tokens");
    cover.first_step = cert_.cover_steps.size();
    step_ids(5, cert_.cover_steps);
    cover.step_count = f.size() - 5;
    if (cover.step_count != nonzero)
      malformed("signs " + quoted(f[1]) + ": the cover names " + std::to_string(cover.step_count) +
                " step id(s) for " + std::to_string(nonzero) +
                " nonzero sign(s), it needs one per nonzero sign");
    cert_.covers.push_back(std::move(cover));
  }
  reject_extra_item("cover", count, cert_.covers_line);
}

// `begin-embedded`, a complete certificate read by the same parser from the same reader (so
// its errors name this file and its lines), then `end-embedded`.
void Parser::parse_embedded() {
  cert_.begin_embedded_line = line_.number;
  expect_field_count(reader_, line_, 1, "begin-embedded");
  if (!advance()) malformed_at_end("the embedded certificate's header 'kernelrank-certificate'");
  Certificate outer = std::move(cert_);
  cert_ = Certificate();
  cert_.file = outer.file;
  parse_body(true);
  auto inner = std::make_unique<Certificate>(std::move(cert_));
  cert_ = std::move(outer);
  cert_.embedded = std::move(inner);
  advance();
  require("end-embedded");
  expect_field_count(reader_, line_, 1, "end-embedded");
  cert_.end_embedded_line = line_.number;
  advance();
}

}  // namespace krcheck::detail

namespace krcheck::detail {

// `generated splitmix64 seed=S count=C weight=W queries=complement`: the rows of rule
// trace-uniform, regenerated by the checker (generated_rows.hpp).
void Parser::parse_generated() {
  cert_.generated_line = line_.number;
  expect_field_count(reader_, line_, 6,
                     "generated splitmix64 seed=<S> count=<C> weight=<W> queries=complement");
  const auto& f = line_.fields;
  if (f[1] != "splitmix64")
    malformed("unknown generator " + quoted(f[1]) + ": expected 'splitmix64'");
  cert_.seed = integer(key_value(reader_, line_.number, f[2], "seed"),
                       std::numeric_limits<std::uint64_t>::max(), "the seed");
  const auto count =
      integer(key_value(reader_, line_.number, f[3], "count"), kMaxGeneratedCount, "the count");
  if (count < kMinGeneratedCount)
    malformed("count=" + std::to_string(count) + " is out of range " +
              std::to_string(kMinGeneratedCount) + ".." + std::to_string(kMaxGeneratedCount));
  const auto weight =
      integer(key_value(reader_, line_.number, f[4], "weight"), kMaxWidth, "the weight");
  if (weight < 1 || weight > static_cast<std::uint64_t>(cert_.m) - 1)
    malformed("weight=" + std::to_string(weight) + " is out of range 1.." +
              std::to_string(cert_.m - 1) + " (1..m-1)");
  const auto queries = key_value(reader_, line_.number, f[5], "queries");
  if (queries != "complement")
    malformed("unknown query rule " + quoted(queries) + ": expected queries=complement");
  // The checker holds every word: refuse up front what would not fit in 4 GiB.
  const std::uint64_t words = words_for_width(static_cast<std::size_t>(cert_.m));
  const std::uint64_t bytes = count * words * 8;  // <= 10^7 * 64 * 8: no overflow
  if (bytes > kMaxGeneratedBytes)
    malformed("count=" + std::to_string(count) + " words of m=" + std::to_string(cert_.m) +
              " need " + std::to_string(count) + " * " + std::to_string(words) + " * 8 = " +
              std::to_string(bytes) + " bytes, more than the checker's limit of 4 GiB (" +
              std::to_string(kMaxGeneratedBytes) + " bytes)");
  cert_.generated_count = count;
  cert_.weight = static_cast<int>(weight);
  advance();
}

// `drops D`, then D lines `drop I`: generated rows left out, strictly increasing, and at
// least one row kept.
void Parser::parse_drops() {
  cert_.drops_line = line_.number;
  expect_field_count(reader_, line_, 2, "drops <count>");
  const std::uint64_t count =
      integer(line_.fields[1], cert_.generated_count - 1, "the number of drops");
  cert_.drops.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t index = 1; index <= count; ++index) {
    require_item("drop", index, count, cert_.drops_line);
    expect_field_count(reader_, line_, 2, "drop <generated row index>");
    const auto row = integer(line_.fields[1], cert_.generated_count, "the drop index");
    if (row == 0) malformed("drop 0: generated rows count from 1");
    if (!cert_.drops.empty() && row <= cert_.drops.back())
      malformed("drop " + std::to_string(row) +
                ": drop indices must be strictly increasing (the previous drop is " +
                std::to_string(cert_.drops.back()) + ")");
    cert_.drops.push_back(row);
  }
  reject_extra_item("drop", count, cert_.drops_line);
}

}  // namespace krcheck::detail
