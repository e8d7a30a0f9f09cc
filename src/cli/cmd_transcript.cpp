// `kernelrank transcript`: the finite-precision transcript bound of theory.md L7 for the
// cube T(m,n) or an explicit family (docs/transcript.md), computed by app/transcript.hpp and
// rendered here as text (its JSON form is app/transcript.hpp's).
#include "commands.hpp"

#include "kernelrank/app/transcript.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

// Text output lists at most this many of the independent queries (JSON lists them all).
constexpr int kListedQueries = 16;

struct TranscriptArgs {
  int m = 0;
  int n = 3;
  std::string family;
  std::string method = "auto";
  bool cross_check = false;
  const CLI::Option* m_option = nullptr;
  const CLI::Option* n_option = nullptr;
};

// "1 bit", "5 bits".
std::string count_of(std::uint64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string token_text(const Token& token) {
  return token.width() <= 64 ? token.to_string() : token.to_index_list();
}

std::string values_text(const std::vector<int>& values) {
  std::string text = "{";
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i ? "," : "") + std::to_string(values[i]);
  return text + "}";
}

// "2^5 = 32 <= D, 5 bits" or "3^2 = 9 <= D, log2 in [3, 4]".
std::string independent_text(const IndependentAnswers& answers, const Log2Interval& bits,
                             const std::string& bound_name) {
  std::string text =
      (answers.queries == 1 ? "1 query" : std::to_string(answers.queries) + " queries") + " x " +
      count_of(answers.values, "value") + ": " + std::to_string(answers.values) + "^" +
      std::to_string(answers.queries) + " = " + answers.product.str() + " <= " + bound_name + ", ";
  text += bits.floor == bits.ceil ? count_of(bits.floor, "bit")
                                  : "log2 in [" + std::to_string(bits.floor) + ", " +
                                        std::to_string(bits.ceil) + "] bits";
  return text + " (" + answers.verified + ")";
}

std::string cube_text(const CubeTranscriptResult& r) {
  const std::string task = "T(" + std::to_string(r.m) + "," + std::to_string(r.n) + ")";
  std::string human = "transcript bound (theory.md L7) for the cube " + task + "\n";
  human += "contexts:        " + r.contexts.str() + " (multisets of the " +
           std::to_string(r.n - 1) + " tokens besides the query)\n";
  human += "queries:         " + r.queries.str() + " (every query meets every context)\n";
  human += "answer vectors:  D = " + r.answer_vectors.str() + " (exact, " + r.method +
           (r.cross_checked ? "; brute force and the antichain count agree" : "") + ")\n";
  human += "transcript bits: log2 D in [" + std::to_string(r.bits.floor) + ", " +
           std::to_string(r.bits.ceil) + "]: at least " + count_of(r.bits.ceil, "bit") + "\n";
  human += "independent:     " + independent_text(r.independent, r.independent_bits, "D");
  if (r.independent.block_weight > 0)
    human += "; the queries are " + std::to_string(r.independent.queries) + " disjoint blocks of " +
             count_of(r.independent.block_weight, "coordinate");
  human += "\n";
  return human;
}

std::string family_text(const FamilyTranscriptResult& r, const std::string& path) {
  std::string human = "transcript bound (theory.md L7) for " + path +
                      " (m = " + std::to_string(r.m) + ", n = " + std::to_string(r.n) + ")\n";
  human += "instances:       " + std::to_string(r.instances) + "\n";
  human += "contexts:        " + std::to_string(r.contexts) + "\n";
  human += "queries:         " + std::to_string(r.queries) + "\n";
  human += "pairs:           " + std::to_string(r.pairs) + " distinct (query, context)\n";
  human +=
      std::string("grid:            ") + (r.grid ? "yes: every context meets the same queries\n"
                                                 : "no: contexts meet different sets of queries\n");
  if (r.contexts == 0) {
    human += "transcripts:     D = 0 (no instances: nothing to send)\n";
  } else {
    const std::string clique = std::to_string(r.clique.size()) +
                               " pairwise-conflicting contexts (" + r.clique_source + ")";
    const std::string colouring =
        "a colouring with " + std::to_string(r.transcripts_upper) + " classes";
    if (r.grid)
      human += "transcripts:     D = " + r.answer_vectors.str() +
               " (exact: distinct rows of the grid)\n";
    else if (r.exact)
      human += "transcripts:     D = " + r.answer_vectors.str() + " (exact: " + clique + " and " +
               colouring + ")\n";
    else
      human += "transcripts:     " + r.answer_vectors.str() +
               " <= D <= " + std::to_string(r.transcripts_upper) + " (lower: " + clique +
               "; upper: " + colouring + ")\n";
    human += "transcript bits: log2 " + std::string(r.exact ? "D" : r.answer_vectors.str()) +
             " in [" + std::to_string(r.bits.floor) + ", " + std::to_string(r.bits.ceil) +
             "]: at least " + count_of(r.bits.ceil, "bit") + "\n";
  }
  human += "independent:     " + independent_text(r.independent, r.independent_bits, "D") + "\n";
  const int listed = std::min(r.independent.queries, kListedQueries);
  for (int i = 0; i < listed; ++i)
    human += "  query " + std::to_string(i + 1) + ": " + token_text(r.independent.query_tokens[i]) +
             " answers " + values_text(r.independent.value_sets[i]) + "\n";
  if (r.independent.queries > listed)
    human +=
        "  ... " + std::to_string(r.independent.queries - listed) + " more (--json lists all)\n";

  return human;
}

int run_transcript_command(const TranscriptArgs& args, const GlobalOptions& global) {
  TranscriptRequest request;
  if (args.m_option->count() > 0) request.m = args.m;
  if (args.n_option->count() > 0) request.n = args.n;
  request.family = args.family;
  request.method = args.method;
  request.cross_check = args.cross_check;
  const TranscriptResult result = run_transcript(request);
  emit(global, transcript_json(result),
       result.family ? family_text(*result.family, result.family_path) : cube_text(*result.cube));
  return kExitOk;
}

}  // namespace

void add_transcript_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<TranscriptArgs>();
  CLI::App* cmd = app.add_subcommand(
      "transcript",
      "Transcript bound (L7): answer vectors and bits a finite-alphabet model must send");
  args->m_option = cmd->add_option("--m", args->m, "Token width of the cube T(m,n)");
  args->n_option =
      cmd->add_option("--n", args->n, "Sequence length of the cube")->capture_default_str();
  cmd->add_option("--family", args->family, "Family file instead of the cube");
  cmd->add_option("--method", args->method, "Cube count: auto, brute-force or antichains")
      ->capture_default_str();
  cmd->add_flag("--cross-check", args->cross_check,
                "Cube: run brute force and the antichain count, which must agree");
  run_when_selected(cmd, global, action, args, run_transcript_command);
}

}  // namespace kernelrank::cli
