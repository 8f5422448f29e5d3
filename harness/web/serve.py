"""`cribbage-zx html --serve`: the edition's folder over HTTP on the loopback address, until Ctrl-C.

For a browser that refuses pages from file:// (play.html needs no server: everything is inside it).
Only 127.0.0.1 is bound, so nothing of the machine is offered to the network.
"""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Callable

from ..errors import OutputError

HOST = "127.0.0.1"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:      # one line a request would drown the URL
        pass


def server(folder: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server of *folder* on 127.0.0.1:*port* (0: a free port), not yet serving."""
    handler = functools.partial(_Quiet, directory=str(folder))
    try:
        return http.server.ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise OutputError(f"--port {port}: cannot listen on {HOST}:{port}: {exc.strerror or exc}") from exc


def serve(folder: Path, port: int, started: Callable[[str], None] | None = None,
          stop: threading.Event | None = None) -> None:
    """Serve *folder* until Ctrl-C (or *stop* is set); prints the page's address first."""
    httpd = server(folder, port)
    url = f"http://{HOST}:{httpd.server_address[1]}/play.html"
    print(f"serving {folder} at {url} (Ctrl-C stops)", flush=True)
    if started is not None:
        started(url)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    try:
        while thread.is_alive() and not (stop is not None and stop.is_set()):
            thread.join(0.2)                       # short waits: Ctrl-C is seen at once
    except KeyboardInterrupt:
        print("stopped")
    finally:
        httpd.shutdown()
        httpd.server_close()
