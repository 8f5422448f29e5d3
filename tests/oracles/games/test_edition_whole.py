"""The whole edition written: every page and every internal link resolves; the golden screens are shown where the checkout has them."""
from __future__ import annotations


import pytest

from harness.errors import InputError
from harness.edition.linkcheck import broken_links
from harness.edition.site import load_edition, write_site


# ----------------------------------------------------------------------------- the site (tests/conftest.py)
def test_every_page_is_written_and_every_internal_link_resolves(site):
    for name in ("index.html", "listing.html", "routines.html", "variables.html", "reconstruction.html",
                 "deviations.html", "coverage.html", "glyphs.html", "routine-0500.html", "style.css",
                 "glyphs.png", "glyph/146.png"):
        assert (site / name).exists(), name
    assert broken_links(site) == []


def test_golden_screens_are_shown_when_the_checkout_has_them(tmp_path, monkeypatch):
    from PIL import Image
    from harness.edition import site as site_module
    golden = tmp_path / "golden"
    golden.mkdir()
    Image.new("RGB", (32, 24)).save(golden / "welcome.png")
    (golden / "README.md").write_text(
        "# Golden screens\n\n| moment | CRC32 | what it shows | picture |\n| --- | --- | --- | --- |\n"
        "| welcome (`input 7060` #1) | `0f5d4da1` | the first question (7060) | ![welcome](welcome.png) |\n",
        encoding="utf-8")
    monkeypatch.setattr(site_module.data, "docs_path", lambda rel: golden if rel == "golden" else None)
    out = tmp_path / "html"
    write_site(load_edition(), out)
    assert 'href="golden.html"' in (out / "index.html").read_text()
    page = (out / "golden.html").read_text()
    assert 'src="golden/welcome.png" alt="the screen at welcome (input 7060 #1): the first question (7060)"' in page
    assert (out / "golden" / "welcome.png").exists() and broken_links(out) == []
    (golden / "welcome.png").unlink()
    with pytest.raises(InputError, match="README.md:5: no picture welcome.png"):
        load_edition()
    # without the folder: no page, no link
    monkeypatch.setattr(site_module.data, "docs_path", lambda rel: None)
    write_site(load_edition(), out)
    assert not (out / "golden.html").exists() and "golden.html" not in (out / "index.html").read_text()
