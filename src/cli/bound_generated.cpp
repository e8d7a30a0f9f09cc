// The generated-rows paths of `kernelrank bound`; see bound_generated.hpp.
#include "bound_generated.hpp"

#include "mpi_runtime.hpp"
#include "report_output.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <map>

namespace kernelrank::cli {
namespace {

constexpr const char* kPartialFormat = "kernelrank-bound-partial";

// A canonical decimal (no sign, no leading zeros) that fits in 64 bits.
std::uint64_t parse_count(const std::string& text, const std::string& what) {
  const bool digits = !text.empty() && text.size() <= 20 &&
                      text.find_first_not_of("0123456789") == std::string::npos &&
                      (text == "0" || text[0] != '0');
  if (!digits)
    throw UsageError(what + " '" + text.substr(0, 40) + "' is not a canonical decimal integer");
  std::uint64_t value = 0;
  for (char c : text) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (value > (~std::uint64_t{0} - d) / 10)
      throw UsageError(what + " '" + text + "' does not fit in 64 bits");
    value = value * 10 + d;
  }
  return value;
}

std::string progress_label(const GeneratedArgs& args, const Shard& shard) {
  return "pairs of " + std::to_string(args.rows.count) + " words" +
         (shard.whole() ? "" : " (shard " + shard.str() + ")");
}

// The task and generator as the partial files name them: merging refuses anything else.
nlohmann::json identity(const GeneratedArgs& args, const std::vector<std::uint64_t>& drops) {
  nlohmann::json drop_list = nlohmann::json::array();
  for (std::uint64_t d : drops) drop_list.push_back(std::to_string(d + 1));
  return {{"task", task_line(args.task, "cube")},
          {"seed", std::to_string(args.rows.seed)},
          {"count", std::to_string(args.rows.count)},
          {"weight", args.rows.weight},
          {"drops", drop_list}};
}

// `certified`: the checker's bound, which the gate made sure equals bound.bound.
nlohmann::json report_json(const GeneratedArgs& args, const GeneratedBound& bound,
                           const Integer& certified) {
  nlohmann::json gaps = nlohmann::json::object();
  for (int x = 0; x <= bound.rows.weight; ++x) {
    const std::uint64_t c = bound.counts.by_intersection[static_cast<std::size_t>(x)];
    if (c != 0) gaps[std::to_string(bound.rows.weight - x)] = std::to_string(2 * c);
  }
  nlohmann::json drops = nlohmann::json::array();
  for (std::uint64_t d : bound.drops) drops.push_back(d + 1);
  return {{"m", args.task.m},
          {"n", args.task.n},
          {"bound", certified.str()},
          {"source", "generated"},
          {"rule", "trace-uniform"},
          {"class", args.task.positive_features ? "PF" : "NK"},
          {"seed", std::to_string(bound.rows.seed)},
          {"words", std::to_string(bound.rows.count)},
          {"weight", bound.rows.weight},
          {"drops", drops},
          {"kept", std::to_string(bound.kept)},
          {"unordered_pairs", std::to_string(bound.counts.pairs())},
          {"gap_histogram", gaps},
          {"sigma", to_string(bound.sigma)},
          {"trace_value", to_string(bound.value)},
          {"trace_decimal", exact_with_decimal(bound.value)},
          {"precision", bound.precision}};
}

std::string report_text(const GeneratedArgs& args, const GeneratedBound& bound,
                        const Integer& certified) {
  const GeneratedRows& rows = bound.rows;
  std::string text = "certified lower bound for T(" + std::to_string(args.task.m) + "," +
                     std::to_string(args.task.n) + "), class " +
                     (args.task.positive_features ? "PF" : "NK") + ":\n  r >= " + certified.str() +
                     " (generated rows)\n";
  text += "rows: " + std::to_string(rows.count) + " random weight-" + std::to_string(rows.weight) +
          " words (SplitMix64, seed " + std::to_string(rows.seed) + "), complement queries; " +
          std::to_string(bound.drops.size()) + " dropped for a gap below 2, " +
          std::to_string(bound.kept) + " kept, " + std::to_string(bound.counts.pairs()) +
          " unordered pairs\n";
  text +=
      "rule: trace with uniform weights: rank > T = K^2 / (K + Sigma), Sigma = sum over ordered "
      "pairs of "
      "R_" +
      std::to_string(args.task.n) + "(G_ij)^-2\n";
  text += "  Sigma = " + to_decimal(bound.sigma, 6) + ", T = " + to_decimal(bound.value, 6) +
          ", so r >= floor(T) + 1 = " + certified.str() + "\n";
  text += "  gaps G_ij = " + std::to_string(rows.weight) + " - |c_i AND c_j| over ordered pairs:\n";
  const AmplificationTable table(rows.n, rows.weight);
  for (int x = rows.weight; x >= 0; --x) {
    const std::uint64_t c = bound.counts.by_intersection[static_cast<std::size_t>(x)];
    if (c == 0) continue;
    const int gap = rows.weight - x;
    text += "    gap " + std::to_string(gap) + ": " + std::to_string(2 * c) +
            " pairs, R = " + table.at(gap)->factor.str() + "\n";
  }
  return text;
}

// Reports and writes what the gate accepted; every "r >=" shown is the checker's number.
int finish(const GeneratedArgs& args, const GlobalOptions& global, const GeneratedBound& bound,
           const VerifiedCertificate& certificate) {
  const Integer& certified = certificate.bound();
  nlohmann::json json = report_json(args, bound, certified);
  std::string human = report_text(args, bound, certified);
  int exit_code = kExitOk;
  if (args.r >= 0) {
    const bool ruled_out = Integer(args.r) < certified;
    json["r"] = args.r;
    json["r_ruled_out"] = ruled_out;
    human += ruled_out ? "r = " + std::to_string(args.r) + " is ruled out\n"
                       : "r = " + std::to_string(args.r) + " is not ruled out by this bound\n";
    if (!ruled_out) exit_code = kExitNegative;
  }
  if (!args.cert.empty()) {
    (void)write_verified_certificate(args.cert, certificate);
    human += "certificate written to " + args.cert + " (verified by the checker's library)\n";
    json["certificate"] = args.cert;
  }
  emit(global, json, human);
  return exit_code;
}

int conclude_and_finish(const GeneratedArgs& args, const GlobalOptions& global,
                        std::vector<std::uint64_t> drops, PairCounts counts) {
  const GeneratedBound bound = conclude_generated(args.rows, std::move(drops), std::move(counts));
  const VerifiedCertificate certificate = verify_certificate(
      CertificateDraft{generated_certificate(args.task, bound), std::nullopt, bound.bound},
      resolve_threads(args.threads));
  return finish(args, global, bound, certificate);
}

int run_mpi(const GeneratedArgs& args, const GlobalOptions& global) {
  MpiSession mpi;
  const Shard shard{static_cast<std::uint64_t>(mpi.rank()) + 1,
                    static_cast<std::uint64_t>(mpi.size())};
  const std::vector<std::uint64_t> words = generate_words(args.rows);
  std::vector<std::uint64_t> drops = conflict_drops(args.rows, words);
  PairCounts local = count_pairs(args.rows, words, drops, resolve_threads(args.threads), shard,
                                 mpi.root() ? progress_label(args, shard) : "");
  PairCounts total;
  total.by_intersection = mpi.sum_at_root(local.by_intersection);
  // The root concludes; then every rank runs the checker's library on its shard of the
  // certificate, and the root merges the checker's partial results (the gate, distributed).
  GeneratedBound bound;
  std::string text;
  if (mpi.root()) {
    bound = conclude_generated(args.rows, std::move(drops), std::move(total));
    text = generated_certificate(args.task, bound);
  }
  text = mpi.broadcast(text);
  const std::vector<std::string> partials = mpi.gather_at_root(
      checker_shard(text, shard.index, shard.count, resolve_threads(args.threads)));
  if (!mpi.root()) return kExitOk;
  const VerifiedCertificate certificate = verify_merged_certificate(
      CertificateDraft{std::move(text), std::nullopt, bound.bound}, partials);
  return finish(args, global, bound, certificate);
}

}  // namespace

int run_generated(const GeneratedArgs& args, const GlobalOptions& global) {
  validate(args.rows);
  if (args.task.position_dependent)
    throw UsageError("--words: generated rows support position-independent maps only");
  if (args.mpi) {
    if (!args.shard.empty() || !args.partial.empty())
      throw UsageError("--mpi shards by rank: drop --shard/--partial");
    return run_mpi(args, global);
  }
  if (args.shard.empty() != args.partial.empty())
    throw UsageError("--shard k/K and --partial FILE go together");
  const Shard shard = args.shard.empty() ? Shard{} : parse_shard(args.shard);
  const std::vector<std::uint64_t> words = generate_words(args.rows);
  std::vector<std::uint64_t> drops = conflict_drops(args.rows, words);
  PairCounts counts = count_pairs(args.rows, words, drops, resolve_threads(args.threads), shard,
                                  global.quiet ? "" : progress_label(args, shard));
  if (args.partial.empty())
    return conclude_and_finish(args, global, std::move(drops), std::move(counts));
  if (!args.cert.empty()) throw UsageError("--cert goes with --merge, not with --shard");
  nlohmann::json partial = identity(args, drops);
  partial["format"] = kPartialFormat;
  partial["version"] = 1;
  partial["shard"] = shard.str();
  nlohmann::json counts_json = nlohmann::json::array();
  for (std::uint64_t c : counts.by_intersection) counts_json.push_back(std::to_string(c));
  partial["pairs_by_intersection"] = counts_json;
  write_file_atomically(args.partial, partial.dump(1) + "\n");
  emit(global,
       {{"shard", shard.str()},
        {"partial", args.partial},
        {"unordered_pairs", std::to_string(counts.pairs())}},
       "shard " + shard.str() + ": " + std::to_string(counts.pairs()) +
           " unordered pairs counted, written to " + args.partial + "\n");
  return kExitOk;
}

int run_generated_merge(const GeneratedArgs& args, const GlobalOptions& global) {
  validate(args.rows);
  const std::vector<std::uint64_t> words = generate_words(args.rows);
  std::vector<std::uint64_t> drops = conflict_drops(args.rows, words);
  const nlohmann::json expected = identity(args, drops);
  std::map<std::uint64_t, std::string> seen;  // shard index -> file
  std::uint64_t shards = 0;
  PairCounts total;
  for (const std::string& path : args.merge) {
    nlohmann::json part;
    try {
      part = nlohmann::json::parse(read_file_checked(path));
    } catch (const nlohmann::json::exception& e) {
      throw UsageError(path + ": not a partial result (" + std::string(e.what()) + ")");
    }
    if (!part.is_object() || part.value("format", "") != kPartialFormat ||
        part.value("version", 0) != 1)
      throw UsageError(path + ": not a " + std::string(kPartialFormat) + " version 1 file");
    for (const auto& [key, value] : expected.items())
      if (!part.contains(key) || part[key] != value)
        throw UsageError(path + ": field '" + key +
                         "' differs from this run's (another task, generator or drops)");
    const Shard shard =
        parse_shard(part.value("shard", ""), ParameterMessage::literal(path) + ": shard");
    if (shards == 0) shards = shard.count;
    if (shard.count != shards)
      throw UsageError(path + ": shard " + shard.str() + " is of " + std::to_string(shard.count) +
                       " shards, the others of " + std::to_string(shards));
    if (!seen.emplace(shard.index, path).second)
      throw UsageError(path + ": shard " + shard.str() + " also given as " + seen[shard.index]);
    PairCounts counts;
    const auto& list = part.at("pairs_by_intersection");
    if (!list.is_array() || list.size() != static_cast<std::size_t>(args.rows.weight) + 1)
      throw UsageError(path + ": pairs_by_intersection must list " +
                       std::to_string(args.rows.weight + 1) + " counts");
    for (const auto& c : list) {
      if (!c.is_string()) throw UsageError(path + ": counts are decimal strings");
      counts.by_intersection.push_back(parse_count(c.get<std::string>(), path + ": count"));
    }
    add_counts(total, counts);
  }
  if (args.merge.empty()) throw UsageError("--merge needs the partial files of every shard");
  for (std::uint64_t k = 1; k <= shards; ++k)
    if (seen.count(k) == 0)
      throw UsageError("--merge: shard " + std::to_string(k) + "/" + std::to_string(shards) +
                       " is missing");
  return conclude_and_finish(args, global, std::move(drops), std::move(total));
}

}  // namespace kernelrank::cli
