"""Resolution on the miniatures table never depends on floating point (issue #12, "Done when").

The audit replays every adjudication on other machines, so the plane geometry and whatever a
miniatures ruleset's `resolve` reaches must be integer (or `Fraction`) arithmetic only. This is
a static check: every module in scope is parsed with `ast` and may not contain

- a float (or complex) literal,
- the true division operator `/` or `/=` (even on a `Fraction`: exact division is spelled
  `Fraction(n, d)` or `//`, so a stray `/` on an int can never slip in unnoticed),
- a call of `float(...)` or `complex(...)`,
- `import math` (under any alias) or `from math import` anything but the integer-only
  functions in `MATH_INTEGER_ONLY`,
- any import of a module in `FORBIDDEN_MODULES` (or of one of their submodules), nor a
  dynamic `__import__` / `importlib.import_module` of one.

Scope: `pbem/geometry/plane.py`, `pbem/geometry/tablemap.py`, the modules of the shared ruleset
kit whose names start with `table` or `positions`, every module of the miniatures rulesets
`pbem/rulesets/bst/` and `pbem/rulesets/wtj1916/` (those that exist), and every `pbem.geometry`
module they import (the hex games' `hexgrid` and `hexmap` aside).
`test_the_check_catches_each_forbidden_thing` proves the check is a real one.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pbem"

# math functions that take and return integers only (no float can come out of them on ints)
MATH_INTEGER_ONLY = frozenset({"isqrt", "gcd", "lcm", "comb", "perm", "factorial", "prod"})
FORBIDDEN_MODULES = frozenset({
    "math", "cmath", "shapely", "numpy", "decimal", "statistics", "random", "time", "datetime",
})
FORBIDDEN_CALLS = frozenset({"float", "complex"})
MINIATURES_RULESETS = ("bst", "wtj1916")


@dataclass(frozen=True)
class Violation:
    line: int
    what: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}"


def _root_module(name: str) -> str:
    return name.split(".", 1)[0]


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def violations(source: str, filename: str = "<snippet>") -> list[Violation]:
    """Every float-prone construct in a module's source, in line order."""
    tree = ast.parse(source, filename=filename)
    found: list[Violation] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, (float, complex)):
            found.append(Violation(line, f"{type(node.value).__name__} literal {node.value!r}"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append(Violation(line, "true division `/`"))
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div):
            found.append(Violation(line, "true division `/=`"))
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in FORBIDDEN_CALLS or name in {f"builtins.{n}" for n in FORBIDDEN_CALLS}:
                found.append(Violation(line, f"call of {name}()"))
            if name in ("__import__", "importlib.import_module", "import_module") and node.args:
                first = node.args[0]
                if (isinstance(first, ast.Constant) and isinstance(first.value, str)
                        and _root_module(first.value) in FORBIDDEN_MODULES):
                    found.append(Violation(line, f"dynamic import of {first.value}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _root_module(alias.name) in FORBIDDEN_MODULES:
                    found.append(Violation(line, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and module == "math":
                for alias in node.names:
                    if alias.name not in MATH_INTEGER_ONLY:
                        found.append(Violation(line, f"from math import {alias.name}"))
            elif node.level == 0 and _root_module(module) in FORBIDDEN_MODULES:
                found.append(Violation(line, f"from {module} import ..."))
    return sorted(found, key=lambda v: (v.line, v.what))


HEX_MODULES = frozenset({"pbem.geometry.hexgrid", "pbem.geometry.hexmap"})  # the hex games' own


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _geometry_imports(path: Path) -> set[str]:
    """The `pbem.geometry` modules a module imports (at any depth in its code)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)  # `from pkg import mod`
    return {name for name in found if name.startswith("pbem.geometry.")}


def modules_in_scope() -> list[Path]:
    """The modules a miniatures adjudication's answers come from: the plane, the table map,
    the kit's table and positions modules, every module of the miniatures rulesets, and every
    `pbem.geometry` module any of them imports, transitively (but the hex modules)."""
    roots = [PACKAGE / "geometry" / "plane.py", PACKAGE / "geometry" / "tablemap.py"]
    kit = PACKAGE / "rulesets" / "kit"
    roots += sorted(p for p in kit.glob("*.py") if p.name.startswith(("table", "positions")))
    for ruleset in MINIATURES_RULESETS:
        folder = PACKAGE / "rulesets" / ruleset
        if folder.is_dir():
            roots += sorted(folder.rglob("*.py"))
    todo = [p for p in roots if p.exists()]
    seen: dict[Path, None] = {}
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen[path] = None
        for name in sorted(_geometry_imports(path) - HEX_MODULES):
            target = ROOT.joinpath(*name.split(".")).with_suffix(".py")
            if target.exists():
                todo.append(target)
    return list(seen)


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_scope_finds_the_miniatures_modules() -> None:
    names = {_relative(p) for p in modules_in_scope()}
    assert "pbem/geometry/plane.py" in names
    for optional in ("pbem/geometry/tablemap.py", "pbem/rulesets/kit/positions.py"):
        if (ROOT / optional).exists():
            assert optional in names
    if (PACKAGE / "geometry" / "tablemap.py").exists() and (PACKAGE / "geometry" / "fields.py").exists():
        assert "pbem/geometry/fields.py" in names  # what the table map imports comes along
    assert not {"pbem/geometry/hexgrid.py", "pbem/geometry/hexmap.py"} & names


@pytest.mark.parametrize("path", modules_in_scope(), ids=_relative)
def test_module_has_no_float_arithmetic(path: Path) -> None:
    assert [str(v) for v in violations(path.read_text(encoding="utf-8"), str(path))] == []


def test_a_scoped_module_with_a_violation_fails(tmp_path: Path) -> None:
    """The per-module test reads real files: a module with `math.sin` in it is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("from math import sin\n\ndef f(x: int) -> int:\n    return int(sin(x) * 2)\n")
    assert [v.line for v in violations(bad.read_text(), str(bad))] == [1]


# --- the check itself is a real one ------------------------------------------------------------

FORBIDDEN_SNIPPETS = {
    "float literal": "x = 1.5\n",
    "float literal in exponent form": "x = 1e3\n",
    "complex literal": "x = 2j\n",
    "true division": "def f(a: int, b: int) -> int:\n    return a / b\n",
    "true division in augmented assignment": "x = 4\nx /= 2\n",
    "float call": "x = float(3)\n",
    "float call through builtins": "import builtins\nx = builtins.float(3)\n",
    "complex call": "x = complex(1, 2)\n",
    "import math": "import math\n",
    "import math under an alias": "import math as m\n",
    "from math import sin": "from math import sin\n",
    "from math import a float function beside isqrt": "from math import isqrt, atan2\n",
    "from math import sqrt": "from math import sqrt\n",
    "import shapely": "import shapely\n",
    "import shapely submodule": "import shapely.geometry\n",
    "from shapely import": "from shapely.geometry import Polygon\n",
    "import numpy": "import numpy as np\n",
    "import cmath": "import cmath\n",
    "from decimal import": "from decimal import Decimal\n",
    "import statistics": "import statistics\n",
    "import random": "import random\n",
    "from random import": "from random import randint\n",
    "import time": "import time\n",
    "import datetime": "import datetime\n",
    "from datetime import": "from datetime import date\n",
    "dynamic import": "m = __import__('math')\n",
    "importlib import": "import importlib\nm = importlib.import_module('numpy.linalg')\n",
    "division nested in a function": "class A:\n    def f(self) -> int:\n        return [1 / 3][0]\n",
}


@pytest.mark.parametrize("snippet", FORBIDDEN_SNIPPETS.values(), ids=list(FORBIDDEN_SNIPPETS))
def test_the_check_catches_each_forbidden_thing(snippet: str) -> None:
    assert violations(snippet) != []


def test_the_check_names_the_line() -> None:
    found = violations("a = 1\nb = 2\nc = a / b\nd = 0.5\n")
    assert [v.line for v in found] == [3, 4]
    assert "division" in found[0].what and "float" in found[1].what


def test_the_check_passes_integer_code() -> None:
    clean = (
        "from __future__ import annotations\n"
        "from fractions import Fraction\n"
        "from math import isqrt, gcd, comb, prod, lcm\n"
        "import json\n"
        "from pbem.geometry import plane\n"
        "def f(a: int, b: int) -> Fraction:\n"
        "    x: float | None = None  # an annotation is not a call\n"
        "    a //= 2\n"
        "    s = 'a / b = 1.5'  # text is not arithmetic\n"
        "    return Fraction(a, b) + isqrt(a * a) + (a // b) + (a % b) + 10 ** 3\n"
        "from math import isqrt as root\n"
    )
    assert violations(clean) == []


def test_the_shipped_sine_table_is_whole_numbers() -> None:
    """The table is data read with `json`, which would hand back floats for `0.5`: every entry
    (and the scale) must be an int."""
    import json

    data = json.loads((PACKAGE / "geometry" / "sine.json").read_text(encoding="utf-8"))
    assert type(data["scale"]) is int and len(data["sine"]) == 91
    assert all(type(v) is int for v in data["sine"])
