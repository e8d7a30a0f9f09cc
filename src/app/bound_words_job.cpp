// The generated-rows path of the bound pipeline (bound_words_job.hpp).
#include "kernelrank/app/bound_words_job.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <map>

namespace kernelrank {
namespace {

constexpr const char* kPartialFormat = "kernelrank-bound-partial";

// A canonical decimal (no sign, no leading zeros) that fits in 64 bits.
std::uint64_t parse_partial_count(const std::string& text, const std::string& what) {
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

std::string words_progress_label(const GeneratedRows& rows, const Shard& shard) {
  return "pairs of " + std::to_string(rows.count) + " words" +
         (shard.whole() ? "" : " (shard " + shard.str() + ")");
}

// The task and generator as the partial files name them: merging refuses anything else.
nlohmann::json partial_identity(const CertificateTask& task, const GeneratedRows& rows,
                                const std::vector<std::uint64_t>& drops) {
  nlohmann::json drop_list = nlohmann::json::array();
  for (std::uint64_t d : drops) drop_list.push_back(std::to_string(d + 1));
  return {{"task", task_line(task, "cube")},
          {"seed", std::to_string(rows.seed)},
          {"count", std::to_string(rows.count)},
          {"weight", rows.weight},
          {"drops", drop_list}};
}

// "2/5 (~0.4000)", as the CLI's renderings show a rational.
std::string words_exact_with_decimal(const Rational& value) {
  const std::string exact = to_string(value);
  const std::string decimal = to_decimal(value, 4);
  return exact == decimal ? exact : exact + " (~" + decimal + ")";
}

struct WordsRun {
  CertificateTask task;
  GeneratedRows rows;
};

WordsRun words_run(const BoundWordsRequest& request) {
  if (request.model_class != "NK" && request.model_class != "PF")
    throw DomainError("{class} must be NK or PF, not " +
                      ParameterMessage::literal(request.model_class));
  WordsRun run;
  run.task.m = request.m;
  run.task.n = request.n;
  run.task.mode = parse_query_mode(request.mode);
  run.task.positive_features = request.model_class == "PF";
  run.task.position_dependent = request.position_dependent;
  run.rows.m = request.m;
  run.rows.n = request.n;
  run.rows.seed = request.seed;
  run.rows.count = request.words;
  run.rows.weight = request.weight == 0 ? request.m / 2 : request.weight;
  if (request.r && *request.r < 0)
    throw DomainError("{r}: must be in 0.." + std::to_string(LLONG_MAX) + ", not " +
                      std::to_string(*request.r));
  return run;
}

// What the gate accepted, with the answer about r and the certificate file.
BoundWordsReport words_report(const BoundWordsRequest& request, const WordsRun& run,
                              GeneratedBound bound, VerifiedCertificate certificate) {
  BoundWordsReport report;
  report.task = run.task;
  report.bound = std::move(bound);
  report.certificate = std::move(certificate);
  report.r = request.r;
  if (request.r) report.r_ruled_out = Integer(*request.r) < report.certificate.bound();
  if (!request.cert.empty()) {
    report.certificate_message = write_verified_certificate(request.cert, report.certificate);
    report.certificate_path = request.cert;
  }
  return report;
}

BoundWordsReport conclude_words(const BoundWordsRequest& request, const WordsRun& run,
                                std::vector<std::uint64_t> drops, PairCounts counts) {
  GeneratedBound bound = conclude_generated(run.rows, std::move(drops), std::move(counts));
  VerifiedCertificate certificate = verify_certificate(
      CertificateDraft{generated_certificate(run.task, bound), std::nullopt, bound.bound},
      resolve_threads(request.threads));
  return words_report(request, run, std::move(bound), std::move(certificate));
}

BoundWordsReport run_words_collective(const BoundWordsRequest& request, const WordsRun& run) {
  const std::unique_ptr<ShardCollective> collective = request.collective();
  const Shard shard{static_cast<std::uint64_t>(collective->rank()) + 1,
                    static_cast<std::uint64_t>(collective->size())};
  const int threads = resolve_threads(request.threads);
  const std::vector<std::uint64_t> words = generate_words(run.rows);
  std::vector<std::uint64_t> drops = conflict_drops(run.rows, words);
  PairCounts local = count_pairs(run.rows, words, drops, threads, shard,
                                 collective->root() ? words_progress_label(run.rows, shard) : "");
  PairCounts total;
  total.by_intersection = collective->sum_at_root(local.by_intersection);
  // The root concludes; then every rank runs the checker's library on its shard of the
  // certificate, and the root merges the checker's partial results (the gate, distributed).
  GeneratedBound bound;
  std::string text;
  if (collective->root()) {
    bound = conclude_generated(run.rows, std::move(drops), std::move(total));
    text = generated_certificate(run.task, bound);
  }
  text = collective->broadcast(text);
  const std::vector<std::string> partials =
      collective->gather_at_root(checker_shard(text, shard.index, shard.count, threads));
  BoundWordsReport report;
  if (!collective->root()) {
    report.kind = BoundWordsReport::Kind::NonRoot;
    return report;
  }
  VerifiedCertificate certificate = verify_merged_certificate(
      CertificateDraft{std::move(text), std::nullopt, bound.bound}, partials);
  return words_report(request, run, std::move(bound), std::move(certificate));
}

BoundWordsReport run_words_merge(const BoundWordsRequest& request, const WordsRun& run) {
  validate(run.rows);
  const std::vector<std::uint64_t> words = generate_words(run.rows);
  std::vector<std::uint64_t> drops = conflict_drops(run.rows, words);
  const nlohmann::json expected = partial_identity(run.task, run.rows, drops);
  std::map<std::uint64_t, std::string> seen;  // shard index -> file
  std::uint64_t shards = 0;
  PairCounts total;
  for (const std::string& path : request.merge) {
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
    if (!list.is_array() || list.size() != static_cast<std::size_t>(run.rows.weight) + 1)
      throw UsageError(path + ": pairs_by_intersection must list " +
                       std::to_string(run.rows.weight + 1) + " counts");
    for (const auto& c : list) {
      if (!c.is_string()) throw UsageError(path + ": counts are decimal strings");
      counts.by_intersection.push_back(parse_partial_count(c.get<std::string>(), path + ": count"));
    }
    add_counts(total, counts);
  }
  for (std::uint64_t k = 1; k <= shards; ++k)
    if (seen.count(k) == 0)
      throw DomainError("{merge}: shard " + std::to_string(k) + "/" + std::to_string(shards) +
                        " is missing");
  return conclude_words(request, run, std::move(drops), std::move(total));
}

}  // namespace

BoundWordsReport run_bound_words(const BoundWordsRequest& request) {
  const WordsRun run = words_run(request);
  if (!request.merge.empty()) {
    if (!request.shard.empty() || !request.partial.empty() || request.collective)
      throw DomainError("{merge} combines finished shards: drop {shard}, {partial} and {mpi}");
    return run_words_merge(request, run);
  }
  validate(run.rows);
  if (run.task.position_dependent)
    throw DomainError("{words}: generated rows support position-independent maps only");
  if (request.collective) {
    if (!request.shard.empty() || !request.partial.empty())
      throw DomainError("{mpi} shards by rank: drop {shard}/{partial}");
    return run_words_collective(request, run);
  }
  if (request.shard.empty() != request.partial.empty())
    throw DomainError("{shard} k/K and {partial} FILE go together");
  const Shard shard = request.shard.empty() ? Shard{} : parse_shard(request.shard);
  if (!request.partial.empty() && !request.cert.empty())
    throw DomainError("{cert} goes with {merge}, not with {shard}");
  const std::vector<std::uint64_t> words = generate_words(run.rows);
  std::vector<std::uint64_t> drops = conflict_drops(run.rows, words);
  PairCounts counts = count_pairs(run.rows, words, drops, resolve_threads(request.threads), shard,
                                  request.progress ? words_progress_label(run.rows, shard) : "");
  if (request.partial.empty())
    return conclude_words(request, run, std::move(drops), std::move(counts));
  nlohmann::json partial = partial_identity(run.task, run.rows, drops);
  partial["format"] = kPartialFormat;
  partial["version"] = 1;
  partial["shard"] = shard.str();
  nlohmann::json counts_json = nlohmann::json::array();
  for (std::uint64_t c : counts.by_intersection) counts_json.push_back(std::to_string(c));
  partial["pairs_by_intersection"] = counts_json;
  write_file_atomically(request.partial, partial.dump(1) + "\n");
  BoundWordsReport report;
  report.kind = BoundWordsReport::Kind::Partial;
  report.task = run.task;
  report.shard = shard.str();
  report.partial_path = request.partial;
  report.unordered_pairs = counts.pairs();
  return report;
}

nlohmann::json bound_words_json(const BoundWordsReport& report) {
  if (report.kind == BoundWordsReport::Kind::NonRoot) return nullptr;
  if (report.kind == BoundWordsReport::Kind::Partial)
    return {{"shard", report.shard},
            {"partial", report.partial_path},
            {"unordered_pairs", std::to_string(report.unordered_pairs)}};
  const GeneratedBound& bound = report.bound;
  nlohmann::json gaps = nlohmann::json::object();
  for (int x = 0; x <= bound.rows.weight; ++x) {
    const std::uint64_t c = bound.counts.by_intersection[static_cast<std::size_t>(x)];
    if (c != 0) gaps[std::to_string(bound.rows.weight - x)] = std::to_string(2 * c);
  }
  nlohmann::json drops = nlohmann::json::array();
  for (std::uint64_t d : bound.drops) drops.push_back(d + 1);
  // "bound": the checker's, which the gate made sure equals bound.bound.
  nlohmann::json json = {{"m", report.task.m},
                         {"n", report.task.n},
                         {"bound", report.certificate.bound().str()},
                         {"checker_status", report.certificate.checker_status()},
                         {"source", "generated"},
                         {"rule", "trace-uniform"},
                         {"class", report.task.positive_features ? "PF" : "NK"},
                         {"seed", std::to_string(bound.rows.seed)},
                         {"words", std::to_string(bound.rows.count)},
                         {"weight", bound.rows.weight},
                         {"drops", drops},
                         {"kept", std::to_string(bound.kept)},
                         {"unordered_pairs", std::to_string(bound.counts.pairs())},
                         {"gap_histogram", gaps},
                         {"sigma", to_string(bound.sigma)},
                         {"trace_value", to_string(bound.value)},
                         {"trace_decimal", words_exact_with_decimal(bound.value)},
                         {"precision", bound.precision}};
  if (report.r) {
    json["r"] = *report.r;
    json["r_ruled_out"] = report.r_ruled_out;
  }
  if (!report.certificate_path.empty()) json["certificate"] = report.certificate_path;
  return json;
}

}  // namespace kernelrank
