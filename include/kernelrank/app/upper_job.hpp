// Upper bounds on the feature rank of T(m,3) (`kernelrank upper`, `bound --r`, the upper side
// of `transition`, kernelrank.upper): a layered head (models/layered_head.hpp) found by the
// exact layer-set search (bounds/layered_search.hpp), decided exactly by the profile
// evaluator and verified by the checker's library in memory before anything is shown as
// verified or written. Messages name parameters as {m} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/models/layered_head.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace kernelrank {

struct UpperRequest {
  int m = 0;                                              // 1..kMaxLayeredSearchWidth
  ModelClass model_class = ModelClass::PositiveFeatures;  // PF or NK
  std::string out;                                        // where to write the head ("": nowhere)
  std::size_t lp_budget = 2000;                           // LPs the layer-set search may solve
  std::function<void(const std::string&)> progress;       // one line per LP (terminal only)
};

struct UpperResult {
  int m = 0;
  ModelClass model_class = ModelClass::PositiveFeatures;
  std::optional<LayeredHead> head;  // none: no layer set within the budget
  Integer r = 0;                    // the checker's r <= N
  Rational max_error;               // the exact evaluator's, over every profile of T(m,3)
  Rational margin;                  // the LP's optimum (layered_lp.hpp's normalisation)
  bool optimal = false;             // every cheaper layer set was refuted
  std::size_t lps = 0, refuted = 0;
  double seconds = 0;   // display only
  std::string file;     // the file written ("" when none)
  std::string message;  // the sentence about the written file
};

// DomainError for m outside 1..kMaxLayeredSearchWidth or class signed.
UpperResult run_upper(const UpperRequest& request);

// The one JSON form of the result (the CLI prints it); r (a string) and file are null when
// no head was found.
nlohmann::json upper_json(const UpperResult& result);

// A layered head shown as verified: the exact profile evaluation solves T(m,3), and the
// checker's library verifies its text with r <= feature_count(). InternalError otherwise
// (the producer made a wrong head). Returns the verified text and the exact max error.
struct CheckedHead {
  VerifiedHead verified;
  Rational max_error;
  Integer r;
};
CheckedHead check_layered_head(const LayeredHead& head, const std::vector<std::string>& comment);

// The shipped head of instances/upper for (m, class), read and checked as above; nullopt
// when there is none. `directory` "" means the source tree's instances/upper.
std::optional<LayeredHead> shipped_layered_head(int m, ModelClass model_class,
                                                const std::string& directory = "");
std::string shipped_layered_head_path(int m, ModelClass model_class,
                                      const std::string& directory = "");

// The best verified layered head of the class for T(m,3) that this tool knows: the shipped
// heads (for NK also the PF one, a PF head being NK), or, where none is shipped and
// m <= kSearchWhenMissing, the search's. Checked as check_layered_head does. nullopt: none.
struct KnownHead {
  LayeredHead head;
  CheckedHead checked;
  std::string file;  // the shipped file, or "" when the search found it now
};
constexpr int kSearchWhenMissing = 24;
std::optional<KnownHead> best_known_head(int m, ModelClass model_class);

}  // namespace kernelrank
