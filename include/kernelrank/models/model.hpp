// The model class: single-head normalized kernel attention (theory.md §2).
//
// Every model, whatever its file form, is seen through its tabular form: the
// kernel alpha(q, z) and the readout table F_q(z) = <c(q), v(z)> + e(q), so that
// y = sum_j alpha(q, x_j) F_q(x_j) / sum_j alpha(q, x_j). Position-dependent
// models receive the query and key positions (0-based).
#pragma once

#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/token.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kernelrank {

enum class ModelClass {
  PositiveFeatures,   // PF: every feature entry is >= 0
  NonnegativeKernel,  // NK: alpha >= 0 wherever used; features may be signed
  Signed,             // signed single head (theory.md §6): some kernel value is negative
};
std::string to_string(ModelClass model_class);  // "PF", "NK", "signed"
// "PF", "NK" or "signed" (the header key class=); nullopt for anything else.
std::optional<ModelClass> parse_model_class(const std::string& text);

struct Classification {
  ModelClass model_class = ModelClass::NonnegativeKernel;
  // Why: e.g. "all feature entries are >= 0" or "alpha(0101, 0011) = -1/2 < 0".
  std::string detail;
};

// Kernel and readout that depend only on w = |q| and s = <q, z> (theory.md §5),
// which lets the evaluator work with overlap profiles instead of tokens.
class OverlapForm {
 public:
  virtual ~OverlapForm() = default;
  virtual Rational kernel(int query_weight, int overlap) const = 0;
  virtual Rational readout(int query_weight, int overlap) const = 0;
};

// Thrown when a model is asked about a token it does not define (a table that
// does not list it, a width mismatch).
class ModelDomainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Model {
 public:
  virtual ~Model() = default;

  // One line, e.g. "softmax base 3" or "tabular model over 16 tokens".
  virtual std::string description() const = 0;
  // Token width m the model accepts.
  virtual int width() const = 0;
  // Number of features r when the model declares one (tables do not).
  virtual std::optional<int> feature_count() const { return std::nullopt; }
  virtual bool position_dependent() const { return false; }

  // alpha^(qpos,kpos)(q, z) and F^(qpos,kpos)_q(z); positions are ignored by
  // position-independent models.
  virtual Rational kernel(const Token& q, const Token& z, int qpos, int kpos) const = 0;
  virtual Rational readout(const Token& q, const Token& z, int qpos, int kpos) const = 0;

  // The tokens the model is defined on, or nullptr when it is defined on the
  // whole cube {0,1}^m.
  virtual const std::vector<Token>* token_universe() const { return nullptr; }
  // Nonnull when the model depends on tokens only through (|q|, <q,z>).
  virtual const OverlapForm* overlap_form() const { return nullptr; }

  // PF / NK / signed, checked on the tokens the model defines (tables and
  // feature lists) or by construction (parametric and built-in forms).
  virtual Classification classify() const = 0;

  // The class the model file declares (header key class=PF|NK|signed, JSON "class"),
  // checked against the data when the file is read (models/declared_class.hpp); nullopt
  // when the file declares none, and then the class is what classify() finds.
  std::optional<ModelClass> declared_class() const { return declared_class_; }
  void set_declared_class(std::optional<ModelClass> declared) { declared_class_ = declared; }

 private:
  std::optional<ModelClass> declared_class_;
};

}  // namespace kernelrank
