"""Links students can reach: the address a page was opened at, or, when that is a loopback address
(the teacher opened localhost or 127.0.0.1), the machine's network address instead, as Streamlit's own
"Network URL" is found (a UDP socket "connected" to a public address: no packet is sent).

Behind a balancer, an ingress or a container's published port, the address a student reaches is not one
this process can see: LAYERLAB_PUBLIC_URL (e.g. https://layerlab.school.example) then says it, and every
link keeps its path and query on that address."""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import os
import socket
from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

LOOPBACK_NOTE = ("This page was opened on this machine's own address, which no other machine can reach: "
                 "links here use its network address, {host}.")


@functools.cache
def network_ip() -> str | None:
    """This machine's address on its network (None when it has none but loopback)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))          # TEST-NET-1: routing decides the source address; nothing is sent
        ip = s.getsockname()[0]
        return None if ipaddress.ip_address(ip).is_loopback else ip
    return None


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    return False


def public() -> str:
    """LAYERLAB_PUBLIC_URL as 'scheme://host[:port]' ('' when unset)."""
    text = os.environ.get("LAYERLAB_PUBLIC_URL", "").strip()
    parts = urlsplit(text)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def reachable(url: str) -> tuple[str, bool]:
    """`url` on LAYERLAB_PUBLIC_URL when that is set, else with a loopback host swapped for the network
    address: (the url, whether a loopback host was swapped)."""
    parts = urlsplit(url)
    if public() and parts.netloc:
        scheme, netloc = public().split("://", 1)
        return urlunsplit(parts._replace(scheme=scheme, netloc=netloc)), False
    host = parts.hostname or ""
    if not is_loopback(host):
        return url, False
    ip = network_ip()
    if ip is None:
        return url, False
    netloc = ip + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), True


def page_url() -> str:
    """The address the page was opened at (st.context.url; '' under AppTest)."""
    with contextlib.suppress(AttributeError, RuntimeError):
        return st.context.url or ""
    return ""


def base() -> tuple[str, bool]:
    """'scheme://host:port' students can reach, and whether it had to be swapped from a loopback one."""
    url = page_url()
    if "://" not in url:
        return "", False
    parts = urlsplit(url)
    return reachable(urlunsplit((parts.scheme, parts.netloc, "", "", "")))


def page_link(params: list[tuple[str, str]], where: str = "") -> str:
    """This page's address, one students can reach, with `params` as its query: the one share-link
    builder (the trainer's link, the class link box, a short link's root). `where`: the address under
    AppTest, which has none."""
    url = page_url()
    base = reachable(url.split("?")[0])[0] if url else where
    return base + ("?" + urlencode(params) if params else "")
