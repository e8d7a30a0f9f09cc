// MultiHeadModel (multi_head.hpp): a list of single heads of one width, their classes and
// their feature counts. The rank of a head that declares no feature count comes from
// core/exact_rank.hpp (fraction-free elimination over its kernel table).
#include "kernelrank/models/multi_head.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <stdexcept>

namespace kernelrank {
namespace {

// The kernel of a head as one matrix: rows (query position, q), columns (key position, z).
std::size_t kernel_rank(const Model& head, int m) {
  std::vector<Token> cube;
  const std::vector<Token>* universe = head.token_universe();
  if (!universe) {
    if (m > MultiHeadModel::kMaxRankedCubeWidth)
      throw ResourceError("the rank of head '" + head.description() +
                          "' is its kernel's rank over {0,1}^" + std::to_string(m) +
                          ", which is computed only up to m = " +
                          std::to_string(MultiHeadModel::kMaxRankedCubeWidth));
    for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
      cube.push_back(Token::from_index(m, i));
    universe = &cube;
  }
  int positions = 1;
  if (const auto* table = dynamic_cast<const TabularModel*>(&head))
    positions = std::max(table->positions(), 1);
  RationalMatrix matrix;
  for (int qp = 0; qp < positions; ++qp)
    for (const Token& q : *universe) {
      RationalVector row;
      row.reserve(universe->size() * static_cast<std::size_t>(positions));
      for (int kp = 0; kp < positions; ++kp)
        for (const Token& z : *universe) row.push_back(head.kernel(q, z, qp, kp));
      matrix.push_back(std::move(row));
    }
  return exact_rank(matrix);
}

}  // namespace

MultiHeadModel::MultiHeadModel(std::vector<std::shared_ptr<const Model>> heads)
    : heads_(std::move(heads)) {
  if (heads_.empty()) throw std::invalid_argument("a multi-head model needs at least one head");
  if (heads_.size() > kMaxHeads)
    throw std::invalid_argument("a multi-head model has at most " + std::to_string(kMaxHeads) +
                                " heads, not " + std::to_string(heads_.size()));
  for (std::size_t h = 0; h < heads_.size(); ++h) {
    if (!heads_[h]) throw std::invalid_argument("head " + std::to_string(h + 1) + " is null");
    if (h == 0) m_ = heads_[h]->width();
    if (heads_[h]->width() != m_)
      throw std::invalid_argument("head " + std::to_string(h + 1) +
                                  " has width m=" + std::to_string(heads_[h]->width()) +
                                  " but head 1 has m=" + std::to_string(m_));
  }
}

const Model& MultiHeadModel::head(std::size_t h) const {
  if (h >= heads_.size())
    throw std::out_of_range("head index " + std::to_string(h) + " out of range (" +
                            std::to_string(heads_.size()) + " heads)");
  return *heads_[h];
}

bool MultiHeadModel::position_dependent() const {
  for (const auto& head : heads_)
    if (head->position_dependent()) return true;
  return false;
}

std::string MultiHeadModel::description() const {
  std::string text = std::to_string(heads_.size()) + (heads_.size() == 1 ? " head" : " heads") +
                     " (m=" + std::to_string(m_) + "):";
  for (std::size_t h = 0; h < heads_.size(); ++h)
    text += (h == 0 ? " [" : "; [") + std::to_string(h + 1) + "] " + heads_[h]->description();
  return text;
}

std::vector<Classification> MultiHeadModel::classify() const {
  std::vector<Classification> classes;
  for (const auto& head : heads_) classes.push_back(head->classify());
  return classes;
}

std::vector<HeadFeatures> MultiHeadModel::head_features() const {
  std::vector<HeadFeatures> features;
  for (const auto& head : heads_) {
    if (const std::optional<int> r = head->feature_count())
      features.push_back({static_cast<std::size_t>(*r), true});
    else
      features.push_back({kernel_rank(*head, m_), false});
  }
  return features;
}

std::size_t total_features(const std::vector<HeadFeatures>& features) {
  std::size_t total = 0;
  for (const HeadFeatures& f : features) total += f.count;
  return total;
}

std::string features_text(const std::vector<HeadFeatures>& features) {
  std::string text;
  for (std::size_t h = 0; h < features.size(); ++h)
    text += (h == 0 ? "" : " + ") + std::to_string(features[h].count);
  if (features.size() > 1) text += " = " + std::to_string(total_features(features));
  return text;
}

}  // namespace kernelrank
