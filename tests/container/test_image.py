"""The image: built on the base made here, within its size, non-root, nothing of a build left; run alone, its
health answers and every lesson page draws in Chromium through the container's published port."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.container.conftest import BASE, free_port, healthy, http, logs, podman, wait_for
from tests.deploy.conftest import isolated

PROJECT_MB = 850    # the project's own layers over the base (issue 46)


@pytest.fixture(scope="module")
def running(image):
    port = free_port()
    name = "layerlab-test-alone"
    podman("rm", "-f", name, check=False)
    podman("run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8501",
           "-e", f"LAYERLAB_PUBLIC_URL=http://127.0.0.1:{port}", image)
    try:
        wait_for(lambda: http(f"http://127.0.0.1:{port}/_stcore/health")[1] == "ok", 120, "the app's health")
        yield name, port
    finally:
        podman("rm", "-f", "-t", "5", name, check=False)


def test_the_project_layers_stay_within_their_size(image):
    size = int(podman("image", "inspect", "--format", "{{.Size}}", image).stdout)
    base = int(podman("image", "inspect", "--format", "{{.Size}}", BASE).stdout)
    history = podman("history", "--format", "{{.Size}}\t{{.CreatedBy}}", image).stdout
    print(f"\nimage {size / 1e6:.0f} MB = base {base / 1e6:.0f} MB + project {(size - base) / 1e6:.0f} MB\n"
          + "\n".join(line[:110] for line in history.splitlines() if not line.startswith("0 B")))
    assert (size - base) / 1e6 < PROJECT_MB, f"project layers {(size - base) / 1e6:.0f} MB"


def test_it_runs_as_a_user_with_no_build_tools_left(image):
    out = podman("run", "--rm", "--entrypoint", "sh", image, "-c",
                 "id -u; command -v pip gcc cc || true; ls /root/.cache 2>/dev/null | wc -l; "
                 "touch /app/x 2>/dev/null && echo writable || echo read-only").stdout.split()
    assert out[0] == "10001" and out[1:] == ["0", "read-only"], out   # no pip, no compiler, no cache
    config = json.loads(podman("image", "inspect", image).stdout)[0]
    assert config["Config"]["Cmd"] == ["streamlit", "run", "app.py"]
    assert config["Config"]["Entrypoint"] == ["/app/deploy/container/start"]
    check = json.loads(podman("image", "inspect", "--format", "{{json .HealthCheck}}", image).stdout)
    assert check["Test"] == ["CMD", "/app/deploy/container/start", "health"]   # kept: built --format docker


def test_health_answers_and_the_healthcheck_passes(running):
    name, port = running
    assert http(f"http://127.0.0.1:{port}/_stcore/script-health-check", timeout=30)[0] == 200
    assert wait_for(lambda: healthy(name), 60, "the HEALTHCHECK")
    assert "Traceback" not in logs(name)


def test_every_lesson_page_draws_in_chromium_through_the_port(running):
    from ui.nav import HOME, LESSONS

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.skip("needs Chromium (apt-get install chromium)")
    name, port = running
    paths = [HOME.url_path, *(lesson.url_path for lesson in LESSONS)]
    isolated(_draw_each, chromium, f"http://127.0.0.1:{port}", paths)
    assert "Traceback" not in logs(name)


def _draw_each(chromium: str, base: str, paths: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import assert_clean, wait_ready

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            for path in paths:
                page.goto(f"{base}/{path}")
                wait_ready(page, timeout=120_000)
                assert_clean(page)
                assert page.inner_text("[data-testid='stMain']").strip(), f"/{path} drew nothing"
        finally:
            browser.close()
