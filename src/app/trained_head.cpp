// The verdict on a trained head (trained_head.hpp): one serialisation, one decision by the
// feature map, one evaluation per instance.
#include "kernelrank/app/trained_head.hpp"

#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/parametric_writer.hpp"
#include "kernelrank/models/safetensors.hpp"

#include <memory>

namespace kernelrank {

TrainedHeadVerdict verify_trained_head(const HeadWeights& weights, const Family& train,
                                       const std::vector<double>& train_outputs, const Family& test,
                                       const std::vector<double>& test_outputs,
                                       std::size_t max_listed, const std::string& file_name) {
  TrainedHeadVerdict out;
  out.safetensors = head_to_safetensors(weights);
  const bool has_test = !test.instances.empty();
  if (is_rational(weights.activation)) {
    const std::unique_ptr<ParametricModel> exact = parametric_model_from_weights(weights);
    out.model_text = parametric_model_to_text(*exact);
    out.train = verify_split(*exact, train, train_outputs, max_listed);
    if (has_test) out.test = verify_split(*exact, test, test_outputs, max_listed);
    return out;
  }
  // exp is not rational: ball arithmetic on the exact weights of the file just serialised, so
  // the verdict is about the bytes the caller writes.
  const RealHead head =
      read_real_head(parse_safetensors(file_name, out.safetensors), HeadReadOptions{});
  out.train = verify_split_ball(head, train, train_outputs, max_listed);
  if (has_test) out.test = verify_split_ball(head, test, test_outputs, max_listed);
  return out;
}

}  // namespace kernelrank
