"""deploy/kubernetes/layerlab.yaml: the manifests parse and name only images, secrets, volumes and ports the
set has; the app's Deployment runs under `podman kube play` and its pod answers health.

Under podman 4.3 (Debian 12) three things differ from a cluster, and the test says each: a Secret is a
podman secret holding a JSON map of base64 values; an init container is restarted by the pod's `Always`
(so the migrate step is run here as its own container, with the same image, arguments and Secret); and
there is no Service DNS, so the played pod keeps its classes in SQLite (the PostgreSQL path is the
compose test's)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
import yaml

from tests.container.conftest import ROOT, free_port, http, podman, wait_for

MANIFESTS = ROOT / "deploy" / "kubernetes" / "layerlab.yaml"
IMAGES = {"localhost/layerlab:latest", "docker.io/library/postgres:16"}


def docs() -> list[dict]:
    return [d for d in yaml.safe_load_all(MANIFESTS.read_text()) if d]


def kind(name: str) -> list[dict]:
    return [d for d in docs() if d["kind"] == name]


def pod_specs() -> list[dict]:
    return [d["spec"]["template"]["spec"] for d in docs() if d["kind"] in ("Deployment", "StatefulSet")]


def test_the_manifests_name_only_what_the_set_has():
    secrets = {d["metadata"]["name"]: set(d["stringData"]) for d in kind("Secret")}
    services = {d["metadata"]["name"]: d for d in kind("Service")}
    for spec in pod_specs():
        for c in spec.get("initContainers", []) + spec["containers"]:
            assert c["image"] in IMAGES, c["image"]
            for env in c.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ref["key"] in secrets[ref["name"]], ref
            port_names = {p["name"] for p in c.get("ports", [])}
            for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                port = c.get(probe, {}).get("httpGet", {}).get("port")
                assert port is None or port in port_names, (c["name"], probe)
    for sts in kind("StatefulSet"):
        claims = {t["metadata"]["name"] for t in sts["spec"]["volumeClaimTemplates"]}
        mounts = {m["name"] for c in sts["spec"]["template"]["spec"]["containers"] for m in c["volumeMounts"]}
        assert mounts <= claims and sts["spec"]["serviceName"] in services
    for svc in services.values():   # each Service selects pods the set makes, on a port they name
        sel = svc["spec"]["selector"]
        pods = [d["spec"]["template"] for d in docs() if d["kind"] in ("Deployment", "StatefulSet")
                and sel.items() <= d["spec"]["template"]["metadata"]["labels"].items()]
        assert pods, svc["metadata"]["name"]
        names = {p["name"] for t in pods for c in t["spec"]["containers"] for p in c.get("ports", [])}
        assert {p["targetPort"] for p in svc["spec"]["ports"]} <= names
    for ing in kind("Ingress"):
        for rule in ing["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                assert path["backend"]["service"]["name"] in services
        notes = ing["metadata"]["annotations"]
        assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
        assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600   # the websocket
    db_url = kind("Secret")[0]["stringData"]["db-url"]
    assert "@layerlab-db:5432/" in db_url and "layerlab-db" in services


@pytest.fixture
def played(image, tmp_path: Path):
    secret = kind("Secret")[0]
    values = {**secret["stringData"], "db-url": "sqlite:////tmp/classes.sqlite3"}
    dep = kind("Deployment")[0]
    dep["spec"]["replicas"] = 1
    spec = dep["spec"]["template"]["spec"]
    init = spec.pop("initContainers")
    port = free_port()
    for c in init + spec["containers"]:
        c["image"] = image
    spec["containers"][0]["ports"][0].update(hostPort=port, hostIP="127.0.0.1")
    (tmp_path / "secret.json").write_text(json.dumps({k: base64.b64encode(v.encode()).decode()
                                                      for k, v in values.items()}))
    (tmp_path / "deployment.yaml").write_text(yaml.safe_dump(dep))
    name = secret["metadata"]["name"]
    podman("kube", "down", str(tmp_path / "deployment.yaml"), check=False)
    podman("secret", "rm", name, check=False)
    podman("secret", "create", name, str(tmp_path / "secret.json"))
    try:
        yield tmp_path / "deployment.yaml", init[0], port, values
    finally:
        podman("kube", "down", str(tmp_path / "deployment.yaml"), check=False)
        podman("secret", "rm", name, check=False)


def test_the_deployment_plays_and_its_pod_answers_health(played):
    manifest, init, port, values = played
    env = [a for e in init["env"]
           for a in ("-e", f"{e['name']}={values[e['valueFrom']['secretKeyRef']['key']]}")]
    out = podman("run", "--rm", *env, init["image"], *init["args"], timeout=180)   # the init step, once
    assert "at the newest schema" in out.stderr
    podman("kube", "play", str(manifest), timeout=180)
    app = dict(yaml.safe_load(manifest.read_text())["spec"]["template"]["spec"]["containers"][0])
    live, ready = app["livenessProbe"]["httpGet"]["path"], app["readinessProbe"]["httpGet"]["path"]
    wait_for(lambda: http(f"http://127.0.0.1:{port}{live}")[1] == "ok", 180, "the pod's liveness probe")
    assert wait_for(lambda: http(f"http://127.0.0.1:{port}{ready}", timeout=30)[0] == 200, 60,
                    "the pod's readiness probe (a page draws)")
