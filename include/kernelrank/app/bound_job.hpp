// The pipeline behind `kernelrank bound` and kernelrank.bound: the best certified lower bound
// on the feature rank of models solving T(m,n) (theory.md L2-L4) over every source
// (bounds/bound_sources.hpp), or the code source's alone; with r, whether r features are
// ruled out by that bound, shown to suffice by a verified layered head, or open; the table
// over a range of m; the certificate files. Every "r >=" reported is the checker's number;
// the other sources' numbers are their producers' claims, and the result says which is which.
// The request is checked here once; messages name parameters as {effort}, {m-min}, {class}
// (core/errors.hpp). The generated-rows path is bound_words_job.hpp.
#pragma once

#include "kernelrank/app/upper_job.hpp"
#include "kernelrank/bounds/bound_sources.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

inline constexpr long long kMaxBoundEffort = 1000;  // seeds per construction; bounds a typo's work
inline constexpr int kMaxBoundTableWidth = 4096;    // the table's m-max

struct BoundRequest {
  int m = 24;  // the single bound's width (the library checks its range)
  int n = 3;
  std::optional<long long> r;  // say whether r (>= 0) features are ruled out
  std::string code;            // only this code (own tokens) and its subsets
  bool only_code = false;      // certify with the code source alone
  bool position_dependent = false;
  std::string model_class = "NK";  // NK or PF
  std::string mode = "first";      // the task's query mode
  std::uint64_t seed = 1;          // first seed of the randomised constructions
  long long effort = 1;            // seeds per randomised construction, 0..kMaxBoundEffort
  bool subset = true;              // the row-subset search
  std::string cert;                // write the winner's certificate here ("": nowhere)
  std::string head;                // with r that suffices: write the verified head here
  int m_min = 8, m_max = 64;       // the table's range, 1 <= m_min <= m_max <= 4096
  std::string cert_dir;            // the table: one certificate per m here ("": none)
  std::function<void(const std::string&)> log;  // "trying ..." lines (may be empty)
};

enum class BoundAnswer { RuledOut, Suffices, Open };
std::string to_string(BoundAnswer answer);  // "ruled_out", "suffices", "open"

// The answer about r: ruled out when r < bound (the checker's); suffices when the best
// verified layered head (upper_job.hpp: n = 3, mode first, no code) has at most r features;
// open otherwise.
struct BoundRAnswer {
  long long r = 0;
  BoundAnswer answer = BoundAnswer::Open;
  bool head_search_applies = false;  // the task is one layered heads solve
  bool head_asked = false;           // a head file was asked for
  std::optional<KnownHead> known;    // looked up when r is not ruled out
  std::string head_file;             // suffices: the head written, or the shipped file, or ""
  std::string head_message;          // write_verified_head's sentence, or ""
};

struct BoundReport {
  int m = 0, n = 3;
  std::string model_class = "NK";
  bool position_dependent = false;
  bool only_code = false;
  SourcedBound sourced;         // sourced.best.certificate holds the checker's bound
  bool code_gave_none = false;  // only_code, and the code source gave no bound above 1
  std::string rule;             // the winner's rule: "trace", "order", "trace-product", ...
  std::optional<BoundRAnswer> r;
  std::string certificate_path;     // where the certificate was written, or ""
  std::string certificate_message;  // write_verified_certificate's sentence, or ""

  const Integer& bound() const { return sourced.best.certificate.bound(); }  // the checker's
  bool code_wins() const { return sourced.code && sourced.best.source == BoundSource::Code; }
};

// Whether a source's number was checked (its certificate passed the checker in this run) or
// is its producer's claim.
bool candidate_checked(const SourcedCandidate& candidate);

// One m: DomainError for a request out of range; InternalError when the code source's own
// certificate is refused under only_code.
BoundReport run_bound(const BoundRequest& request);

// Every m of m_min..m_max, each as run_bound without r, cert or head (their certificates go to
// cert_dir/bound-mM-nN.cert).
struct BoundTable {
  int n = 3;
  std::vector<BoundReport> rows;
};
BoundTable run_bound_table(const BoundRequest& request);

// The one JSON form of each (the CLI prints it for --json; Python converts it).
nlohmann::json bound_json(const BoundReport& report);
nlohmann::json bound_table_json(const BoundTable& table);

}  // namespace kernelrank
