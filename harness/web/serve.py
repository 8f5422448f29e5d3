"""`cribbage-zx html --serve`: the edition's folder over HTTP on the loopback address, until Ctrl-C.

For a browser that refuses pages from file:// (play.html needs no server: everything is inside it).
Only 127.0.0.1 is bound, so nothing of the machine is offered to the network; and only the regular files
inside the folder are served: no dot file (the folder's lock and record, an editor's swap file), nothing a
symlink reaches outside the folder, no listing of a folder (a folder's index.html, if it has one). Anything
else is 404, as a file that is not there. Ctrl-C stops it as it stops any command (status 130).
"""
from __future__ import annotations

import functools
import http.server
import os
import stat
import threading
import urllib.parse
from pathlib import Path
from typing import Callable

from ..errors import OutputError

HOST = "127.0.0.1"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:      # one line a request would drown the URL
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        """The file of the request if `servable`, else 404."""
        path = servable(Path(self.directory), urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0]))
        if path is None:
            self.send_error(404, "File not found")
            return None
        return super().send_head()                 # the same file: translate_path reads the same URL path

    def list_directory(self, path):  # type: ignore[no-untyped-def]
        self.send_error(404, "File not found")                        # no listing of a folder
        return None


def servable(root: Path, url_path: str) -> Path | None:
    """The regular file *url_path* names inside *root* (a folder's index.html), or None: a dot file or dot
    folder on the way, a path that leaves *root* (.., a symlink out), a folder without index.html, anything
    that is not a regular file."""
    parts = [p for p in url_path.split("/") if p not in ("", ".")]
    if any(p.startswith(".") or "\\" in p or "\0" in p for p in parts):
        return None
    base = os.path.realpath(root)
    path = os.path.realpath(os.path.join(base, *parts))
    if path != base and not path.startswith(base + os.sep):
        return None
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            path = os.path.realpath(os.path.join(path, "index.html"))
            if not path.startswith(base + os.sep):
                return None
            info = os.stat(path)
    except OSError:
        return None
    return Path(path) if stat.S_ISREG(info.st_mode) else None


def server(folder: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server of *folder* on 127.0.0.1:*port* (0: a free port), not yet serving."""
    handler = functools.partial(_Quiet, directory=str(folder))
    try:
        return http.server.ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise OutputError(f"--port {port}: cannot listen on {HOST}:{port}: {exc.strerror or exc}") from exc


def serve(folder: Path, port: int, started: Callable[[str], None] | None = None,
          stop: threading.Event | None = None, page: str = "play.html") -> None:
    """Serve *folder* until Ctrl-C (raised on, after the server is closed) or *stop* is set; prints *page*'s
    address first."""
    httpd = server(folder, port)
    url = f"http://{HOST}:{httpd.server_address[1]}/{page}"
    print(f"serving {folder} at {url} (Ctrl-C stops)", flush=True)
    if started is not None:
        started(url)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    try:
        while thread.is_alive() and not (stop is not None and stop.is_set()):
            thread.join(0.2)                       # short waits: Ctrl-C is seen at once
    finally:
        httpd.shutdown()
        httpd.server_close()
