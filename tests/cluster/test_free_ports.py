"""Ports a raylet is started with are picked free and distinct: Ray refuses to start a node whose
two components were given one port, and a port freed by one pick can be handed out by the next
(it was, once, in CI: object manager and dashboard agent on the same port)."""

from __future__ import annotations

import socket

from ibench.cluster import rayprocs
from ibench.cluster.rayprocs import free_ports


class _EagerKernel:
    """A socket whose bind to port 0 gets the lowest port no open socket of it holds: a kernel
    that hands a freed port out again at once."""

    open_ports: set[int] = set()

    def __init__(self, *args):
        self.port = None

    def bind(self, address):
        self.port = next(p for p in range(40000, 41000) if p not in self.open_ports)
        self.open_ports.add(self.port)

    def getsockname(self):
        return ("0.0.0.0", self.port)

    def close(self):
        self.open_ports.discard(self.port)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def test_free_ports_are_distinct_even_where_a_freed_port_comes_back_at_once(monkeypatch):
    monkeypatch.setattr(rayprocs.socket, "socket", _EagerKernel)
    ports = free_ports(8)
    assert len(set(ports)) == 8, ports
    assert not _EagerKernel.open_ports, "a socket was left open"


def test_free_ports_are_free():
    for port in free_ports(4):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("", port))  # nothing holds it any more
