// The min-rank sweep for signed and multi-head models (see open_min_rank.hpp).
#include "kernelrank/search/open_min_rank.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/search/elapsed.hpp"
#include "kernelrank/search/rank_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

namespace kernelrank {
namespace {

// A = C R with C the pivot columns of A and R the nonzero rows of its reduced row echelon
// form: an exact factorisation through rank(A) features (U = C, V = R^T).
RankModel factorised_head(const RationalMatrix& kernel, const RationalMatrix& readout) {
  const std::size_t size = kernel.size();
  RationalMatrix echelon = kernel;
  std::vector<std::size_t> pivots;
  std::size_t row = 0;
  for (std::size_t col = 0; col < size && row < size; ++col) {
    std::size_t found = row;
    while (found < size && echelon[found][col] == 0) ++found;
    if (found == size) continue;
    std::swap(echelon[row], echelon[found]);
    const Rational lead = echelon[row][col];
    for (Rational& x : echelon[row]) x /= lead;
    for (std::size_t other = 0; other < size; ++other) {
      if (other == row || echelon[other][col] == 0) continue;
      const Rational factor = echelon[other][col];
      for (std::size_t j = 0; j < size; ++j) echelon[other][j] -= factor * echelon[row][j];
    }
    pivots.push_back(col);
    ++row;
  }
  RankModel head;
  head.r = static_cast<int>(pivots.size());
  head.query_features.assign(size, RationalVector(pivots.size()));
  head.key_features.assign(size, RationalVector(pivots.size()));
  for (std::size_t i = 0; i < size; ++i)
    for (std::size_t k = 0; k < pivots.size(); ++k) {
      head.query_features[i][k] = kernel[i][pivots[k]];
      head.key_features[i][k] = echelon[k][i];
    }
  head.readout = readout;
  return head;
}

// The padded upper bound: the NK single head, then H - 1 heads with one feature of value 1
// (alpha = 1 everywhere) and readout 0, which add 0 to every output.
std::optional<OpenRow> padded_model(const RankTask& task, const Model& nk,
                                    const OpenClass& open_class) {
  if (nk.position_dependent() || nk.width() != task.m) return std::nullopt;
  const std::size_t size = task.tokens.size();
  // The tables in the task's token order (the file may list the tokens in another).
  RationalMatrix kernel(size, RationalVector(size)), readout(size, RationalVector(size));
  try {
    for (std::size_t i = 0; i < size; ++i)
      for (std::size_t j = 0; j < size; ++j) {
        kernel[i][j] = nk.kernel(task.tokens[i], task.tokens[j], 0, 0);
        readout[i][j] = nk.readout(task.tokens[i], task.tokens[j], 0, 0);
      }
  } catch (const ModelDomainError&) {
    return std::nullopt;  // not a model of the whole cube
  }
  OpenRow row;
  CandidateHeads heads{factorised_head(kernel, readout)};
  row.model_shapes.push_back({heads[0].r, open_class.signed_kernel});
  for (int h = 1; h < open_class.heads; ++h) {
    RankModel dummy;
    dummy.r = 1;
    dummy.query_features.assign(size, RationalVector{Rational(1)});
    dummy.key_features.assign(size, RationalVector{Rational(1)});
    dummy.readout.assign(size, RationalVector(size, Rational(0)));
    heads.push_back(std::move(dummy));
    row.model_shapes.push_back({1, open_class.signed_kernel});
  }
  if (!verify_multi_head(task, heads, row.model_shapes).passes()) return std::nullopt;
  int total = 0;
  for (const HeadShape& shape : row.model_shapes) total += shape.r;
  row.upper = total;
  row.upper_how = open_class.heads == 1
                      ? "the NK model (r = " + std::to_string(heads[0].r) + ")"
                      : "NK model r = " + std::to_string(heads[0].r) + " padded with " +
                            std::to_string(open_class.heads - 1) +
                            " one-feature head(s) of readout 0";
  row.model = std::move(heads);
  return row;
}

// The proposal search over every split of `total`; fills `row` when a split is found.
OpenCell propose_total(const OpenMinRankOptions& options, const RankTask& task, int total,
                       OpenRow& row) {
  const OpenClass& cls = options.open_class;
  OpenCell cell;
  cell.total = total;
  const auto splits = feature_splits(total, cls.heads);
  for (const std::vector<int>& split : splits) {
    std::vector<HeadShape> shapes;
    for (int r : split) shapes.push_back({r, cls.signed_kernel});
    MultiHeadProposalOptions proposal = options.proposal;
    const double budget = options.seconds_per_total / static_cast<double>(splits.size());
    const auto split_start = std::chrono::steady_clock::now();
    proposal.should_stop = [&] { return seconds_since(split_start) > budget; };
    MultiHeadSearchResult found = search_multi_head(task, shapes, proposal);
    char best[64] = "none";
    if (found.best_float_error) std::snprintf(best, sizeof best, "%.4f", *found.best_float_error);
    cell.how += (cell.how.empty() ? "" : "; ") + shape_text(shapes) + ": " +
                std::to_string(found.restarts_run) + " restarts, best float error " + best;
    if (options.log)
      options.log("m = " + std::to_string(task.m) + ", " + shape_text(shapes) + ": " +
                  (found.model ? "found" : "not found") + " (" + best + ", " +
                  std::to_string(found.seconds) + " s)");
    if (found.model) {
      cell.status = OpenCellStatus::Found;
      cell.how = "search: " + shape_text(shapes);
      row.upper = total;
      row.upper_how = cell.how;
      row.model = std::move(found.model);
      row.model_shapes = shapes;
      return cell;
    }
  }
  return cell;
}

// Z3 on a signed single-head total (the `search` pipeline, signed encodings, no proposal).
void z3_total(const OpenMinRankOptions& options, const RankTask& task, OpenCell& cell,
              OpenRow& row) {
  SearchOptions search;
  search.r = cell.total;
  search.search_class = SearchClass::Signed;
  search.timeout_seconds = options.z3_seconds;
  search.memory_mb = options.z3_memory_mb;
  search.heuristic = false;
  search.exact_arguments = false;
  search.cross_check = false;
  search.lemmas = false;
  search.smt2_prefix = "open-signed-m" + std::to_string(task.m) + "-r" + std::to_string(cell.total);
  search.log = options.log;
  const SearchResult result = search_rank(task, search);
  std::string attempts;
  for (const Z3Attempt& attempt : result.z3)
    attempts += (attempts.empty() ? "" : ", ") + attempt.encoding + " " + attempt.answer +
                " (|W| = " + std::to_string(attempt.working_instances) + ")";
  cell.how += "; Z3: " + (attempts.empty() ? result.solver_status : attempts);
  if (result.verdict == SearchVerdict::Found && result.model && result.check &&
      result.check->passes()) {
    cell.status = OpenCellStatus::Found;
    cell.how = "Z3 model, completed and verified exactly";
    row.upper = cell.total;
    row.upper_how = cell.how;
    row.model = CandidateHeads{*result.model};
    row.model_shapes = {{cell.total, true}};
  } else if (result.verdict == SearchVerdict::Refuted) {
    cell.status = OpenCellStatus::RefutedZ3;
    cell.label = result.label;
  }
}

// The label an inherited refutation of `total` gets from the row below: that row's own
// refutation, or what it inherited in turn (always naming the width that was decided).
std::string inherited_label(const OpenRow& below, int total) {
  for (const OpenCell& cell : below.cells)
    if (cell.total == total) {
      if (cell.status == OpenCellStatus::RefutedInherited) return cell.label;
      return "inherited from m = " + std::to_string(below.m) + ": " +
             (cell.label.empty() ? to_string(cell.status) : cell.label);
    }
  throw InternalError("no refuted cell to inherit at total " + std::to_string(total));
}

OpenRow compute_row(const OpenMinRankOptions& options, int m, const OpenRow* below) {
  const auto start = std::chrono::steady_clock::now();
  const OpenClass& cls = options.open_class;
  const RankTask task = cube_rank_task(m, 3);
  OpenRow row;
  if (const auto nk = options.nk_models.find(m); nk != options.nk_models.end() && nk->second)
    if (auto padded = padded_model(task, *nk->second, cls)) row = std::move(*padded);
  row.open_class = cls;
  row.m = m;
  row.lower = cls.heads;
  for (int total = 0; total < cls.heads; ++total)
    row.cells.push_back({total, OpenCellStatus::RefutedStructural,
                         "a head without features has a zero kernel: every denominator is 0", "",
                         0});
  // T(m-1,3) is T(m,3) with the last coordinate fixed to 0, so a model of T(m,3) restricts
  // to one of T(m-1,3) with the same heads and features: refutations carry upwards.
  if (below && below->m == m - 1)
    for (int total = cls.heads; total < below->lower; ++total) {
      row.cells.push_back(
          {total, OpenCellStatus::RefutedInherited, "", inherited_label(*below, total), 0});
      row.lower = total + 1;
    }
  const int stop = row.upper ? *row.upper : cls.heads + 8;
  const int last = options.max_total > 0 ? std::min(stop - 1, options.max_total) : stop - 1;
  for (int total = row.lower; total <= last; ++total) {
    const auto cell_start = std::chrono::steady_clock::now();
    OpenCell cell = propose_total(options, task, total, row);
    if (cell.status != OpenCellStatus::Found && cls.heads == 1 && cls.signed_kernel &&
        options.z3_seconds > 0)
      z3_total(options, task, cell, row);
    cell.seconds = seconds_since(cell_start);
    row.cells.push_back(cell);
    if (cell.status == OpenCellStatus::Found) break;
    // A signed head with fewer features is one with more (pad with zero features).
    if (cell.status == OpenCellStatus::RefutedZ3) row.lower = total + 1;
  }
  if (row.upper && (row.cells.empty() || row.cells.back().total != *row.upper))
    row.cells.push_back({*row.upper, OpenCellStatus::Found, row.upper_how, "", 0});
  row.seconds = seconds_since(start);
  return row;
}

}  // namespace

std::string to_string(const OpenClass& open_class) {
  return std::string(open_class.signed_kernel ? "signed" : "NK") + ", " +
         std::to_string(open_class.heads) + (open_class.heads == 1 ? " head" : " heads");
}

std::string to_string(OpenCellStatus status) {
  switch (status) {
    case OpenCellStatus::Found:
      return "found and verified";
    case OpenCellStatus::RefutedStructural:
      return "refuted (exact: a head without features)";
    case OpenCellStatus::RefutedZ3:
      return "refuted by Z3";
    case OpenCellStatus::RefutedInherited:
      return "refuted (inherited)";
    case OpenCellStatus::Unknown:
      return "unknown";
  }
  return "unknown";
}

std::string open_model_text(const OpenRow& row, const std::string& comment) {
  if (!row.model) throw InternalError("no verified model to write for this row");
  const RankTask task = cube_rank_task(row.m, 3);
  if (row.model->size() == 1) return features_model_text(task, row.model->front(), comment);
  std::string out = "# " + comment + "\n";
  out += "kernelrank-multihead 1 m=" + std::to_string(row.m) +
         " heads=" + std::to_string(row.model->size()) + "\n";
  for (std::size_t h = 0; h < row.model->size(); ++h) {
    out += "head " + std::to_string(h + 1) + "\n";
    out += features_model_text(
        task, (*row.model)[h],
        "head " + std::to_string(h + 1) + ": " + std::to_string((*row.model)[h].r) + " feature(s)");
  }
  return out;
}

std::string open_model_file_name(const OpenRow& row) {
  std::string split;
  for (const HeadShape& shape : row.model_shapes)
    split += (split.empty() ? "" : "+") + std::to_string(shape.r);
  if (row.open_class.heads == 1)
    return std::string(row.open_class.signed_kernel ? "signed" : "nk") + "-m" +
           std::to_string(row.m) + "-r" + split + ".features";
  return std::string(row.open_class.signed_kernel ? "signed" : "nk") +
         std::to_string(row.open_class.heads) + "-m" + std::to_string(row.m) + "-" + split +
         ".multihead";
}

std::vector<std::vector<int>> feature_splits(int total, int heads) {
  std::vector<std::vector<int>> out;
  std::vector<int> current;
  // Parts in non-increasing order, each at most `cap`.
  std::function<void(int, int, int)> extend = [&](int left, int parts, int cap) {
    if (parts == 0) {
      if (left == 0) out.push_back(current);
      return;
    }
    for (int r = std::min(cap, left - (parts - 1)); r >= 1; --r) {
      current.push_back(r);
      extend(left - r, parts - 1, r);
      current.pop_back();
    }
  };
  if (heads >= 1 && total >= heads) extend(total, heads, total);
  return out;
}

std::vector<OpenRow> compute_open_min_rank(const OpenMinRankOptions& options) {
  if (options.open_class.heads < 1 || options.open_class.heads > 8)
    throw DomainError("{heads} must be in 1..8");
  std::vector<OpenRow> rows;
  for (int m : options.widths) {
    if (m < 1 || m > 6) throw DomainError("{m} must be in 1..6 for these tables");
    rows.push_back(compute_row(options, m, rows.empty() ? nullptr : &rows.back()));
  }
  return rows;
}

}  // namespace kernelrank
