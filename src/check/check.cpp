// Orchestration; see check.hpp. The order of the checks: the certificate is parsed
// completely first (so malformed input always wins), then the arguments are matched to
// the task, then the family file is parsed and its digest compared, then steps, chains,
// the rule's sum and the claim. An inherit certificate's embedded certificate is verified
// completely before its task is compared with the outer one. Rule trace-uniform may also be
// checked in shards (a partial result per shard) and concluded by merge_partials(). A model
// file (kernelrank-model) is a layered head, an upper bound: parsed and checked by itself.
#include "check/check.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <stdexcept>

#include "check/certificate.hpp"
#include "check/conclusion.hpp"
#include "check/cube_rule.hpp"
#include "check/dependence_rule.hpp"
#include "check/family.hpp"
#include "check/family_chains.hpp"
#include "check/guarded_run.hpp"
#include "check/inherit_rule.hpp"
#include "check/layered_head.hpp"
#include "check/layered_rule.hpp"
#include "check/order_rule.hpp"
#include "check/partial.hpp"
#include "check/product_rule.hpp"
#include "check/reader.hpp"
#include "check/shifted_rule.hpp"
#include "check/uniform_rule.hpp"

namespace krcheck {
namespace {

std::istream& opened(const NamedInput& input) {
  if (input.directory) fail_malformed(input.name, 0, "is a directory, expected a file");
  if (input.special)
    fail_malformed(input.name, 0,
                   "is not a regular file (a FIFO, socket or device), expected a file");
  if (input.stream == nullptr) fail_malformed(input.name, 0, "cannot open the file");
  return *input.stream;
}

std::string rule_text(const Certificate& cert) {
  switch (cert.rule) {
    case RuleKind::trace:
      return "trace precision=" + std::to_string(cert.precision);
    case RuleKind::dominance:
      return "dominance";
    case RuleKind::order:
      return "order rank=" + std::to_string(cert.order_rank);
    case RuleKind::dependence:
      return "dependence rank=" + std::to_string(cert.dependence_rank);
    case RuleKind::inherit:
      return "inherit";
    case RuleKind::trace_uniform:
      return "trace-uniform precision=" + std::to_string(cert.precision);
    case RuleKind::trace_product:
      return "trace-product precision=" + std::to_string(cert.precision) +
             (cert.hadamard_power > 1 ? " power=" + std::to_string(cert.hadamard_power) : "");
    case RuleKind::shifted_trace:
      return "shifted-trace precision=" + std::to_string(cert.precision) +
             " shift=" + to_text(cert.shift);
  }
  return "?";
}

void print_summary(const Certificate& cert, std::ostream& out) {
  out << "c certificate: " << cert.file << "\n";
  if (cert.version != 1) out << "c format: " << cert.version << "\n";
  out << "c " << cert.task_statement << "\n";
  if (cert.rule == RuleKind::trace || cert.rule == RuleKind::dominance ||
      cert.rule == RuleKind::shifted_trace)
    out << "c rows: " << cert.row_count() << "\n";
  if (cert.rule == RuleKind::order)
    out << "c declared: " << cert.steps.size() << " steps, " << cert.keypairs.size()
        << " keypairs\n";
  if (cert.rule == RuleKind::dependence)
    out << "c declared: " << cert.dependence_queries.size() << " queries, " << cert.steps.size()
        << " steps, " << cert.covers.size() << " covers\n";
  if (cert.rule == RuleKind::trace_uniform) {
    out << "c generated: splitmix64 seed=" << cert.seed << " count=" << cert.generated_count
        << " weight=" << cert.weight << " queries=complement\n";
    out << "c rows: " << cert.generated_count << " generated, " << cert.drops.size() << " dropped, "
        << cert.kept_count() << " kept\n";
  }
  out << "c rule: " << rule_text(cert) << "\n";
  out << "c claim as stated: r >= " << cert.claim << "\n";
}

BigInt check_cube(const Certificate& cert, std::ostream& out, int threads) {
  switch (cert.rule) {
    case RuleKind::trace:
      return conclude_trace(cert, cube_trace_sum(cert, threads), out);
    case RuleKind::trace_uniform:
      return conclude_trace_uniform(cert, count_overlaps(cert, threads), out);
    case RuleKind::trace_product:
      return check_trace_product(cert, out);
    case RuleKind::dominance:
      return conclude_dominance(cert, cube_dominance_max_row_sum(cert), out);
    case RuleKind::order:
      return check_order_rule(cert, nullptr, out);
    case RuleKind::dependence:
      return check_dependence_rule(cert, nullptr, out);
    case RuleKind::inherit:
      break;
    case RuleKind::shifted_trace:  // the parser admits family tasks only
      throw std::logic_error("rule shifted-trace on a cube task");
  }
  // The parser admits neither a family task nor another inherit rule inside.
  const Certificate& inner = *cert.embedded;
  out << "c embedded certificate, lines " << cert.begin_embedded_line << "-"
      << cert.end_embedded_line << ":\n";
  print_summary(inner, out);
  check_cube(inner, out, threads);
  out << "c embedded certificate verified\n";
  return conclude_inherit(cert, out);
}

BigInt check_family(const Certificate& cert, const NamedInput& input, std::ostream& out) {
  const bool order = cert.rule == RuleKind::order;
  const Family family = read_family(opened(input), input.name, cert.dependent_positions,
                                    order && cert.model_class == ModelClass::NK);
  if (family.digest != cert.family_digest)
    fail_check(family.file, 0,
               "SHA-256 of the family file is " + to_hex(family.digest) +
                   ", the certificate (line " + std::to_string(cert.task_line) + ") names " +
                   to_hex(cert.family_digest));
  out << "c family: " << family.file << " (" << family.instance_count
      << " instances, SHA-256 matches)\n";
  if (order) return check_order_rule(cert, &family, out);
  if (cert.rule == RuleKind::dependence) return check_dependence_rule(cert, &family, out);
  const std::vector<Rational> factors = check_steps(cert, family);
  out << "c steps: " << factors.size() << " checked against the family\n";
  const std::vector<Rational> rho = check_chains(cert, factors);
  out << "c pairs: " << rho.size() << " chains checked\n";
  if (cert.rule == RuleKind::trace) return conclude_trace(cert, family_trace_sum(cert, rho), out);
  if (cert.rule == RuleKind::shifted_trace)
    return conclude_shifted_trace(cert, family_shifted_sum(cert, rho), out);
  return conclude_dominance(cert, family_dominance_max_row_sum(cert, rho), out);
}

}  // namespace

int exit_code(Status status) {
  switch (status) {
    case Status::verified:
      return 0;
    case Status::not_verified:
      return 1;
    case Status::malformed:
      return 2;
    case Status::partial:
      return 0;
    case Status::internal:
      return 4;
  }
  return 2;
}

CheckResult check_certificate(const NamedInput& cert_input, const std::optional<NamedInput>& family,
                              std::ostream& out, std::ostream& err, const CheckOptions& options) {
  return guarded_run(cert_input.name, out, err, [&](CheckResult& result) {
    const bool sharded = options.shard.has_value();
    if (is_model_file(opened(cert_input), cert_input.name)) {
      const LayeredHead head = parse_layered_head(*cert_input.stream, cert_input.name);
      if (family)
        fail_malformed(head.file, 0,
                       "a layered head takes no FAMILY argument (given '" + family->name + "')");
      if (sharded) fail_malformed(head.file, 0, "a layered head is not checked in shards");
      out << "c model: " << head.file << "\n";
      result.upper = check_layered_head(head, out).str();
      return Status::verified;
    }
    Digest digest{};
    const Certificate cert = sharded
                                 ? parse_certificate(opened(cert_input), cert_input.name, digest)
                                 : parse_certificate(opened(cert_input), cert_input.name);
    result.claim = cert.claim.str();
    if (cert.is_family && !family)
      fail_malformed(cert.file, 0, "a family certificate needs the FAMILY file argument");
    if (!cert.is_family && family)
      fail_malformed(cert.file, 0,
                     "a cube certificate takes no FAMILY argument (given '" + family->name + "')");
    if (sharded) {
      const auto [k, shards] = *options.shard;
      if (cert.rule != RuleKind::trace_uniform)
        fail_malformed(cert.file, cert.rule_line,
                       "a check in shards is for rule trace-uniform certificates only");
      if (shards < 1 || k < 1 || k > shards)
        fail_malformed(
            cert.file, 0,
            "shard " + std::to_string(k) + "/" + std::to_string(shards) + ": expected 1 <= k <= K");
      print_summary(cert, out);
      const OverlapHistogram histogram = count_overlaps(cert, options.threads, k, shards);
      out << "c shard " << k << "/" << shards << ": " << histogram.pairs() << " of the "
          << BigInt(cert.kept_count()) * (cert.kept_count() - 1) / 2
          << " unordered pairs of kept rows (tile pairs t with t % " << shards << " = " << k - 1
          << ", tiles of " << kTileRows << " kept rows)\n";
      result.partial = partial_text(digest, k, shards, histogram);
      if (histogram.smallest) fail_small_gap(cert, *histogram.smallest);
      return Status::partial;
    }
    print_summary(cert, out);
    const BigInt bound =
        cert.is_family ? check_family(cert, *family, out) : check_cube(cert, out, options.threads);
    result.bound = bound.str();
    return Status::verified;
  });
}

CheckResult check_certificate(const NamedInput& cert_input, const std::optional<NamedInput>& family,
                              std::ostream& out, std::ostream& err) {
  return check_certificate(cert_input, family, out, err, CheckOptions{});
}

namespace {

// One partial result against the certificate and the partials before it: same certificate,
// same shard count, a shard not seen yet, the certificate's weight, the shard's pair count,
// and a smallest-gap pair of rows the certificate keeps.
void check_partial(const Certificate& cert, const Digest& digest,
                   const std::vector<Partial>& partials, std::size_t p,
                   const std::map<std::uint64_t, std::size_t>& seen) {
  const Partial& partial = partials[p];
  const std::uint64_t shards = partials.front().shard_count;
  if (partial.certificate != digest)
    fail_malformed(partial.file, partial.certificate_line,
                   "this partial result is of the certificate with SHA-256 " +
                       to_hex(partial.certificate) + ", not of " + cert.file + " (SHA-256 " +
                       to_hex(digest) + ")");
  if (partial.shard_count != shards)
    fail_malformed(partial.file, partial.shard_line,
                   "shard " + std::to_string(partial.shard_index) + "/" +
                       std::to_string(partial.shard_count) + ", but " + partials.front().file +
                       " (line " + std::to_string(partials.front().shard_line) +
                       ") is a shard of " + std::to_string(shards));
  if (const auto same = seen.find(partial.shard_index); same != seen.end())
    fail_malformed(partial.file, partial.shard_line,
                   "shard " + std::to_string(partial.shard_index) + "/" + std::to_string(shards) +
                       " again: " + partials[same->second].file + " (line " +
                       std::to_string(partials[same->second].shard_line) + ") is the same shard");
  if (partial.weight != cert.weight)
    fail_malformed(partial.file, partial.weight_line,
                   "weight " + std::to_string(partial.weight) +
                       ", but the certificate's weight is " + std::to_string(cert.weight) +
                       " (line " + std::to_string(cert.generated_line) + ")");
  const std::uint64_t expected = shard_pair_count(cert.kept_count(), partial.shard_index, shards);
  if (partial.pairs != expected)
    fail_malformed(partial.file, partial.pairs_line,
                   "pairs " + std::to_string(partial.pairs) + ", but shard " +
                       std::to_string(partial.shard_index) + " of " + std::to_string(shards) +
                       " holds " + std::to_string(expected) + " pairs of the " +
                       std::to_string(cert.kept_count()) + " kept rows");
  if (const auto& pair = partial.histogram.smallest) {
    for (const std::uint64_t row : {pair->first, pair->second}) {
      const bool dropped = std::binary_search(cert.drops.begin(), cert.drops.end(), row);
      if (row > cert.generated_count || dropped)
        fail_malformed(partial.file, partial.small_gap_line,
                       "small-gap names generated row " + std::to_string(row) +
                           ", which the certificate " +
                           (dropped ? std::string("drops") : "does not generate") +
                           " (count=" + std::to_string(cert.generated_count) + ")");
    }
  }
}

}  // namespace

CheckResult merge_partials(const NamedInput& cert_input, const std::vector<NamedInput>& inputs,
                           std::ostream& out, std::ostream& err) {
  return guarded_run(cert_input.name, out, err, [&](CheckResult& result) {
    Digest digest{};
    const Certificate cert = parse_certificate(opened(cert_input), cert_input.name, digest);
    result.claim = cert.claim.str();
    if (cert.rule != RuleKind::trace_uniform)
      fail_malformed(cert.file, cert.rule_line,
                     "only rule trace-uniform certificates are checked in shards and merged");
    if (inputs.empty()) fail_malformed(cert.file, 0, "no partial results to merge");
    std::vector<Partial> partials;
    for (const NamedInput& input : inputs)
      partials.push_back(read_partial(opened(input), input.name));
    const std::uint64_t shards = partials.front().shard_count;
    std::map<std::uint64_t, std::size_t> seen;  // k -> the partial that has it
    OverlapHistogram merged;
    merged.counts.assign(static_cast<std::size_t>(cert.weight) + 1, 0);
    for (std::size_t p = 0; p < partials.size(); ++p) {
      const Partial& partial = partials[p];
      check_partial(cert, digest, partials, p, seen);
      if (const auto& pair = partial.histogram.smallest) {
        if (!merged.smallest || *pair < *merged.smallest) merged.smallest = pair;
      }
      for (std::size_t o = 0; o < merged.counts.size(); ++o)
        merged.counts[o] += partial.histogram.counts[o];
      seen.emplace(partial.shard_index, p);
    }
    if (seen.size() != shards) {
      std::uint64_t missing = 1;
      while (seen.count(missing) != 0) ++missing;
      fail_malformed(partials.front().file, partials.front().shard_line,
                     "shard " + std::to_string(missing) + " of " + std::to_string(shards) +
                         " is missing: " + std::to_string(partials.size()) +
                         " partial result(s) given, every k = 1.." + std::to_string(shards) +
                         " must appear once");
    }
    print_summary(cert, out);
    out << "c merged " << shards << " shards\n";
    const BigInt bound = conclude_trace_uniform(cert, merged, out);
    result.bound = bound.str();
    return Status::verified;
  });
}

NamedInput open_input(const std::string& path, std::ifstream& file) {
  // A directory opens like a file on Linux and then fails with a bare read error.
  std::error_code ignored;
  const std::filesystem::file_type type = std::filesystem::status(path, ignored).type();
  if (type == std::filesystem::file_type::directory) return NamedInput{path, nullptr, true};
  // Opening a FIFO with no writer would block forever.
  if (type != std::filesystem::file_type::regular &&
      type != std::filesystem::file_type::not_found && type != std::filesystem::file_type::none &&
      type != std::filesystem::file_type::unknown)
    return NamedInput{path, nullptr, false, true};
  file.open(path, std::ios::binary);
  return NamedInput{path, file.is_open() ? &file : nullptr};
}

CheckResult check_certificate(const std::string& cert_path,
                              const std::optional<std::string>& family_path, std::ostream& out,
                              std::ostream& err, const CheckOptions& options) {
  std::ifstream cert_file;
  const NamedInput cert = open_input(cert_path, cert_file);
  std::ifstream family_file;
  std::optional<NamedInput> family;
  if (family_path) family = open_input(*family_path, family_file);
  return check_certificate(cert, family, out, err, options);
}

}  // namespace krcheck
