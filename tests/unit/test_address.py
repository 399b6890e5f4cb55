"""ui.address: links built on a page opened at a loopback address name the machine's network address."""

from __future__ import annotations

from ui import address


def test_loopback_hosts_are_swapped_for_the_network_address(monkeypatch):
    monkeypatch.setattr(address, "network_ip", lambda: "10.1.2.3")
    want = ("http://10.1.2.3:8501/trainer?x=1", True)
    assert address.reachable("http://localhost:8501/trainer?x=1") == want
    assert address.reachable("http://127.0.0.1:8501/") == ("http://10.1.2.3:8501/", True)
    assert address.reachable("http://[::1]:8501/") == ("http://10.1.2.3:8501/", True)
    site = "https://class.example.org/trainer"
    assert address.reachable(site) == (site, False)
    assert address.reachable("http://192.168.1.5:8501/x") == ("http://192.168.1.5:8501/x", False)


def test_without_a_network_the_address_is_left_as_it_is(monkeypatch):
    monkeypatch.setattr(address, "network_ip", lambda: None)
    assert address.reachable("http://localhost:8501/") == ("http://localhost:8501/", False)


def test_the_network_address_is_not_a_loopback_one():
    ip = address.network_ip()
    assert ip is None or not address.is_loopback(ip)


def test_the_public_address_set_for_a_container_is_what_links_name(monkeypatch):
    """In a container the page is opened through a published port or an ingress the process cannot see:
    LAYERLAB_PUBLIC_URL names it, and a link keeps its path and query on it."""
    monkeypatch.setattr(address, "network_ip", lambda: "10.88.0.5")   # the container's own, unreachable
    monkeypatch.setenv("LAYERLAB_PUBLIC_URL", "https://layerlab.school.example/")
    want = ("https://layerlab.school.example/class?code=ABCDEF", False)
    assert address.reachable("http://localhost:8501/class?code=ABCDEF") == want
    assert address.reachable("http://10.88.0.5:8501/class?code=ABCDEF") == want
    monkeypatch.setenv("LAYERLAB_PUBLIC_URL", "not an address")
    assert address.reachable("http://localhost:8501/x") == ("http://10.88.0.5:8501/x", True)
