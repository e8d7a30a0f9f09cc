#!/usr/bin/env python3
"""The layers are a fact of the build: a source that includes a header of a higher layer does
not compile with its own library's command (CMakeLists.txt gives each library the include
roots of its own layer and of the layers it links, nothing else).

Usage: check_upward_compile.py BUILD_DIR SOURCE_DIR

Compiles (syntax only) copies of src/core/token.cpp, each with one line added at the top, with
the exact command of a kernelrank_core object from BUILD_DIR/compile_commands.json:
  - unchanged: must compile (so that a failure below is the include's, not the command's);
  - with #include <eval/eval_report.hpp> or #include "kernelrank/eval/evaluate.hpp": must
    fail, naming the header it could not find; with kernelrank_eval's command the same copy
    must compile (the header exists, only the layer order hides it);
  - with #include <eval/eval_report.hpp> (an internal header of eval) under kernelrank_bounds's
    command, a layer above eval: must fail too (internal headers are their layer's own), while
    eval's public "kernelrank/eval/evaluate.hpp" compiles there.
The same for the checker: src/check/sha256.cpp with a producer header added must not compile
with kernelrank_check_lib's command, whose only root holds the checker.
Exit 0 when every case behaves so, 1 otherwise.
"""
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

# Flags that name files of the real compile (its object, its source, its dependency file).
WITH_ARGUMENT = {"-o", "-c", "-MF", "-MT", "-MQ"}
ALONE = {"-MD", "-MMD"}


def command_of(database, target):
    """The directory and arguments of the first compile of an object of `target`."""
    marker = f"CMakeFiles/{target}.dir/"
    for entry in database:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        if "-o" in arguments and marker in arguments[arguments.index("-o") + 1]:
            return entry["directory"], arguments
    return None


def syntax_only(command, source):
    """`command` turned into a syntax check of `source`: (exit code, compiler output)."""
    directory, arguments = command
    kept, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in WITH_ARGUMENT:
            skip = True
        elif argument not in ALONE:
            kept.append(argument)
    done = subprocess.run(kept + ["-fsyntax-only", str(source)], cwd=directory,
                          capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main():
    if len(sys.argv) != 3:
        print("usage: check_upward_compile.py BUILD_DIR SOURCE_DIR", file=sys.stderr)
        return 2
    build, source_dir = Path(sys.argv[1]), Path(sys.argv[2])
    database = json.loads((build / "compile_commands.json").read_text())
    commands = {}
    for target in ("kernelrank_core", "kernelrank_eval", "kernelrank_bounds",
                   "kernelrank_check_lib"):
        commands[target] = command_of(database, target)
        if commands[target] is None:
            print(f"FAIL: no compile of {target} in {build}/compile_commands.json")
            return 1

    token = (source_dir / "src/core/token.cpp").read_text()
    sha256 = (source_dir / "src/check/sha256.cpp").read_text()
    # (name, original text, added line, the missing header it must name or None, target,
    #  must compile)
    cases = [
        ("core/token.cpp", token, None, None, "kernelrank_core", True),
        ("core/token.cpp", token, "#include <eval/eval_report.hpp>", "eval/eval_report.hpp",
         "kernelrank_core", False),
        ("core/token.cpp", token, '#include "kernelrank/eval/evaluate.hpp"',
         "kernelrank/eval/evaluate.hpp", "kernelrank_core", False),
        ("core/token.cpp", token, "#include <eval/eval_report.hpp>", None, "kernelrank_eval",
         True),
        ("core/token.cpp", token, '#include "kernelrank/eval/evaluate.hpp"', None,
         "kernelrank_eval", True),
        ("core/token.cpp", token, "#include <eval/eval_report.hpp>", "eval/eval_report.hpp",
         "kernelrank_bounds", False),
        ("core/token.cpp", token, '#include "kernelrank/eval/evaluate.hpp"', None,
         "kernelrank_bounds", True),
        ("check/sha256.cpp", sha256, None, None, "kernelrank_check_lib", True),
        ("check/sha256.cpp", sha256, '#include "kernelrank/core/token.hpp"',
         "kernelrank/core/token.hpp", "kernelrank_check_lib", False),
        ("check/sha256.cpp", sha256, "#include <core/atomic_write.hpp>", "core/atomic_write.hpp",
         "kernelrank_check_lib", False),
    ]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for index, (name, text, line, missing, target, compiles) in enumerate(cases):
            copy = Path(tmp) / f"case{index}_{Path(name).name}"
            copy.write_text((line + "\n" if line else "") + text)
            code, output = syntax_only(commands[target], copy)
            what = f"{name} {'with ' + line if line else 'unchanged'} ({target}'s command)"
            if compiles and code != 0:
                failures.append(f"{what} should compile:\n{output}")
            elif not compiles and code == 0:
                failures.append(f"{what} should not compile")
            elif not compiles and f"{missing}: No such file" not in output:
                failures.append(f"{what} should fail for want of {missing}:\n{output}")
            else:
                print(f"ok: {what} {'compiles' if compiles else 'does not compile'}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
