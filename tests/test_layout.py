"""The layout rules: harness/ and tools/ are Ray-free, and each package imports only the layers below it."""

from __future__ import annotations

import ast
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
    "config": frozenset(
        {"actors", "gateway", "cli", "harness", "tools", "offline_model", "stores", "clients", "contract"}
    ),
    "harness": frozenset({"actors", "gateway", "cli", "tools", "offline_model", "stores", "clients"}),
    "tools": frozenset({"actors", "gateway", "cli", "harness", "offline_model", "stores", "clients"}),
    "stores": frozenset({"actors", "gateway", "cli", "tools", "offline_model", "clients"}),
    "clients": frozenset({"actors", "gateway", "cli", "tools", "offline_model", "stores"}),
    "offline_model": frozenset({"actors", "gateway", "cli"}),
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
