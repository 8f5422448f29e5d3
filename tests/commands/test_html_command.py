"""cribbage-zx html: without a compiler it says so in one line and still writes the edition; --serve answers on the loopback address and stops; a port in use is one line."""
from __future__ import annotations


import pytest

from harness.web import build as wasm_build


# ----------------------------------------------------------------------------- the command
def test_html_without_a_compiler_says_so_in_one_line_and_writes_the_edition(tmp_path, monkeypatch, capsys):
    from harness.commands import html as html_command
    monkeypatch.setattr(wasm_build.shutil, "which", lambda name: None)
    monkeypatch.setattr(wasm_build, "MODULE", tmp_path / "no-module" / "spectrum.wasm")
    out = tmp_path / "site"
    assert html_command.main(["--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == ("play.html not written: the WebAssembly core is not built (no clang++: "
                           f"{wasm_build.HOW})")
    assert (out / "index.html").is_file() and not (out / "play.html").exists()


def test_serve_answers_on_the_loopback_address_and_stops(tmp_path, capsys):
    import urllib.request
    from web_serving import serving
    (tmp_path / "play.html").write_text("<!DOCTYPE html><title>x</title>")
    with serving(tmp_path) as url:                 # and the server's thread ends when it is stopped
        assert url.startswith("http://127.0.0.1:") and url.endswith("/play.html")
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert answer.status == 200 and b"<title>x</title>" in answer.read()
    assert "serving" in capsys.readouterr().out


def test_a_port_in_use_is_one_line(tmp_path):
    from harness.errors import OutputError
    from harness.web.serve import server
    first = server(tmp_path, 0)
    try:
        with pytest.raises(OutputError, match=r"--port \d+: cannot listen on 127.0.0.1"):
            server(tmp_path, first.server_address[1])
    finally:
        first.server_close()
