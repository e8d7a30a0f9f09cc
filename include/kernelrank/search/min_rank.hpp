// The table of minimal feature ranks r(m) for T(m,3), m = 1..M (issue 5).
//
// Monotonicity: fixing the last coordinate to 0 embeds T(m-1,3) in T(m,3),
// instances and targets included, so a rank-r model of T(m,3) restricts to one
// of T(m-1,3), and r(m) >= r(m-1). Each row therefore starts at r(m-1); the
// cell below it is refuted at m-1 and inherits that refutation. Every other
// cell is settled by search_rank (exact arguments, heuristic + exact
// completion, Z3 with two encodings) and keeps its honest label.
#pragma once

#include "kernelrank/search/rank_search.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct MinRankOptions {
  int m_max = 4;
  std::vector<SearchClass> classes{SearchClass::NK, SearchClass::PF};
  SearchOptions search;    // r and search_class are set per cell
  int r_max = 8;           // give up on a row above this r
  std::string models_dir;  // write found minimal models here (empty: do not write)
  // Threads (resolve_threads: 0 = all). The classes' rows are independent and run side by
  // side; within a row, the cells r, r+1, ... are independent searches, so up to
  // threads / classes of them run at once and the sweep keeps exactly the cells the
  // one-thread sweep visits (up to the first model found), in the same order. Cells are
  // pure functions of (m, class, r, options) except for wall-clock budgets.
  int threads = 1;
  std::function<void(const std::string&)> log;  // may be called from several threads at once
};

// Status of one (m, class, r) cell.
enum class CellStatus {
  Found,                // model found and exactly verified
  RefutedCertified,     // a certificate the checker verifies (one row, order argument, rank bound)
  RefutedExact,         // an exact argument without a checker-verified certificate
  RefutedCorroborated,  // Z3: E1 and E2 both unsat
  RefutedZ3Only,        // Z3 E1 unsat without independent confirmation
  RefutedInherited,     // refuted at m-1 (sub-cube embedding)
  Unknown,
};
std::string to_string(CellStatus status);
// The status a search result gives its cell (Found, a Refuted* kind, Unknown).
CellStatus cell_status(const SearchResult& result);

struct MinRankCell {
  int m = 0;
  SearchClass search_class = SearchClass::NK;
  int r = 0;
  CellStatus status = CellStatus::Unknown;
  std::string label;
  std::string detail;
  double seconds = 0;
  std::vector<std::string> files;            // model files written
  std::optional<CellStatus> inherited_from;  // for RefutedInherited: the status at m-1
  std::string checker_status;  // RefutedCertified: the checker's status line on its certificate
};

struct MinRankRow {
  int m = 0;
  SearchClass search_class = SearchClass::NK;
  int lower = 0;             // r(m) >= lower (proved, with the labels of the cells)
  std::optional<int> upper;  // a verified model with this many features
  bool settled() const { return upper && *upper == lower; }
  std::vector<MinRankCell> cells;  // in the order they were decided
  double seconds = 0;
};

struct MinRankTable {
  std::vector<MinRankRow> rows;
  std::string z3_version;
};

MinRankTable compute_min_rank(const MinRankOptions& options);

}  // namespace kernelrank
