// `kernelrank bound`: the best certified lower bound on the feature rank of NK
// models solving T(m,n) (theory.md L2-L4), optionally with a certificate.
#include "cmd_bound_words.hpp"
#include "commands.hpp"
#include "family_output.hpp"

#include "kernelrank/app/bound_job.hpp"
#include "option_checks.hpp"
#include "report_output.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>

namespace kernelrank::cli {
namespace {

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
  long long effort = 1;
  bool no_subset = false;
  bool table = false;
  int m_min = 8;
  int m_max = 64;
  std::string cert_dir;
  // generated rows (cmd_bound_words.hpp)
  std::uint64_t words = 0;
  int weight = 0;  // 0: m/2
  int threads = 0;
  std::string shard;
  std::string partial;
  std::vector<std::string> merge;
  bool mpi = false;
};

BoundRequest bound_request(const BoundArgs& args, bool quiet) {
  BoundRequest request;
  request.m = args.m;
  request.n = args.n;
  if (args.r >= 0) request.r = args.r;
  request.code = args.code;
  request.only_code = args.only_code;
  request.position_dependent = args.position_dependent;
  request.model_class = args.model_class;
  request.mode = args.mode;
  request.seed = args.seed;
  request.effort = args.effort;
  request.subset = !args.no_subset;
  request.cert = args.cert;
  request.head = args.head;
  request.m_min = args.m_min;
  request.m_max = args.m_max;
  request.cert_dir = args.cert_dir;
  if (isatty(STDERR_FILENO) == 1 && !args.table && !quiet)
    request.log = [](const std::string& message) { std::cerr << "  trying " << message << "\n"; };
  return request;
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

// A better candidate the gate refused is a bug in its source, not a reason to stop: the
// user is told on stderr, and the bound is the best the checker accepted.
void warn_refused(const SourcedBound& sourced) {
  for (const RefusedCandidate& r : sourced.refused)
    std::cerr << "kernelrank: warning: the " << to_string(r.source)
              << " source's certificate (r >= " << r.claim.str()
              << ") was refused, the next source is used: " << r.refusal << "\n";
}

// The answer about --r: ruled out (exit 0); suffices (exit 1, as "not ruled out" always was);
// or open (exit 5).
int answer_text(const BoundReport& report, std::string& human) {
  const BoundRAnswer& a = *report.r;
  const std::string r = std::to_string(a.r);
  if (a.answer == BoundAnswer::RuledOut) {
    human += "answer: ruled out. r = " + r + " is ruled out: no " + report.model_class +
             " model with " + r +
             " features solves the task (the checked lower bound r >= " + report.bound().str() +
             ")\n";
    if (a.head_asked) human += "(no head written: r = " + r + " does not suffice)\n";
    return kExitOk;
  }
  if (a.answer == BoundAnswer::Suffices) {
    const KnownHead& known = *a.known;
    human += "answer: suffices. r = " + r + " features suffice: a layered " +
             to_string(known.head.model_class) + " head with " + known.checked.r.str() +
             " features solves T(" + std::to_string(report.m) + ",3) (exact max error " +
             to_decimal(known.checked.max_error, 12) +
             "; verified now by the exact evaluator and by kernelrank-check in memory)\n";
    if (!a.head_message.empty())
      human += a.head_message;
    else if (!a.head_file.empty())
      human += "  the head: " + a.head_file + "\n";
    return kExitNegative;
  }
  human += "answer: open. r = " + r + " is not ruled out by this bound";
  if (a.known)
    human += ", and the best verified head has " + a.known->checked.r.str() + " features (" +
             (a.known->file.empty() ? std::string("found now") : a.known->file) + ")";
  else
    human += ", and no verified layered head is known for this task" +
             std::string(a.head_search_applies
                             ? " (try: kernelrank upper --m " + std::to_string(report.m) + ")"
                             : "");
  human += "\n";
  return kExitUnknown;
}

int run_single(const BoundArgs& args, const GlobalOptions& global) {
  const BoundReport report = run_bound(bound_request(args, global.quiet));
  const SourcedBound& sourced = report.sourced;
  if (!report.only_code) warn_refused(sourced);
  if (report.code_gave_none) {
    const std::string reason =
        sourced.code ? "no bound above r >= 1" : "no bound (" + sourced.code_reason + ")";
    emit(global, bound_json(report),
         "the code source gives " + reason + " for T(" + std::to_string(report.m) + "," +
             std::to_string(report.n) + ")\n");
    return kExitNegative;
  }
  std::string human = "certified lower bound for T(" + std::to_string(report.m) + "," +
                      std::to_string(report.n) + "), class " + report.model_class +
                      (report.position_dependent ? ", position-dependent maps" : "") +
                      ":\n  r >= " + report.bound().str() + " (" + to_string(sourced.best.source) +
                      ")\n";
  human += checker_status_line(sourced.best.certificate, "  ");
  if (sourced.best.source != BoundSource::Code) human += "  " + sourced.best.description + "\n";
  for (const std::string& block : sourced.best.blocks) human += "    block " + block + "\n";
  human += "sources:\n";
  for (const SourcedCandidate& c : sourced.candidates)
    human += "  " + to_string(c.source) + ": r >= " + c.bound.str() +
             (candidate_checked(c) ? " (checked: this certificate passed the checker)\n"
                                   : " (producer's claim, not checked)\n");
  if (!sourced.code) human += "  code: no bound (" + sourced.code_reason + ")\n";
  if (report.code_wins()) human += code_text(*sourced.code);
  const int exit_code = report.r ? answer_text(report, human) : kExitOk;
  human += report.certificate_message;
  emit(global, bound_json(report), human);
  return exit_code;
}

int run_table(const BoundArgs& args, const GlobalOptions& global, const CLI::App& command) {
  for (const char* single : {"--m", "--r", "--cert"})
    if (command.count(single) > 0)
      throw UsageError(std::string(single) +
                       " does not apply to --table (use --m-min/--m-max and --cert-dir)");
  const BoundTable table = run_bound_table(bound_request(args, global.quiet));
  std::string human = "  m  |  r >=  | source                   | rows  | construction\n";
  for (const BoundReport& row : table.rows) {
    warn_refused(row.sourced);
    const SourcedBound& sourced = row.sourced;
    const bool code_wins = row.code_wins();
    const std::string source =
        code_wins ? "code, " + row.rule + " rule" : to_string(sourced.best.source);
    char line[512];
    std::snprintf(
        line, sizeof line, " %3d | %6s | %-24s | %5s | %s\n", row.m, row.bound().str().c_str(),
        source.c_str(), code_wins ? std::to_string(sourced.code->bound.rows).c_str() : "-",
        code_wins ? sourced.code->best.construction.c_str() : sourced.best.description.c_str());
    human += line;
  }
  emit(global, bound_table_json(table), human);
  return kExitOk;
}

int run_generated_rows(const BoundArgs& args, const GlobalOptions& global,
                       const CLI::App& command) {
  for (const char* other :
       {"--code", "--effort", "--no-subset", "--table", "--m-min", "--m-max", "--cert-dir"})
    if (command.count(other) > 0)
      throw UsageError(std::string(other) + " does not apply to --words/--merge");
  BoundWordsRequest request;
  request.m = args.m;
  request.n = args.n;
  request.model_class = args.model_class;
  request.mode = args.mode;
  request.position_dependent = args.position_dependent;
  request.seed = args.seed;
  request.words = args.words;
  request.weight = args.weight;
  request.threads = args.threads;
  request.shard = args.shard;
  request.partial = args.partial;
  request.merge = args.merge;
  request.cert = args.cert;
  if (args.r >= 0) request.r = args.r;
  return run_bound_words_command(std::move(request), args.mpi, global);
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
  cmd->add_option("--effort", args->effort,
                  "Seeds per randomised construction (0.." + std::to_string(kMaxBoundEffort) + ")")
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
