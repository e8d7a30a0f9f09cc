"""The type stubs kernelrank.pyi (src/python/kernelrank.pyi, copied next to the built module)
name exactly the module's functions, their arguments (order, keyword-only marker and
defaults), its classes with their bases, and every attribute of the result classes; each
function and class of the stubs has a docstring.

The module's side is read from the module itself: pybind11 writes each function's signature
as the first line of its docstring, and a class's attributes are its own namespace.
"""

import ast
import inspect
import os
import unittest

import kernelrank

STUB = os.path.join(os.path.dirname(kernelrank.__file__), "kernelrank.pyi")


def parsed_arguments(args):
    """[(name, kind, default)] of an ast.arguments; kind 'positional' or 'keyword'."""
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [(a.arg, "positional", d) for a, d in zip(positional, defaults)]
    out += [(a.arg, "keyword", d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.vararg or args.kwarg:
        out.append(("*args/**kwargs", "variadic", None))
    return [(name, kind, None if d is None else ast.literal_eval(d)) for name, kind, d in out]


def module_signature(function):
    """The arguments pybind11 states in the first line of the docstring."""
    first = function.__doc__.splitlines()[0]
    head, _, _ = first.rpartition(") -> ")
    params = head[len(function.__name__) + 1:]
    return parsed_arguments(ast.parse("def f(%s): pass" % params).body[0].args)


def public_functions():
    return {name: getattr(kernelrank, name) for name in dir(kernelrank)
            if not name.startswith("_") and callable(getattr(kernelrank, name))
            and not isinstance(getattr(kernelrank, name), type)}


def public_classes():
    return {name: getattr(kernelrank, name) for name in dir(kernelrank)
            if not name.startswith("_") and isinstance(getattr(kernelrank, name), type)}


def stub_members(class_node):
    names = set()
    for node in class_node.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
    return names


class StubTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(STUB, encoding="utf-8") as f:
            cls.tree = ast.parse(f.read(), STUB)
        cls.functions = {n.name: n for n in cls.tree.body if isinstance(n, ast.FunctionDef)}
        cls.classes = {n.name: n for n in cls.tree.body  # _Name: a stub-only helper type
                       if isinstance(n, ast.ClassDef) and not n.name.startswith("_")}

    def test_functions_and_arguments(self):
        module = public_functions()
        self.assertEqual(sorted(self.functions), sorted(module))
        for name, function in module.items():
            with self.subTest(function=name):
                self.assertEqual(parsed_arguments(self.functions[name].args), module_signature(function))
                self.assertTrue(ast.get_docstring(self.functions[name]), name + " has no docstring")

    def test_classes_bases_and_attributes(self):
        module = public_classes()
        self.assertEqual(sorted(self.classes), sorted(module))
        for name, cls in module.items():
            with self.subTest(cls=name):
                node = self.classes[name]
                self.assertTrue(ast.get_docstring(node), name + " has no docstring")
                bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
                if issubclass(cls, BaseException):
                    self.assertEqual(bases, [b.__name__ for b in cls.__bases__])
                    continue
                own = {a for a in vars(cls) if not a.startswith("_")}
                own |= {a for a in ("__int__", "__bool__", "__len__", "__iter__") if a in vars(cls)}
                self.assertEqual(stub_members(node) - {"__repr__", "__init__"}, own)

    def test_docstrings_mirror_the_module(self):
        # The stubs repeat the module's docstrings for editors; they must not drift apart.
        for name, function in public_functions().items():
            with self.subTest(function=name):
                body = inspect.cleandoc("\n".join(function.__doc__.splitlines()[1:]))
                self.assertEqual(inspect.cleandoc(ast.get_docstring(self.functions[name])).strip(), body.strip())
        for name, cls in public_classes().items():
            if issubclass(cls, BaseException):
                continue
            node = self.classes[name]
            with self.subTest(cls=name):
                self.assertEqual(ast.get_docstring(node), inspect.cleandoc(cls.__doc__))
                fields = {}
                for a, b in zip(node.body, node.body[1:]):
                    if isinstance(a, ast.AnnAssign) and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant):
                        fields[a.target.id] = inspect.cleandoc(b.value.value)
                for attr, doc in fields.items():
                    self.assertEqual(doc, inspect.cleandoc(getattr(cls, attr).__doc__ or ""), attr)

    def test_the_stub_sits_next_to_the_module(self):
        # An editor finds stubs beside the extension module: same folder, the module's name.
        self.assertEqual(os.path.splitext(os.path.basename(STUB))[0], kernelrank.__name__)
        self.assertTrue(os.path.isfile(STUB))


if __name__ == "__main__":
    unittest.main()
