// See bound_sources.hpp.
#include "kernelrank/bounds/bound_sources.hpp"

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/product_bound.hpp"
#include "kernelrank/bounds/refutation_certificate.hpp"
#include "kernelrank/core/errors.hpp"

#include <algorithm>

namespace kernelrank {

std::string to_string(BoundSource source) {
  switch (source) {
    case BoundSource::Code:
      return "code";
    case BoundSource::Order:
      return "order argument";
    case BoundSource::InheritedOrder:
      return "inherited order argument";
    case BoundSource::Dependence:
      return "linear dependence";
    case BoundSource::OneRow:
      return "one row";
    case BoundSource::Product:
      return "product of codes";
  }
  return "?";
}

namespace {

// A candidate before the checker has seen its certificate text.
struct Draft {
  SourcedCandidate candidate;
  std::string text;
};

// The order argument at m' = min(m, 5): rank 2 at m' = 5 (r >= 3), rank 1 at m' = 4 (r >= 2).
// It needs n = 3 as computed here and position-independent maps.
std::optional<Draft> order_candidate(const CertificateTask& task) {
  if (task.n != 3 || task.position_dependent || task.m < 4) return std::nullopt;
  const int base_m = std::min(task.m, 5);
  const int rank = base_m >= 5 ? 2 : 1;
  RankTask base = cube_rank_task(base_m, 3);
  base.mode = task.mode;
  const SearchClass search_class = task.positive_features ? SearchClass::PF : SearchClass::NK;
  const OrderArgument order = order_argument(base, rank, search_class);
  if (!order.refuted) return std::nullopt;
  std::string why_not;
  const std::optional<std::string> text =
      order_certificate(base, search_class, order, rank, "", why_not);
  if (!text)
    throw InternalError("the order argument on T(" + std::to_string(base_m) +
                        ",3) has no certificate: " + why_not);
  Draft d;
  SourcedCandidate& c = d.candidate;
  c.bound = rank + 1;
  const std::string core =
      std::to_string(order.core.size()) + "-pair core of T(" + std::to_string(base_m) + ",3)";
  if (base_m == task.m) {
    c.source = BoundSource::Order;
    d.text = *text;
    c.description = "order argument: a " + core + " refutes rank " + std::to_string(rank);
  } else {
    c.source = BoundSource::InheritedOrder;
    d.text = inherit_certificate(task,
                                 "T(" + std::to_string(base_m) + ",3) padded with " +
                                     std::to_string(task.m - base_m) + " zero coordinates",
                                 *text, std::to_string(rank + 1));
    c.description = "inherited: the order argument's " + core + ", padded with " +
                    std::to_string(task.m - base_m) + " zero coordinates";
  }
  return d;
}

}  // namespace

SourcedBound best_certified_bound(const CertificateTask& task, const BoundSearchOptions& options) {
  if (task.n < 3) throw DomainError("{n} must be at least 3 (rank 1 suffices below 3)");
  // Checked here, not by the code search: small m has no code, yet gets a bound.
  if (task.m < 1 || task.m > kMaxProductWidth)
    throw DomainError("{m} must be in 1.." + std::to_string(kMaxProductWidth));
  SourcedBound result;
  std::vector<Draft> drafts;  // in tie-break order
  // The product of codes: every construction of product_candidates, the best kept. Past
  // m = 4096 it is the only source (the other certificates list tokens of width m).
  std::optional<Draft> product;
  if (task.m >= 2) {
    const std::vector<ProductBound> products = product_candidates(task.m, task.n);
    product.emplace();
    SourcedCandidate& c = product->candidate;
    c.source = BoundSource::Product;
    c.bound = products.front().bound;
    product->text = product_certificate(task, products.front());
    c.description = products.front().description();
    c.hadamard_power = products.front().power;
    for (const ProductBlock& block : products.front().blocks)
      c.blocks.push_back(block.name + " (length " + std::to_string(block.length) + ", weight " +
                         std::to_string(block.weight) + ") x " + std::to_string(block.copies));
  }
  if (task.m > 4096) {
    product->candidate.certificate = verify_certificate(std::move(product->text));
    result.best = product->candidate;
    result.candidates.push_back(std::move(product->candidate));
    result.code_reason = "m > 4096: only products of codes";
    return result;
  }
  // The code search certifies at most 100,000 rows (bound_search.cpp), and its bound is at
  // most its number of rows: past that, the product wins and the search is skipped.
  const bool code_cannot_win =
      product && product->candidate.bound > Integer(100'000) && options.code_file.empty();
  if (code_cannot_win) {
    result.code_reason =
        "not run: the product of codes gives r >= " + product->candidate.bound.str() +
        ", more than the code search's at most 100,000 rows can";
  } else if (task.m < 2) {
    result.code_reason = "no code has width m < 2";
  } else if (task.m < 4 && task.n > 1000) {
    // Below m = 4 the other sources decide alone; at m >= 4 the code search refuses this n.
    result.code_reason = "the code search takes n in 3..1000";
  } else if (std::optional<BoundSearchResult> code =
                 find_rank_bound(options, &result.code_reason)) {
    if (code->bound.applicable) {
      Draft d;
      SourcedCandidate& c = d.candidate;
      c.source = BoundSource::Code;
      c.bound = code->bound.bound;
      d.text = cube_certificate(task, code->best.construction, code->best.rows, code->bound);
      c.description = code->best.construction + ", " + std::to_string(code->bound.rows) +
                      " rows, " + to_string(code->bound.rule) + " rule";
      drafts.push_back(std::move(d));
      result.code = std::move(*code);
    }
  }
  if (std::optional<Draft> order = order_candidate(task)) drafts.push_back(std::move(*order));
  // Past m = 17 the code bound is at least as good (r >= 9 at m = 18) and the certificate
  // would list 3^9 sign patterns.
  if (task.m >= 4 && task.m <= 17 && !task.position_dependent) {
    Draft d;
    SourcedCandidate& c = d.candidate;
    c.source = BoundSource::Dependence;
    c.bound = task.m / 2;
    d.text = dependence_certificate(task);
    c.description = "linear dependence: " + std::to_string(task.m / 2) +
                    " queries with disjoint pairs of ones refute rank " +
                    std::to_string(task.m / 2 - 1);
    drafts.push_back(std::move(d));
  }
  Draft one;
  one.candidate.source = BoundSource::OneRow;
  one.candidate.bound = 1;
  one.text = one_row_certificate(task);
  one.candidate.description = "one row: without features every denominator is zero";
  drafts.push_back(std::move(one));
  // Last in the tie-break order: a product certificate is kept only when it is strictly better.
  if (product) drafts.push_back(std::move(*product));
  // Each certificate is checked here, once; the winner is written without a second check.
  for (Draft& d : drafts) {
    d.candidate.certificate = verify_certificate(std::move(d.text));
    result.candidates.push_back(std::move(d.candidate));
  }
  // Candidates are in tie-break order; stable_sort keeps it among equal bounds.
  std::stable_sort(
      result.candidates.begin(), result.candidates.end(),
      [](const SourcedCandidate& a, const SourcedCandidate& b) { return a.bound > b.bound; });
  result.best = result.candidates.front();
  return result;
}

}  // namespace kernelrank
