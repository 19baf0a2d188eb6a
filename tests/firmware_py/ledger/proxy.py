"""A TCP proxy on loopback between a ledger and its PostgreSQL server, for tests and
benchmarks of a slow or hung network.

``delay_s``: every chunk is delivered that much later, half on the way there and half on
the way back (so each round trip costs ``delay_s`` more, as network latency would);
``hang``: connections are accepted and read, and nothing is ever passed on or answered
(a server that accepts and never answers: a hung host, a stopped VM).  ``hang`` may be
switched on while connections are open: from then on nothing more is passed either way.
"""

from __future__ import annotations

import heapq
import socket
import threading
import time
from itertools import count


class DelayProxy:
    def __init__(self, target_port: int, delay_s: float = 0.0, hang: bool = False) -> None:
        self.target = ("127.0.0.1", target_port)
        self.delay_s = delay_s
        self.hang = hang
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self._closing = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="proxy accept", daemon=True).start()

    def url(self, server_url: str) -> str:
        """``server_url`` (a URL of the proxied server) through this proxy."""
        return server_url.replace(f":{self.target[1]}/", f":{self.port}/")

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._sockets.append(client)
            if self.hang:
                threading.Thread(target=self._swallow, args=(client,), daemon=True).start()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._sockets.append(server)
            for a, b in ((client, server), (server, client)):
                self._pump(a, b)

    def _swallow(self, sock: socket.socket) -> None:
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        """Read ``source``, write to ``sink`` ``delay_s / 2`` later, in order."""
        due: list[tuple[float, int, bytes]] = []
        ready = threading.Condition()
        seq = count()

        def read() -> None:
            try:
                while chunk := source.recv(65536):
                    with ready:
                        heapq.heappush(due, (time.monotonic() + self.delay_s / 2, next(seq), chunk))
                        ready.notify()
            except OSError:
                pass
            with ready:
                heapq.heappush(due, (time.monotonic() + self.delay_s / 2, next(seq), b""))
                ready.notify()

        def write() -> None:
            while True:
                with ready:
                    while not due or due[0][0] > time.monotonic():
                        ready.wait(None if not due else due[0][0] - time.monotonic())
                    _at, _n, chunk = heapq.heappop(due)
                if self.hang:
                    continue  # hung since: nothing more goes through
                try:
                    if not chunk:
                        sink.shutdown(socket.SHUT_WR)
                        return
                    sink.sendall(chunk)
                except OSError:
                    return

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()

    def close(self) -> None:
        self._closing = True
        self.listener.close()
        with self._lock:
            for sock in self._sockets:
                try:
                    sock.close()
                except OSError:
                    pass
