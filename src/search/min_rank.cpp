// The minimal-rank table (see min_rank.hpp). No Z3 here directly: every cell
// goes through search_rank.
#include "kernelrank/search/min_rank.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/search/child_process.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

namespace kernelrank {

std::string to_string(CellStatus status) {
  switch (status) {
    case CellStatus::Found:
      return "model found and verified";
    case CellStatus::RefutedCertified:
      return "refuted-certified";
    case CellStatus::RefutedExact:
      return "refuted-exact (not checker-verified)";
    case CellStatus::RefutedCorroborated:
      return "refuted-corroborated";
    case CellStatus::RefutedZ3Only:
      return "refuted-Z3-only";
    case CellStatus::RefutedInherited:
      return "refuted-inherited";
    case CellStatus::Unknown:
      return "unknown";
  }
  return "?";
}

CellStatus cell_status(const SearchResult& result) {
  if (result.verdict == SearchVerdict::Found) return CellStatus::Found;
  if (result.verdict == SearchVerdict::Unknown) return CellStatus::Unknown;
  if (result.label.rfind("refuted (certified", 0) == 0) return CellStatus::RefutedCertified;
  if (result.label.rfind("refuted (exact", 0) == 0) return CellStatus::RefutedExact;
  if (result.label.rfind("refuted (corroborated", 0) == 0) return CellStatus::RefutedCorroborated;
  return CellStatus::RefutedZ3Only;
}

namespace {

bool refuted(CellStatus status) {
  return status != CellStatus::Found && status != CellStatus::Unknown;
}

}  // namespace

namespace {

// A cell below r(m-1)'s proved bound: refuted at a smaller width, hence here.
MinRankCell inherited_cell(int m, SearchClass search_class, int r,
                           const std::pair<CellStatus, int>& origin_cell) {
  const auto& [origin, origin_m] = origin_cell;
  MinRankCell cell;
  cell.m = m;
  cell.search_class = search_class;
  cell.r = r;
  cell.status = CellStatus::RefutedInherited;
  cell.inherited_from = origin;
  cell.label =
      "refuted (inherited from m = " + std::to_string(origin_m) + ": " + to_string(origin) + ")";
  cell.detail = "T(" + std::to_string(origin_m) + ",3) embeds in T(" + std::to_string(m) +
                ",3) (trailing coordinates 0), so a model here would restrict to one there";
  return cell;
}

// The found model as JSON and as a features file; returns the two paths.
std::vector<std::string> write_cell_model(const std::string& models_dir, const RankTask& task,
                                          const SearchResult& result, int m,
                                          SearchClass search_class, int r) {
  const std::string stem = models_dir + "/min-rank-m" + std::to_string(m) + "-" +
                           to_string(search_class) + "-r" + std::to_string(r);
  const TabularModel tabular = to_tabular_model(task, *result.model);
  write_file_atomically(stem + ".json", tabular_model_to_json(tabular));
  write_file_atomically(
      stem + ".features",
      features_model_text(task, *result.model,
                          "kernelrank min-rank: T(" + std::to_string(m) + ",3), class " +
                              to_string(search_class) + ", r = " + std::to_string(r) +
                              "\nexact max error " + to_string(*result.check->report.max_error) +
                              ", kernel rank " + std::to_string(result.check->kernel_rank) + "\n" +
                              result.model_source));
  return {stem + ".json", stem + ".features"};
}

// The rows m = 1..m_max of one class. `width` cells of a row run at once.
std::vector<MinRankRow> class_rows(const MinRankOptions& options, SearchClass search_class,
                                   int width) {
  std::vector<MinRankRow> rows;
  // Refuted cells at the previous m: r -> (original status, m where it was decided).
  std::map<int, std::pair<CellStatus, int>> refuted_below;
  int lower = 0;  // r(m-1) >= lower is proved
  for (int m = 1; m <= options.m_max; ++m) {
    const auto row_start = std::chrono::steady_clock::now();
    MinRankRow row;
    row.m = m;
    row.search_class = search_class;
    row.lower = lower;
    const RankTask task = cube_rank_task(m, 3);
    // Cells refuted at m-1 stay refuted (the sub-cube embedding).
    std::map<int, std::pair<CellStatus, int>> refuted_here = refuted_below;
    if (lower > 0 && refuted_below.count(lower - 1))
      row.cells.push_back(inherited_cell(m, search_class, lower - 1, refuted_below.at(lower - 1)));
    auto search_cell = [&](int r) {
      SearchOptions search = options.search;
      search.r = r;
      search.search_class = search_class;
      search.smt2_prefix = "min-rank-m" + std::to_string(m) + "-" + to_string(search_class) + "-r" +
                           std::to_string(r);
      if (options.log)
        options.log("m = " + std::to_string(m) + ", class " + to_string(search_class) +
                    ", r = " + std::to_string(r));
      return search_rank(task, search);
    };
    int r = lower;
    bool open = false;  // an unknown cell stops lower-bound progress in this row
    bool found = false;
    while (r <= options.r_max && !found) {
      // Cells r .. r + batch - 1 at once; only those up to the first model are kept.
      const int batch = std::min(width, options.r_max - r + 1);
      std::vector<std::optional<SearchResult>> results(static_cast<std::size_t>(batch));
      parallel_for(static_cast<std::size_t>(batch), batch,
                   [&](std::size_t i, int) { results[i] = search_cell(r + static_cast<int>(i)); });
      for (int i = 0; i < batch; ++i, ++r) {
        const SearchResult& result = *results[static_cast<std::size_t>(i)];
        MinRankCell cell;
        cell.m = m;
        cell.search_class = search_class;
        cell.r = r;
        cell.status = cell_status(result);
        cell.label = result.label;
        cell.detail = result.detail;
        cell.seconds = result.seconds;
        if (result.certificate_text)
          cell.checker_status = result.certificate_text->checker_status();
        if (result.model && !options.models_dir.empty())
          cell.files = write_cell_model(options.models_dir, task, result, m, search_class, r);
        if (options.log)
          options.log("  " + cell.label + " (" + std::to_string(cell.seconds) + " s)");
        row.cells.push_back(cell);
        if (cell.status == CellStatus::Found) {
          if (!row.upper) row.upper = r;
          if (!open) row.lower = r;
          found = true;
          break;  // cells above a model are not part of the row (speculative ones are dropped)
        }
        if (refuted(cell.status)) {
          refuted_here[r] = {cell.status, m};
          if (!open) row.lower = r + 1;
          continue;
        }
        // Unknown: r(m) >= r stays the proved bound; look for an upper bound above.
        open = true;
      }
    }
    lower = row.lower;
    refuted_below = refuted_here;
    row.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - row_start).count();
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

MinRankTable compute_min_rank(const MinRankOptions& options) {
  if (options.m_max < 1 || options.m_max > 7) throw DomainError("{m-max} must be in 1..7");
  if (options.r_max < 1 || options.r_max > 64) throw DomainError("{r-max} must be in 1..64");
  MinRankTable table;
  table.z3_version = z3_version();
  // Cells fork their search processes from worker threads (see child_process.hpp).
  const bool one_at_a_time = options.search.isolate && !fork_from_threads_supported();
  const int threads = one_at_a_time ? 1 : resolve_threads(options.threads);
  const std::size_t classes = options.classes.size();
  const int outer = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(threads), std::max<std::size_t>(classes, 1)));
  // Speculative cells would leave SMT2 files of cells the sweep drops: none with --save-smt2.
  const int width = options.search.save_smt2_dir.empty() ? std::max(1, threads / outer) : 1;
  std::vector<std::vector<MinRankRow>> per_class(classes);
  parallel_for(classes, outer, [&](std::size_t c, int) {
    per_class[c] = class_rows(options, options.classes[c], width);
  });
  for (std::vector<MinRankRow>& rows : per_class)
    for (MinRankRow& row : rows) table.rows.push_back(std::move(row));
  return table;
}

}  // namespace kernelrank
