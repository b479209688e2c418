"""The layout rules: harness/ and tools/ are Ray-free, and each package imports only the layers below it."""

from __future__ import annotations

import ast
import builtins
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_harness_and_tools_import_without_ray() -> None:
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for package in ("harness", "tools", "config", "stores", "clients")
        for path in (ROOT / package).rglob("*.py")
        if path.name != "__init__.py"
    )
    assert "stores.invocation_store" in modules
    script = "; ".join([*(f"import {name}" for name in modules), "import sys", "print('ray' in sys.modules)"])
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_harness_imports_no_infrastructure() -> None:
    """harness/ talks to ports: SQL, Redis and HTTP live in stores/ and clients/."""
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "harness").rglob("*.py")
        if path.name != "__init__.py"
    )
    infrastructure = ("sqlalchemy", "redis", "fakeredis", "aiohttp", "ray")
    script = "; ".join(
        [
            *(f"import {name}" for name in modules),
            "import sys",
            f"print([m for m in {infrastructure} if m in sys.modules])",
        ]
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


PROJECT = frozenset(
    {"contract", "config", "harness", "tools", "offline_model", "stores", "clients", "actors", "gateway", "cli"}
)
LAYERS: dict[str, frozenset[str]] = {
    "contract": PROJECT - {"contract"},
    "config": frozenset({"actors", "gateway", "cli", "harness", "tools", "offline_model", "stores", "clients"}),
    "harness": frozenset({"actors", "gateway", "cli", "tools", "offline_model", "stores", "clients"}),
    "tools": PROJECT - {"tools", "contract", "config"},
    "stores": frozenset({"actors", "gateway", "cli", "tools", "offline_model", "clients"}),
    "clients": frozenset({"actors", "gateway", "cli", "tools", "offline_model", "stores"}),
    "offline_model": frozenset({"actors", "gateway", "cli", "stores", "clients"}),
    "actors": frozenset({"gateway", "cli"}),
    "gateway": frozenset({"cli"}),
}
"""What each package must never import. ``contract`` is the shared vocabulary: it imports nothing of the
project, so every other package may depend on it."""


def imported_packages(path: Path, root: Path) -> set[str]:
    """The project's top-level packages ``path`` imports (absolute or relative, at any depth, TYPE_CHECKING too)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = path.relative_to(root).parts[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = [*package[: len(package) - node.level + 1]] if node.level else []
            target += node.module.split(".") if node.module else []
            found.add(target[0] if target else "")
    return found & PROJECT


def layering_violations(root: Path) -> list[str]:
    return [
        f"{path.relative_to(root)} imports {imported}"
        for package, forbidden in LAYERS.items()
        for path in sorted((root / package).rglob("*.py"))
        for imported in sorted(imported_packages(path, root) & forbidden)
    ]


def test_each_package_imports_only_the_layers_below_it() -> None:
    assert layering_violations(ROOT) == []


def test_the_layering_check_finds_a_forbidden_import(tmp_path: Path) -> None:
    for package, source in {
        "tools/logs": "from harness.errors import HarnessError\n",
        "contract": "import config.schema\n",
        "harness": "if TYPE_CHECKING:\n    from actors.supervisor import RunSupervisor\n",
        "actors": "from ..gateway import app\n",
    }.items():
        (tmp_path / package).mkdir(parents=True)
        (tmp_path / package / "module.py").write_text(source)
    assert layering_violations(tmp_path) == [
        "contract/module.py imports config",
        "harness/module.py imports actors",
        "tools/logs/module.py imports harness",
        "actors/module.py imports gateway",
    ]


PRODUCT = [*sorted(PROJECT), "bench"]
MAX_MODULE_LINES, MAX_FUNCTION_LINES, MAX_CLASS_METHODS = 400, 60, 20
LONG_MODULES = frozenset({"bench/load.py"})
"""The load bench (one script that starts, drives and reports every level) may be longer."""


def size_violations(root: Path) -> list[str]:
    """Modules over 400 lines, functions over 60 and classes with over 20 methods of their own."""
    found = []
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            name, source = str(path.relative_to(root)), path.read_text()
            if source.count("\n") > MAX_MODULE_LINES and name not in LONG_MODULES:
                found.append(f"{name}: {source.count(chr(10))} lines")
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    if (length := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES:
                        found.append(f"{name}:{node.lineno} {node.name}: {length} lines")
                elif isinstance(node, ast.ClassDef):
                    methods = sum(isinstance(each, ast.FunctionDef | ast.AsyncFunctionDef) for each in node.body)
                    if methods > MAX_CLASS_METHODS:
                        found.append(f"{name}:{node.lineno} {node.name}: {methods} methods")
    return found


def test_no_module_function_or_class_is_too_large() -> None:
    assert size_violations(ROOT) == []


def test_the_size_check_finds_a_long_function_and_a_large_class(tmp_path: Path) -> None:
    (tmp_path / "harness").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    methods = "".join(f"    def m{i}(self): ...\n" for i in range(21))
    (tmp_path / "harness" / "big.py").write_text(f"def long():\n{body}\n\nclass Wide:\n{methods}")
    assert size_violations(tmp_path) == ["harness/big.py:1 long: 61 lines", "harness/big.py:64 Wide: 21 methods"]


ROOT_ERROR = ("contract/vocabulary.py", "HarnessError")
BUILTIN_ERRORS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
)


def errors_off_the_root(root: Path) -> list[str]:
    """Exception classes of the product that derive from a built-in exception instead of the one root."""
    found = []
    for package in sorted(PROJECT):
        for path in sorted((root / package).rglob("*.py")):
            name = str(path.relative_to(root))
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef) and (name, node.name) != ROOT_ERROR:
                    bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
                    found += [f"{name}: {node.name}({base})" for base in sorted(bases & BUILTIN_ERRORS)]
    return found


def test_every_error_the_product_raises_derives_from_the_one_root() -> None:
    assert errors_off_the_root(ROOT) == []


def test_the_root_check_finds_an_error_off_the_root(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "x.py").write_text("class Broken(ValueError): ...\nclass Fine(HarnessError): ...\n")
    assert errors_off_the_root(tmp_path) == ["tools/x.py: Broken(ValueError)"]
