// `kernelrank bound`: the best certified lower bound on the feature rank of NK
// models solving T(m,n) (theory.md L2-L4), optionally with a certificate.
#include "bound_generated.hpp"
#include "commands.hpp"

#include "kernelrank/app/upper_job.hpp"
#include "option_checks.hpp"
#include "report_output.hpp"

#include "core/progress.hpp"
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/bounds/bound_sources.hpp"
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/errors.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>

namespace kernelrank::cli {
namespace {

constexpr long long kMaxEffort = 1000;  // seeds per randomised construction; bounds a typo's work

struct BoundArgs {
  int m = 24;
  int n = 3;
  long long r = -1;
  std::string code;
  bool only_code = false;
  bool position_dependent = false;
  std::string model_class = "NK";
  std::string mode = "first";
  std::string cert;
  std::string head;  // with --r: write the head that shows r suffices here
  std::uint64_t seed = 1;
  int effort = 1;
  bool no_subset = false;
  bool table = false;
  int m_min = 8;
  int m_max = 64;
  std::string cert_dir;
  // generated rows (bound_generated.hpp)
  std::uint64_t words = 0;
  int weight = 0;  // 0: m/2
  int threads = 0;
  std::string shard;
  std::string partial;
  std::vector<std::string> merge;
  bool mpi = false;
};

CertificateTask certificate_task(const BoundArgs& args, int m) {
  CertificateTask task;
  task.m = m;
  task.n = args.n;
  task.mode = parse_query_mode(args.mode);
  if (args.model_class != "NK" && args.model_class != "PF")
    throw UsageError("--class must be NK or PF, not " + args.model_class);
  task.positive_features = args.model_class == "PF";
  task.position_dependent = args.position_dependent;
  return task;
}

BoundSearchOptions search_options(const BoundArgs& args, int m, bool quiet) {
  BoundSearchOptions options;
  options.m = m;
  options.n = args.n;
  options.code_file = args.code;
  options.seed = args.seed;
  options.effort = args.effort;
  options.subset_search = !args.no_subset;
  if (isatty(STDERR_FILENO) == 1 && !args.table && !quiet)
    options.log = [](const std::string& message) { std::cerr << "  trying " << message << "\n"; };
  return options;
}

std::string gap_summary(const RankBoundResult& bound) {
  const AmplificationTable table(
      bound.n, bound.gap_histogram.empty() ? 0 : bound.gap_histogram.rbegin()->first);
  std::string text;
  for (const auto& [gap, count] : bound.gap_histogram) {
    const auto& amp = table.at(gap);
    std::string split;
    for (int p : amp->parts) split += (split.empty() ? "" : "+") + std::to_string(p);
    text += "    gap " + std::to_string(gap) + ": " + std::to_string(count) + " ordered pairs, R_" +
            std::to_string(bound.n) + "(" + std::to_string(gap) + ") = " + amp->factor.str() +
            " (split " + split + ")\n";
  }
  return text;
}

nlohmann::json bound_json(const BoundSearchResult& result, int m, int n) {
  const RankBoundResult& b = result.bound;
  nlohmann::json gaps = nlohmann::json::object();
  for (const auto& [gap, count] : b.gap_histogram) gaps[std::to_string(gap)] = count;
  nlohmann::json tried = nlohmann::json::array();
  for (const BoundSearchEntry& e : result.tried)
    tried.push_back({{"construction", e.construction},
                     {"pool", e.pool},
                     {"rows", e.rows},
                     {"bound", e.bound.applicable ? nlohmann::json(e.bound.bound.str())
                                                  : nlohmann::json(nullptr)}});
  nlohmann::json j = {{"m", m},
                      {"n", n},
                      {"bound", b.bound.str()},
                      {"rule", to_string(b.rule)},
                      {"construction", result.best.construction},
                      {"rows", b.rows},
                      {"gap_histogram", gaps},
                      {"tried", tried}};
  if (b.rule == BoundRule::Trace) {
    j["trace_value"] = to_string(b.trace_value());
    j["precision"] = b.precision;
  } else {
    j["max_row_sum"] = to_string(b.max_row_sum);
  }
  return j;
}

std::string code_text(const BoundSearchResult& result) {
  const RankBoundResult& b = result.bound;
  std::string human = "construction: " + result.best.construction + ", " + std::to_string(b.rows) +
                      " rows (own token c_i, query q_i = complement of c_i)\n";
  if (b.rule == BoundRule::Trace) {
    human +=
        "rule: trace with column weights: rank > T = sum_j 1/(1 + c_j), c_j = sum_i R(G_ij)^-2\n";
    human += "  T >= " + exact_with_decimal(b.trace_value()) +
             " (terms rounded down to multiples of 2^-" + std::to_string(b.precision) +
             "), so r >= floor(T) + 1 = " + b.bound.str() + "\n";
  } else {
    human += "rule: diagonal dominance: largest row sum of 1/rho = " +
             exact_with_decimal(b.max_row_sum) + " <= 1, so the matrix has full rank " +
             b.bound.str() + "\n";
  }
  human += "  gaps G_ij = <q_i,c_j> - <q_i,c_i> over all ordered pairs:\n" + gap_summary(b);
  human += "constructions tried:\n";
  for (const BoundSearchEntry& e : result.tried)
    human +=
        "  " + e.construction + ": " + std::to_string(e.pool) + " words, " +
        std::to_string(e.rows) + " rows kept, " +
        (e.bound.applicable ? "r >= " + e.bound.bound.str() : "no bound (" + e.bound.reason + ")") +
        "\n";
  return human;
}

// The sources that gave a bound, and the JSON of the winner.
nlohmann::json sourced_json(const SourcedBound& sourced, int m, int n) {
  // The code bound's fields describe the winner only when the code wins.
  const bool code_wins = sourced.best.source == BoundSource::Code;
  nlohmann::json json =
      code_wins ? bound_json(*sourced.code, m, n) : nlohmann::json{{"m", m}, {"n", n}};
  if (sourced.code && !code_wins) json["code"] = bound_json(*sourced.code, m, n);
  if (!code_wins) {
    const BoundSource s = sourced.best.source;
    json["rule"] = s == BoundSource::Product      ? "trace-product"
                   : s == BoundSource::OneRow     ? "trace"
                   : s == BoundSource::Order      ? "order"
                   : s == BoundSource::Dependence ? "dependence"
                                                  : "inherit";
  }
  json["bound"] = sourced.best.certificate.bound().str();  // the checker's number
  json["source"] = to_string(sourced.best.source);
  json["source_detail"] = sourced.best.description;
  if (!sourced.best.blocks.empty()) json["blocks"] = sourced.best.blocks;
  if (sourced.best.source == BoundSource::Product)
    json["hadamard_power"] = sourced.best.hadamard_power;
  nlohmann::json sources = nlohmann::json::array();
  for (const SourcedCandidate& c : sourced.candidates)
    sources.push_back(
        {{"source", to_string(c.source)}, {"bound", c.bound.str()}, {"detail", c.description}});
  json["sources"] = sources;
  return json;
}

// A better candidate the gate refused is a bug in its source, not a reason to stop: the
// user is told on stderr, and the bound is the best the checker accepted.
void warn_refused(const SourcedBound& sourced) {
  for (const RefusedCandidate& r : sourced.refused)
    std::cerr << "kernelrank: warning: the " << to_string(r.source)
              << " source's certificate (r >= " << r.claim.str()
              << ") was refused, the next source is used: " << r.refusal << "\n";
}

// --only-code: the code source's candidate as the winner, through the gate unless it won
// already; false when it gave no bound.
bool keep_code_source_only(SourcedBound& sourced) {
  for (const RefusedCandidate& r : sourced.refused)
    if (r.source == BoundSource::Code) throw InternalError(r.refusal);
  for (SourcedCandidate& c : sourced.candidates)
    if (c.source == BoundSource::Code) {
      certify_candidate(c);
      sourced.best = c;
      std::erase_if(sourced.candidates,
                    [](const SourcedCandidate& d) { return d.source != BoundSource::Code; });
      return true;
    }
  return false;
}

// --r: ruled out by the checked lower bound (exit 0); shown to suffice by a verified layered
// head (exit 1, as "not ruled out" always was); or open between the two (exit 5).
int answer_r(const BoundArgs& args, const Integer& bound, nlohmann::json& json,
             std::string& human) {
  const std::string r = std::to_string(args.r);
  const bool ruled_out = Integer(args.r) < bound;
  json["r"] = args.r;
  json["r_ruled_out"] = ruled_out;
  if (ruled_out) {
    json["answer"] = "ruled_out";
    human += "answer: ruled out. r = " + r + " is ruled out: no " + args.model_class +
             " model with " + r +
             " features solves the task (the checked lower bound r >= " + bound.str() + ")\n";
    if (!args.head.empty()) human += "(no head written: r = " + r + " does not suffice)\n";
    return kExitOk;
  }
  // Layered heads solve the cube task T(m,3), query first, position-independent.
  const std::optional<ModelClass> model_class = parse_model_class(args.model_class);
  std::optional<KnownHead> known;
  if (args.n == 3 && args.mode == "first" && args.code.empty() && model_class)
    known = best_known_head(args.m, *model_class);
  if (known && known->checked.r <= Integer(args.r)) {
    json["answer"] = "suffices";
    json["head_r"] = known->checked.r.str();
    json["head_max_error"] = to_string(known->checked.max_error);
    std::string file = known->file;
    human += "answer: suffices. r = " + r + " features suffice: a layered " +
             to_string(known->head.model_class) + " head with " + known->checked.r.str() +
             " features solves T(" + std::to_string(args.m) + ",3) (exact max error " +
             to_decimal(known->checked.max_error, 12) +
             "; verified now by the exact evaluator and by kernelrank-check in memory)\n";
    if (!args.head.empty()) {
      human += write_verified_head(args.head, known->checked.verified);
      file = args.head;
    } else if (!file.empty()) {
      human += "  the head: " + file + "\n";
    }
    json["head"] = file.empty() ? nlohmann::json(nullptr) : nlohmann::json(file);
    return kExitNegative;
  }
  json["answer"] = "open";
  human += "answer: open. r = " + r + " is not ruled out by this bound";
  if (known)
    human += ", and the best verified head has " + known->checked.r.str() + " features (" +
             (known->file.empty() ? std::string("found now") : known->file) + ")";
  else
    human += ", and no verified layered head is known for this task" +
             std::string(args.n == 3 && args.mode == "first"
                             ? " (try: kernelrank upper --m " + std::to_string(args.m) + ")"
                             : "");
  human += "\n";
  if (known) json["head_r"] = known->checked.r.str();
  return kExitUnknown;
}

int run_single(const BoundArgs& args, const GlobalOptions& global) {
  const CertificateTask task = certificate_task(args, args.m);
  SourcedBound sourced = best_certified_bound(task, search_options(args, args.m, global.quiet));
  if (!args.only_code) warn_refused(sourced);
  if (args.only_code && !keep_code_source_only(sourced)) {
    const std::string reason =
        sourced.code ? "no bound above r >= 1" : "no bound (" + sourced.code_reason + ")";
    emit(global, {{"m", args.m}, {"n", args.n}, {"bound", nullptr}, {"source", "code"}},
         "the code source gives " + reason + " for T(" + std::to_string(args.m) + "," +
             std::to_string(args.n) + ")\n");
    return kExitNegative;
  }
  const Integer& bound = sourced.best.certificate.bound();  // the checker's number
  std::string human = "certified lower bound for T(" + std::to_string(args.m) + "," +
                      std::to_string(args.n) + "), class " + args.model_class +
                      (args.position_dependent ? ", position-dependent maps" : "") +
                      ":\n  r >= " + bound.str() + " (" + to_string(sourced.best.source) + ")\n";
  if (sourced.best.source != BoundSource::Code) human += "  " + sourced.best.description + "\n";
  for (const std::string& block : sourced.best.blocks) human += "    block " + block + "\n";
  human += "sources:\n";
  for (const SourcedCandidate& c : sourced.candidates)
    human += "  " + to_string(c.source) + ": r >= " + c.bound.str() + "\n";
  if (!sourced.code) human += "  code: no bound (" + sourced.code_reason + ")\n";
  if (sourced.code && sourced.best.source == BoundSource::Code) human += code_text(*sourced.code);
  nlohmann::json json = sourced_json(sourced, args.m, args.n);
  json["class"] = args.model_class;
  json["position_dependent"] = args.position_dependent;
  int exit_code = kExitOk;
  if (args.r >= 0) exit_code = answer_r(args, bound, json, human);
  if (!args.cert.empty()) {
    human += write_verified_certificate(args.cert, sourced.best.certificate);
    json["certificate"] = args.cert;
  }
  emit(global, json, human);
  return exit_code;
}

int run_table(const BoundArgs& args, const GlobalOptions& global, const CLI::App& command) {
  for (const char* single : {"--m", "--r", "--cert"})
    if (command.count(single) > 0)
      throw UsageError(std::string(single) +
                       " does not apply to --table (use --m-min/--m-max and --cert-dir)");
  if (args.m_min < 1 || args.m_max < args.m_min || args.m_max > 4096)
    throw UsageError("--m-min/--m-max must satisfy 1 <= m-min <= m-max <= 4096");
  nlohmann::json rows = nlohmann::json::array();
  std::string human = "  m  |  r >=  | source                   | rows  | construction\n";
  Progress progress("bound table", static_cast<std::uint64_t>(args.m_max - args.m_min + 1));
  for (int m = args.m_min; m <= args.m_max; ++m) {
    const SourcedBound sourced =
        best_certified_bound(certificate_task(args, m), search_options(args, m, global.quiet));
    warn_refused(sourced);
    const bool code_wins = sourced.best.source == BoundSource::Code;
    const std::string source = code_wins ? "code, " + to_string(sourced.code->bound.rule) + " rule"
                                         : to_string(sourced.best.source);
    char line[512];
    std::snprintf(
        line, sizeof line, " %3d | %6s | %-24s | %5s | %s\n", m,
        sourced.best.certificate.bound().str().c_str(), source.c_str(),
        code_wins ? std::to_string(sourced.code->bound.rows).c_str() : "-",
        code_wins ? sourced.code->best.construction.c_str() : sourced.best.description.c_str());
    human += line;
    nlohmann::json row = sourced_json(sourced, m, args.n);
    row.erase("tried");
    if (!args.cert_dir.empty()) {
      const std::string path =
          args.cert_dir + "/bound-m" + std::to_string(m) + "-n" + std::to_string(args.n) + ".cert";
      (void)write_verified_certificate(path, sourced.best.certificate);
      row["certificate"] = path;
    }
    rows.push_back(row);
    progress.update(static_cast<std::uint64_t>(m - args.m_min + 1));
  }
  progress.finish();
  emit(global, {{"n", args.n}, {"table", rows}}, human);
  return kExitOk;
}

int run_generated_rows(const BoundArgs& args, const GlobalOptions& global,
                       const CLI::App& command) {
  for (const char* other :
       {"--code", "--effort", "--no-subset", "--table", "--m-min", "--m-max", "--cert-dir"})
    if (command.count(other) > 0)
      throw UsageError(std::string(other) + " does not apply to --words/--merge");
  GeneratedArgs generated;
  generated.task = certificate_task(args, args.m);
  generated.rows.m = args.m;
  generated.rows.n = args.n;
  generated.rows.seed = args.seed;
  generated.rows.count = args.words;
  generated.rows.weight = args.weight == 0 ? args.m / 2 : args.weight;
  generated.threads = args.threads;
  generated.shard = args.shard;
  generated.partial = args.partial;
  generated.merge = args.merge;
  generated.mpi = args.mpi;
  generated.cert = args.cert;
  generated.r = args.r;
  if (!args.merge.empty()) {
    if (!args.shard.empty() || !args.partial.empty() || args.mpi)
      throw UsageError("--merge combines finished shards: drop --shard, --partial and --mpi");
    return run_generated_merge(generated, global);
  }
  return run_generated(generated, global);
}

}  // namespace

void add_bound_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<BoundArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bound", "Best certified lower bound on the feature rank r for T(m,n), with a certificate");
  cmd->add_option("--m", args->m, "Token width")->capture_default_str();
  cmd->add_option("--n", args->n, "Sequence length (>= 3)")->capture_default_str();
  // -1 stands for "not given", so a given -1 must be refused, not read as absent.
  cmd->add_option("--r", args->r,
                  "Say whether this number of features is ruled out (exit 1 if not)")
      ->check(in_range(0, LLONG_MAX).description(""));
  cmd->add_option("--code", args->code, "Use only this code (own tokens) and its subsets");
  cmd->add_flag("--only-code", args->only_code,
                "Certify with the code source alone (its rows and complement queries), not the "
                "other arguments: e.g. for the weight-w slice, with --code of weight-w words");
  cmd->add_flag("--position-dependent", args->position_dependent,
                "Bound models with position-dependent maps (same number; see docs/bounds.md)");
  cmd->add_option("--class", args->model_class, "Model class in the certificate: NK or PF")
      ->capture_default_str();
  cmd->add_option("--mode", args->mode, "Query mode of the task")->capture_default_str();
  cmd->add_option("--cert", args->cert, "Write the certificate to this file");
  cmd->add_option("--head", args->head,
                  "With --r: write the verified layered head that shows r suffices here");
  cmd->add_option("--seed", args->seed, "First seed of the randomised constructions")
      ->capture_default_str();
  cmd->add_option("--effort", args->effort, "Seeds per randomised construction")
      ->check(in_range(0, kMaxEffort))
      ->capture_default_str();
  cmd->add_flag("--no-subset", args->no_subset,
                "Certify whole codes, without the row-subset search");
  cmd->add_flag("--table", args->table, "Print the best bound for every m in --m-min..--m-max");
  cmd->add_option("--m-min", args->m_min, "First m of the table")->capture_default_str();
  cmd->add_option("--m-max", args->m_max, "Last m of the table")->capture_default_str();
  cmd->add_option("--cert-dir", args->cert_dir, "With --table: write one certificate per m here");
  cmd->add_option(
      "--words", args->words,
      "Generated rows: this many random constant-weight words (SplitMix64 from --seed)");
  cmd->add_option("--weight", args->weight, "With --words: the words' weight (default m/2)");
  cmd->add_option("--threads", args->threads, "With --words: worker threads (0 = all)")
      ->capture_default_str();
  cmd->add_option("--shard", args->shard,
                  "With --words: count only shard k/K of the pairs (with --partial)");
  cmd->add_option("--partial", args->partial, "With --shard: write this shard's exact counts here");
  cmd->add_option("--merge", args->merge, "With --words: merge the partial files of all K shards")
      ->expected(1, -1);
  cmd->add_flag("--mpi", args->mpi,
                "With --words, under mpirun: one shard per rank, results at rank 0");
  cmd->callback([args, cmd, &global, &action] {
    action = [args, cmd, &global] {
      if (cmd->count("--words") > 0) return run_generated_rows(*args, global, *cmd);
      for (const char* generated_only :
           {"--weight", "--threads", "--shard", "--partial", "--merge", "--mpi"})
        if (cmd->count(generated_only) > 0)
          throw UsageError(std::string(generated_only) +
                           " applies to generated rows only (add --words N)");
      return args->table ? run_table(*args, global, *cmd) : run_single(*args, global);
    };
  });
}

}  // namespace kernelrank::cli
