"""The Russian quoted on the deviations page has its English: every quote in basic/quotes.toml, none left over."""
from __future__ import annotations

import pytest

from harness.errors import InputError
from harness import resources
from harness.edition.notes import quoted_parts, quotes_in, read_quotes
from harness.program.judge.deviations import DEVIATIONS

FIELDS = ("what", "rule", "article", "standard")


def _quotes_of_the_page() -> set[str]:
    return {q for d in DEVIATIONS.values() for f in FIELDS for q in quotes_in(getattr(d, f, None) or "")}


def test_every_quote_has_an_english_rendering_and_none_is_left_over():
    quotes = read_quotes(resources.data_path("basic/quotes.toml"))
    page = _quotes_of_the_page()
    assert sorted(page - set(quotes)) == []
    assert sorted(set(quotes) - page) == []


def test_the_ocr_typos_are_corrected_only_in_the_rendering():
    quotes = read_quotes(resources.data_path("basic/quotes.toml"))
    typos = {"одио": "одно", "иэ ннх": "из них", "эасчитывается": "засчитывается", "Маггинэ": "Маггинз"}
    for q in quotes.values():
        for typo, right in typos.items():
            if typo in q.as_read:
                assert q.corrected is not None and typo not in q.corrected and right in q.corrected, q.as_read
        if q.corrected is None:
            assert not any(t in q.as_read for t in typos)


def test_a_quote_splits_out_of_its_text_and_an_unknown_one_is_marked():
    quotes = read_quotes(resources.data_path("basic/quotes.toml"))
    parts = quoted_parts("a go 1 («Тогда он объявляет \"ХОД\" и его противник получает себе очко.»), «нет такой»",
                         quotes)
    assert [p[0] for p in parts] == [False, True, False, True]
    assert parts[1][2].english.startswith("Then he announces") and parts[3][2] is None


def test_a_correction_equal_to_the_text_is_refused(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('[[quote]]\nas_read = "x"\ncorrected = "x"\nenglish = "y"\n', encoding="utf-8")
    with pytest.raises(InputError, match="corrected is the same as as_read"):
        read_quotes(path)


def test_the_page_shows_the_quote_as_read_its_correction_and_its_english(tmp_path):
    from harness.edition.site import load_edition, write_site
    write_site(load_edition(), tmp_path / "html")
    html = (tmp_path / "html" / "deviations.html").read_text(encoding="utf-8")
    assert "тридцать одио, ему" in html and "тридцать одно, ему" in html
    assert "[to make exactly thirty-one, he scores 2 points]" in html
    assert "no English in basic/quotes.toml" not in html
