// The rendering of `kernelrank bound --words`; see cmd_bound_words.hpp.
#include "cmd_bound_words.hpp"

#include "family_output.hpp"
#include "mpi_runtime.hpp"
#include "report_output.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"

namespace kernelrank::cli {
namespace {

// Every "r >=" shown is the checker's number (report.certificate.bound()).
std::string words_text(const BoundWordsReport& report) {
  const GeneratedBound& bound = report.bound;
  const GeneratedRows& rows = bound.rows;
  const std::string certified = report.certificate.bound().str();
  std::string text = "certified lower bound for T(" + std::to_string(report.task.m) + "," +
                     std::to_string(report.task.n) + "), class " +
                     (report.task.positive_features ? "PF" : "NK") + ":\n  r >= " + certified +
                     " (generated rows)\n";
  text += checker_status_line(report.certificate, "  ");
  text += "rows: " + std::to_string(rows.count) + " random weight-" + std::to_string(rows.weight) +
          " words (SplitMix64, seed " + std::to_string(rows.seed) + "), complement queries; " +
          std::to_string(bound.drops.size()) + " dropped for a gap below 2, " +
          std::to_string(bound.kept) + " kept, " + std::to_string(bound.counts.pairs()) +
          " unordered pairs\n";
  text +=
      "rule: trace with uniform weights: rank > T = K^2 / (K + Sigma), Sigma = sum over ordered "
      "pairs of "
      "R_" +
      std::to_string(report.task.n) + "(G_ij)^-2\n";
  text += "  Sigma = " + to_decimal(bound.sigma, 6) + ", T = " + to_decimal(bound.value, 6) +
          ", so r >= floor(T) + 1 = " + certified + "\n";
  text += "  gaps G_ij = " + std::to_string(rows.weight) + " - |c_i AND c_j| over ordered pairs:\n";
  const AmplificationTable table(rows.n, rows.weight);
  for (int x = rows.weight; x >= 0; --x) {
    const std::uint64_t c = bound.counts.by_intersection[static_cast<std::size_t>(x)];
    if (c == 0) continue;
    const int gap = rows.weight - x;
    text += "    gap " + std::to_string(gap) + ": " + std::to_string(2 * c) +
            " pairs, R = " + table.at(gap)->factor.str() + "\n";
  }
  if (report.r) {
    const std::string r = std::to_string(*report.r);
    text += report.r_ruled_out ? "r = " + r + " is ruled out\n"
                               : "r = " + r + " is not ruled out by this bound\n";
  }
  if (!report.certificate_path.empty())
    text += "certificate written to " + report.certificate_path +
            " (verified by the checker's library)\n";
  return text;
}

}  // namespace

int run_bound_words_command(BoundWordsRequest request, bool mpi, const GlobalOptions& global) {
  if (mpi) request.collective = [] { return std::make_unique<MpiSession>(); };
  request.progress = !global.quiet;
  const BoundWordsReport report = run_bound_words(request);
  switch (report.kind) {
    case BoundWordsReport::Kind::NonRoot:
      return kExitOk;
    case BoundWordsReport::Kind::Partial:
      emit(global, bound_words_json(report),
           "shard " + report.shard + ": " + std::to_string(report.unordered_pairs) +
               " unordered pairs counted, written to " + report.partial_path + "\n");
      return kExitOk;
    default:
      emit(global, bound_words_json(report), words_text(report));
      return report.r && !report.r_ruled_out ? kExitNegative : kExitOk;
  }
}

}  // namespace kernelrank::cli
