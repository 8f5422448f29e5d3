"""`cribbage-zx html --serve`'s server run in a thread for a test: the page's address while it serves."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """Serve *folder* on a free loopback port (harness.web.serve) and yield play.html's address; the server
    is stopped, and its thread seen to end, when the block ends."""
    from harness.web.serve import serve
    urls: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(folder, 0), kwargs={"started": urls.append, "stop": stop})
    thread.start()
    try:
        for _ in range(50):
            if urls:
                break
            stop.wait(0.1)
        assert urls, "the server did not start within 5 s"
        yield urls[0]
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
