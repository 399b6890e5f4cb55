"""The AppTest level's own machinery: what tests/app/conftest.py changes in Streamlit to run fast."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app import conftest


def test_apptest_scans_the_installed_packages_once_per_process():
    """Streamlit 1.67's AppTest scans every installed package for component manifests on each new AppTest
    (streamlit.components.v2.manifest_scanner.scan_component_manifests, 1.2 s): conftest scans once. If this
    fails, Streamlit renamed or moved that scan, and every page an AppTest opens costs 1.2 s again."""
    from streamlit.components.v2 import manifest_scanner

    assert getattr(manifest_scanner.scan_component_manifests, "layerlab_once", False)
    for _ in range(2):
        at = AppTest.from_string("import streamlit as st\nst.write('hi')").run()
        assert not at.exception and at.markdown[0].value == "hi"
    (first,) = conftest.SCANS
    info = first.cache_info()
    assert info.misses == 1 and info.hits >= 1, info   # both AppTests asked; one real scan
