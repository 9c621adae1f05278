"""Package boundaries: no import cycles, and imports only go the allowed ways.

    services   the pure domain: imports nothing of the service's other packages
    infra      settings, logs, telemetry: imports neither api nor workers
    workers    may use services and infra, never api
    api        may use services and infra, and the workers only through workers.client

The graph is read from the source (tests/contracts/imports.py); tests/ and bench/ are not
part of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.contracts.imports import Graph, cycles, import_graph

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("services", "infra", "api", "workers")
# package → the packages it may not import (it may always import itself).
FORBIDDEN = {
    "services": {"infra", "api", "workers"},
    "infra": {"api", "workers"},
    "workers": {"api"},
    "api": set(),
}
WORKERS_CLIENT = "workers.client"  # the one module of workers that api may import


def forbidden_edges(graph: Graph) -> list[str]:
    """Each import that crosses a boundary, as `importer -> imported`."""
    found = []
    for module, targets in sorted(graph.items()):
        package = module.split(".")[0]
        for target in sorted(targets):
            other = target.split(".")[0]
            if other in FORBIDDEN.get(package, set()) or (
                package == "api" and other == "workers" and target != WORKERS_CLIENT
            ):
                found.append(f"{module} -> {target}")
    return found


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph(ROOT, PACKAGES)


def test_the_graph_covers_every_package(graph: Graph) -> None:
    # An empty or partial graph would make the two checks below pass vacuously.
    assert {module.split(".")[0] for module in graph} == set(PACKAGES)
    assert "workers.client" in graph["api.usecases.simulations"]
    assert "infra.settings" in graph["workers.app"]


def test_no_module_imports_itself_through_others(graph: Graph) -> None:
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(group) for group in found)


def test_imports_only_cross_package_boundaries_the_allowed_ways(graph: Graph) -> None:
    found = forbidden_edges(graph)
    assert found == [], "forbidden imports:\n" + "\n".join(found)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "workers/__init__.py": "",
            "workers/app.py": "from workers import metrics\n",
            "workers/metrics.py": "def f():\n    from workers.app import redis_url\n",
            "workers/jobs.py": "import workers.metrics\n",
        },
    )
    assert cycles(import_graph(tmp_path, ["workers"])) == [["workers.app", "workers.metrics"]]


def test_relative_and_type_checking_imports_are_read_as_python_reads_them(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        {
            "services/__init__.py": "",
            "services/dice/__init__.py": "from .roll import roll\n",
            "services/dice/roll.py": "from ..errors import Bad\n",
            "services/errors.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from services.dice.roll import roll\n"
            ),
        },
    )
    graph = import_graph(tmp_path, ["services"])
    assert graph["services.dice"] == {"services.dice.roll"}
    assert graph["services.dice.roll"] == {"services.errors"}
    assert graph["services.errors"] == set()  # never runs: not a dependency


def test_forbidden_edges_name_the_importer_and_the_imported(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "api/__init__.py": "",
            "api/sims.py": "from workers.tasks import submit\nfrom workers.client import Jobs\n",
            "workers/__init__.py": "",
            "workers/tasks.py": "from api.settings import Settings\n",
            "workers/client.py": "",
            "api/settings.py": "",
            "services/__init__.py": "",
            "services/dice.py": "import workers.client\n",
        },
    )
    graph = import_graph(tmp_path, ["api", "workers", "services"])
    assert forbidden_edges(graph) == [
        "api.sims -> workers.tasks",
        "services.dice -> workers.client",
        "workers.tasks -> api.settings",
    ]
