"""kernelrank.evaluate and counterexample on a head given as a module (anything with
state_dict(), as torch.nn.Module has): the same result as the dict of its state_dict(), and
as the file those tensors came from (docs/python.md).

Run with the other module tests (python3 -m unittest discover tests/python); the
environment is the one test_module.py documents.
"""

import os
import unittest

import kernelrank
from test_module import ReportAssertions, SAFETENSORS, read_safetensors_dict
from test_ball_module import ELU_FAMILY, ELU_HEAD, BallAssertions

try:
    import torch
except ImportError:
    torch = None

RELU_HEAD = os.path.join(SAFETENSORS, "head_m3_relu_f64.safetensors")


class StateHolder:
    """Not a torch module: only the method evaluate looks for."""

    def __init__(self, state):
        self.state = state
        self.calls = 0

    def state_dict(self):
        self.calls += 1
        return self.state


if torch is not None:
    class KernelrankLayoutHead(torch.nn.Module):
        """A head whose state_dict() is in kernelrank's tensor names (docs/model-format.md §11):
        the submodules query, key, value, readout_c and readout_e."""

        def __init__(self, tensors):
            super().__init__()
            for name in ("query", "key", "value", "readout_c", "readout_e"):
                weight = torch.tensor(tensors[name + ".weight"], dtype=torch.float64)
                layer = torch.nn.Linear(weight.shape[1], weight.shape[0], dtype=torch.float64)
                with torch.no_grad():
                    layer.weight.copy_(weight)
                    layer.bias.copy_(torch.tensor(tensors[name + ".bias"], dtype=torch.float64))
                setattr(self, name, layer)

    class FastTransformersHead(torch.nn.Module):
        """The fast-transformers names (query_projection, ..., out_projection) as parameters
        that require gradients, as a module in training has them."""

        def __init__(self, tensors):
            super().__init__()
            self.weights = torch.nn.ParameterDict({
                key.replace(".", "_"): torch.nn.Parameter(torch.tensor(value, dtype=torch.float32))
                for key, value in tensors.items()})

        def state_dict(self, *args, **kwargs):
            return {key.replace("_weight", ".weight").replace("_bias", ".bias"): value
                    for key, value in ((k[len("weights."):], v) for k, v in
                                       super().state_dict(*args, **kwargs).items())}


class ModuleHeadTest(ReportAssertions):
    def test_object_with_state_dict_equals_dict(self):
        tensors, _ = read_safetensors_dict(RELU_HEAD)
        holder = StateHolder(tensors)
        from_dict = kernelrank.evaluate(tensors, n=3, mode="all")
        self.assertSameResult(from_dict, kernelrank.evaluate(holder, n=3, mode="all"))
        self.assertEqual(holder.calls, 1)
        self.assertEqual(repr(kernelrank.counterexample(holder, m=3)),
                         repr(kernelrank.counterexample(tensors, m=3)))

    def test_state_dict_must_be_a_dict(self):
        with self.assertRaises(TypeError) as caught:
            kernelrank.evaluate(StateHolder([1, 2]), n=3)
        self.assertEqual(str(caught.exception), "model.state_dict() must return a dict of arrays, not list")
        # Its errors are the dict's: a missing tensor is named with the dict's file name.
        tensors, _ = read_safetensors_dict(RELU_HEAD)
        del tensors["key.bias"]
        with self.assertRaises(kernelrank.InputError) as caught:
            kernelrank.evaluate(StateHolder(tensors), n=3)
        self.assertIn("missing tensor 'key.bias'", str(caught.exception))

    @unittest.skipIf(torch is None, "torch is not installed")
    def test_torch_module_equals_state_dict_and_file(self):
        tensors, _ = read_safetensors_dict(RELU_HEAD)
        module = KernelrankLayoutHead(tensors)
        self.assertEqual(sorted(module.state_dict()), sorted(tensors))
        from_module = kernelrank.evaluate(module, n=3, mode="all")
        self.assertSameResult(from_module, kernelrank.evaluate(module.state_dict(), n=3, mode="all"))
        self.assertSameResult(from_module, kernelrank.evaluate(RELU_HEAD, n=3, mode="all"))
        self.assertEqual(from_module.model, kernelrank.evaluate(tensors, n=3, mode="all").model)


@unittest.skipIf(torch is None, "torch is not installed")
class ModuleBallHeadTest(BallAssertions):
    def test_fast_transformers_module_equals_file(self):
        tensors, _ = read_safetensors_dict(ELU_HEAD)
        module = FastTransformersHead(tensors)
        self.assertTrue(all(p.requires_grad for p in module.parameters()))
        from_module = kernelrank.evaluate(module, layout="fast-transformers", family=ELU_FAMILY)
        self.assertSameBall(from_module, kernelrank.evaluate(module.state_dict(), layout="fast-transformers",
                                                             family=ELU_FAMILY))
        self.assertSameBall(from_module, kernelrank.evaluate(ELU_HEAD, family=ELU_FAMILY))


if __name__ == "__main__":
    unittest.main()
