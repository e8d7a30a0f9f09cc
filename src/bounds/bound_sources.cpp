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

// The order argument at m' = min(m, 5): rank 2 at m' = 5 (r >= 3), rank 1 at m' = 4 (r >= 2).
// It needs n = 3 as computed here and position-independent maps.
std::optional<SourcedCandidate> order_candidate(const CertificateTask& task) {
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
  SourcedCandidate c;
  c.bound = rank + 1;
  const std::string core =
      std::to_string(order.core.size()) + "-pair core of T(" + std::to_string(base_m) + ",3)";
  if (base_m == task.m) {
    c.source = BoundSource::Order;
    c.unchecked_text = *text;
    c.description = "order argument: a " + core + " refutes rank " + std::to_string(rank);
  } else {
    c.source = BoundSource::InheritedOrder;
    c.unchecked_text =
        inherit_certificate(task,
                            "T(" + std::to_string(base_m) + ",3) padded with " +
                                std::to_string(task.m - base_m) + " zero coordinates",
                            *text, std::to_string(rank + 1));
    c.description = "inherited: the order argument's " + core + ", padded with " +
                    std::to_string(task.m - base_m) + " zero coordinates";
  }
  return c;
}

// Candidates from best to worst (stable: ties keep the tie-break order), then the first the
// gate accepts is the best; the ones before it are dropped as refused.
void choose_best(SourcedBound& result) {
  std::stable_sort(
      result.candidates.begin(), result.candidates.end(),
      [](const SourcedCandidate& a, const SourcedCandidate& b) { return a.bound > b.bound; });
  while (!result.candidates.empty()) {
    SourcedCandidate& first = result.candidates.front();
    GateOutcome outcome = try_verify_certificate(
        CertificateDraft{std::move(first.unchecked_text), std::nullopt, first.bound});
    if (outcome.certificate) {
      first.certificate = std::move(*outcome.certificate);
      first.bound = first.certificate.bound();
      result.best = first;
      return;
    }
    result.refused.push_back({first.source, first.bound, std::move(outcome.refusal)});
    result.candidates.erase(result.candidates.begin());
  }
  std::string reasons;
  for (const RefusedCandidate& r : result.refused)
    reasons += "\n  " + to_string(r.source) + " (r >= " + r.claim.str() + "): " + r.refusal;
  throw InternalError("the gate refuses every candidate certificate:" + reasons);
}

}  // namespace

SourcedBound best_certified_bound(const CertificateTask& task, const BoundSearchOptions& options) {
  if (task.n < 3) throw DomainError("{n} must be at least 3 (rank 1 suffices below 3)");
  // Checked here, not by the code search: small m has no code, yet gets a bound.
  if (task.m < 1 || task.m > kMaxProductWidth)
    throw DomainError("{m} must be in 1.." + std::to_string(kMaxProductWidth));
  SourcedBound result;
  std::vector<SourcedCandidate>& candidates = result.candidates;  // in tie-break order
  // The product of codes: every construction of product_candidates, the best kept. Past
  // m = 4096 it is the only source (the other certificates list tokens of width m).
  std::optional<SourcedCandidate> product;
  if (task.m >= 2) {
    const std::vector<ProductBound> products = product_candidates(task.m, task.n);
    product.emplace();
    SourcedCandidate& c = *product;
    c.source = BoundSource::Product;
    c.bound = products.front().bound;
    c.unchecked_text = product_certificate(task, products.front());
    c.description = products.front().description();
    c.hadamard_power = products.front().power;
    for (const ProductBlock& block : products.front().blocks)
      c.blocks.push_back(block.name + " (length " + std::to_string(block.length) + ", weight " +
                         std::to_string(block.weight) + ") x " + std::to_string(block.copies));
  }
  if (task.m > 4096) {
    candidates.push_back(std::move(*product));
    result.code_reason = "m > 4096: only products of codes";
    choose_best(result);
    return result;
  }
  // The code search certifies at most 100,000 rows (bound_search.cpp), and its bound is at
  // most its number of rows: past that, the product wins and the search is skipped.
  const bool code_cannot_win =
      product && product->bound > Integer(100'000) && options.code_file.empty();
  if (code_cannot_win) {
    result.code_reason = "not run: the product of codes gives r >= " + product->bound.str() +
                         ", more than the code search's at most 100,000 rows can";
  } else if (task.m < 2) {
    result.code_reason = "no code has width m < 2";
  } else if (task.m < 4 && task.n > 1000) {
    // Below m = 4 the other sources decide alone; at m >= 4 the code search refuses this n.
    result.code_reason = "the code search takes n in 3..1000";
  } else if (std::optional<BoundSearchResult> code =
                 find_rank_bound(options, &result.code_reason)) {
    if (code->bound.applicable) {
      SourcedCandidate c;
      c.source = BoundSource::Code;
      c.bound = code->bound.bound;
      c.unchecked_text =
          cube_certificate(task, code->best.construction, code->best.rows, code->bound);
      c.description = code->best.construction + ", " + std::to_string(code->bound.rows) +
                      " rows, " + to_string(code->bound.rule) + " rule";
      candidates.push_back(std::move(c));
      result.code = std::move(*code);
    }
  }
  if (std::optional<SourcedCandidate> order = order_candidate(task))
    candidates.push_back(std::move(*order));
  // Past m = 17 the code bound is at least as good (r >= 9 at m = 18) and the certificate
  // would list 3^9 sign patterns.
  if (task.m >= 4 && task.m <= 17 && !task.position_dependent) {
    SourcedCandidate c;
    c.source = BoundSource::Dependence;
    c.bound = task.m / 2;
    c.unchecked_text = dependence_certificate(task);
    c.description = "linear dependence: " + std::to_string(task.m / 2) +
                    " queries with disjoint pairs of ones refute rank " +
                    std::to_string(task.m / 2 - 1);
    candidates.push_back(std::move(c));
  }
  SourcedCandidate one;
  one.source = BoundSource::OneRow;
  one.bound = 1;
  one.unchecked_text = one_row_certificate(task);
  one.description = "one row: without features every denominator is zero";
  candidates.push_back(std::move(one));
  // Last in the tie-break order: a product certificate is kept only when it is strictly better.
  if (product) candidates.push_back(std::move(*product));
  choose_best(result);
  return result;
}

void certify_candidate(SourcedCandidate& candidate) {
  if (!candidate.certificate.empty()) return;
  candidate.certificate = verify_certificate(
      CertificateDraft{std::move(candidate.unchecked_text), std::nullopt, candidate.bound});
  candidate.bound = candidate.certificate.bound();
}

}  // namespace kernelrank
