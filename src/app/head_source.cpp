// See head_source.hpp.
#include "kernelrank/app/head_source.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/model_io.hpp"  // kMaxModelWidth

#include "check/sha256.hpp"  // the checker's SHA-256 names files in partial results

#include <map>
#include <utility>

namespace kernelrank {
namespace {

void check_request(const HeadRequest& request) {
  const bool has_file = !request.path.empty() || request.in_memory;
  if (has_file && !request.builtin.empty())
    throw DomainError("give either {model} or {builtin}, not both");
  if (request.base && (has_file || (request.builtin != "softmax" && request.builtin != "product")))
    throw DomainError("{base} applies only to {builtin} softmax or product");
}

bool rank1_mean(const HeadRequest& request) { return request.builtin == "rank1-mean"; }

}  // namespace

HeadSource open_head(HeadRequest request) {
  check_request(request);
  HeadSource source;
  if (request.in_memory)
    source.file_ = std::move(request.in_memory);
  else if (!request.path.empty())
    source.file_ = read_model_file(request.path);
  request.in_memory.reset();
  const bool safetensors = source.file_ && source.file_->kind == ModelFileKind::Safetensors;
  const bool multi_head = source.file_ && source.file_->kind == ModelFileKind::MultiHead;
  if ((request.layout || request.feature_map) && !safetensors &&
      !(multi_head && request.multi_head))
    throw DomainError(
        "{layout} and {feature-map} apply to safetensors heads ({model} FILE.safetensors)");
  if (!source.file_) {
    if (request.builtin.empty())
      throw DomainError("choose a model with {model} FILE or {builtin} NAME");
    source.kind_ = HeadKind::Builtin;
  } else if (multi_head && request.multi_head) {
    source.kind_ = HeadKind::MultiHead;  // its own evaluator parses it
  } else {
    OpenOptions open;
    if (request.layout) open.read.layout = *request.layout;
    if (request.feature_map) open.read.feature_map = *request.feature_map;
    open.ball_heads = request.ball_heads;
    open.multi_head = false;
    source.opened_ = open_model(*source.file_, open);
    source.kind_ = source.opened_.ball ? HeadKind::Ball : HeadKind::Exact;
  }
  source.request_ = std::move(request);
  return source;
}

std::unique_ptr<Model> HeadSource::take_exact(int m, int n) {
  if (kind_ == HeadKind::Exact) {
    if (!opened_.exact)
      throw InternalError("the exact head of " + file_->name + " was taken twice");
    require_model_width(file_->name, opened_.exact->width(), m);
    return std::move(opened_.exact);
  }
  if (kind_ != HeadKind::Builtin)
    throw InternalError("take_exact on a head that is not exact (a bug)");
  if (m < 1) throw DomainError("a built-in model needs the width {m}");
  std::map<std::string, std::string> params;
  if (rank1_mean(request_))
    params["n"] = std::to_string(n);
  else
    params["base"] = request_.base.value_or("3");
  return make_builtin_model(request_.builtin, m, params);
}

std::string HeadSource::identity(int m, int n) const {
  if (file_) return "file " + file_->name;
  std::string spec = "builtin " + request_.builtin + " m=" + std::to_string(m);
  if (rank1_mean(request_)) return spec + " n=" + std::to_string(n);
  return spec + " base=" + to_string(parse_rational(request_.base.value_or("3")));
}

std::string HeadSource::identity_sha256(int m, int n) const {
  return krcheck::to_hex(krcheck::sha256(file_ ? file_->bytes : identity(m, n)));
}

void check_task_width(const std::optional<int>& m) {
  if (m && (*m < 1 || *m > kMaxModelWidth))
    throw DomainError("{m}: must be in 1.." + std::to_string(kMaxModelWidth) + ", not " +
                      std::to_string(*m));
}

}  // namespace kernelrank
