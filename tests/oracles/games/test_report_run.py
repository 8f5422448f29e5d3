"""report.html of a real run: two whole games played and checked by regress (run_dir), the report's verdict, counts, costs, differences, pages, legends, plots, and faults planted in copies of its records."""
from __future__ import annotations

import html as htmlmod
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from helpers import shift_action

from harness.errors import InputError
from harness.edition.linkcheck import broken_links
from harness.edition.report import latin, write_report_html
from harness.commands import regress as regress_command

RULES = ("standard", "article")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """Two whole games played and checked by regress, which writes report.html itself."""
    out = tmp_path_factory.mktemp("regress")
    regress_command.main(["--games", "2", "--workers", "1", "--seed", "1", "--out", str(out), "--quiet"])
    return out


def _records(run: Path) -> dict[int, list[dict]]:
    """Each game's judgement records as plain JSON (the header line dropped)."""
    out = {}
    for path in sorted(run.glob("game-*.judgements.jsonl")):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert lines[0]["kind"] == "header"
        out[int(path.name[5:8])] = lines[1:]
    return out


def _differences(records: list[dict], rules: str) -> list[dict]:
    return [d for j in records if j["rules"] == rules for d in j["differences"]]


def _text(page: str) -> str:
    """The page's text, tags dropped and spaces squeezed, as a reader sees it."""
    return re.sub(r"\s+", " ", htmlmod.unescape(re.sub(r"<[^>]+>", " ", page)))


def _cell_after(page: str, label: str) -> list[str]:
    """The cells of the headline row whose header is *label*."""
    row = re.search(r"<tr><th>%s</th>(.*?)</tr>" % re.escape(label), page, re.S)
    assert row, label
    return [_text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)]


# ----------------------------------------------------------------------------- planted records
def _copy(run_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    return copy


# ----------------------------------------------------------------------------- the verdict and its counts
def test_the_report_opens_with_the_verdict_and_every_count_is_the_records(run_dir):
    page = (run_dir / "report.html").read_text(encoding="utf-8")
    records = _records(run_dir)
    assert sorted(records) == [0, 1]
    head = page[page.index("<main>"):page.index("What each documented deviation cost")]
    unexplained = [sum(1 for g in records.values() for d in _differences(g, r) if not d["deviation"]) for r in RULES]
    verdict = "PASS" if unexplained[0] == 0 else "FAIL"
    assert re.search(r'<h1 class="verdict (pass|fail)">%s' % verdict, head)
    assert _cell_after(head, "unexplained differences") == [str(n) for n in unexplained]
    for r, cell in zip(RULES, _cell_after(head, "documented differences")):
        documented = Counter(d["deviation"] for g in records.values() for d in _differences(g, r) if d["deviation"])
        total = sum(documented.values())
        expected = f"{total} (" + ", ".join(f"{k} {n}" for k, n in sorted(documented.items())) + ")" if total \
            else "0"
        assert cell.replace(" ", "") == expected.replace(" ", ""), (r, cell)
    pegs = [sum(len(j["observed"]) for g in records.values() for j in g if j["rules"] == r) for r in RULES]
    assert _cell_after(head, "scores pegged, judged") == [str(n) for n in pegs]
    # the pictures' checks are screen checks, counted apart from the engine's (harness/program/judge/judgements.py Counts)
    def picture(j: dict) -> bool:
        return (j.get("action") or {}).get("kind") == "picture"
    checks = [sum(j["checks"] for g in records.values() for j in g if j["rules"] == r and not picture(j)) for r in RULES]
    assert _cell_after(head, "engine checks") == [str(n) for n in checks]
    pictures = [sum(1 for g in records.values() for j in g if j["rules"] == r and picture(j)) for r in RULES]
    assert pictures[0] > 0, "the run judged no picture of the screen"
    assert _cell_after(head, "pictures of the screen judged") == [str(n) for n in pictures]
    screen = [sum(j["checks"] for g in records.values() for j in g if j["rules"] == r and picture(j)) for r in RULES]
    assert _cell_after(head, "screen checks") == [str(n) for n in screen]
    assert [a + b for a, b in zip(checks, screen)] == \
        [sum(j["checks"] for g in records.values() for j in g if j["rules"] == r) for r in RULES]
    report = json.loads((run_dir / "report.json").read_text())
    assert _cell_after(head, "BASIC error reports") == [str(report["basic_errors"])]
    assert "report.json counts" not in page                      # the records and report.json agree
    # labels say what their number is
    assert "Wall time of the run: %s s on 1 worker" % report["wall_s"] in page
    assert "time in its worker (wall s)" in page and "wall s per game" not in page


def test_what_each_deviation_cost_is_counted_from_the_records(run_dir):
    page = (run_dir / "report.html").read_text(encoding="utf-8")
    records = _records(run_dir)
    seen = Counter()
    games = {}
    for index, recs in records.items():
        for d in _differences(recs, "standard"):
            if d["deviation"]:
                seen[d["deviation"]] += 1
                games.setdefault(d["deviation"], set()).add(index)
    assert seen, "the run showed no documented deviation (D1 shows in nearly every game)"
    for dev, n in seen.items():
        row = re.search(r'<tr id="%s">(.*?)</tr>' % dev, page, re.S).group(1)
        cells = [_text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        assert cells[2] == str(n) and cells[4] == str(len(games[dev])), (dev, cells)
        assert 'href="listing/deviations.html#%s"' % dev in row and 'href="listing/listing.html#L' in row
        first = re.search(r'href="(game-\d{3}\.html)#e(\d+)"', row)
        assert first, row                                        # the first action it showed in
        game_page = (run_dir / first.group(1)).read_text(encoding="utf-8")
        assert f'id="e{first.group(2)}"' in game_page


def test_every_difference_of_a_game_is_on_its_page_and_nothing_else(run_dir):
    for index, recs in _records(run_dir).items():
        page = (run_dir / f"game-{index:03d}.html").read_text(encoding="utf-8")
        diffs = _differences(recs, "standard")
        shown = re.findall(r'<div class="diffnote( documented)?">\s*(?:<a class="badge dev"[^>]*>(D\d+)</a>|UNEXPLAINED)',
                           page)
        assert Counter(dev or "UNEXPLAINED" for _, dev in shown) == \
            Counter(d["deviation"] or "UNEXPLAINED" for d in diffs)
        for r in RULES:
            rows = re.search(r"<tr><th>%s[^<]*</th><td>(\d+)</td><td>(\d+)</td>\s*<td[^>]*>(\d+)</td>" % r, page)
            judgements = sum(1 for j in recs if j["rules"] == r)
            documented = sum(1 for d in _differences(recs, r) if d["deviation"])
            unexplained = sum(1 for d in _differences(recs, r) if not d["deviation"])
            assert rows.groups() == (str(judgements), str(documented), str(unexplained)), r


def test_game_page_shows_the_deals_cards_and_pegs_beside_the_engines_reasons(run_dir):
    page = (run_dir / "game-000.html").read_text(encoding="utf-8")
    transcript = [json.loads(line) for line in (run_dir / "game-000.jsonl").read_text().splitlines()]
    deals = [e for e in transcript if e.get("kind") == "deal"]
    assert all(f'id="deal-{d["n"]}"' in page for d in deals)
    assert " for pair (" in page or " for fifteen (" in page          # an itemised engine reason
    # every card dealt in Latin beside the program's glyphs (the glyph's readable text first)
    for card in deals[0]["computer"] + deals[0]["player"]:
        assert f'<span class="latin{" red" if card[-1] in "HD" else ""}">{latin(card)}</span>' in page, card
    assert latin("QD") == "Q♦" and latin("TH") == "10♥" and latin("AS") == "A♠"
    assert "<b>Т</b> = ace (туз), <b>В</b> = jack (валет)" in page     # the legend
    assert "\ufffd" not in page
    assert "-show-computer.png" in page
    assert 'src="plots/game-000-race.svg"' in page and "the numbers behind it" in page


def test_every_page_that_draws_the_card_letters_has_their_legend(run_dir):
    pages = list(run_dir.glob("*.html")) + list((run_dir / "listing").glob("*.html"))
    drawing = [p for p in pages if re.search(r'style="--c:(155|156|157)"', p.read_text(encoding="utf-8"))]
    assert {p.name for p in drawing} >= {"game-000.html", "listing.html", "routine-7000.html"}
    for p in drawing:
        assert "<b>Т</b> = ace (туз)" in p.read_text(encoding="utf-8"), p.name


def test_no_raw_json_or_python_values_on_the_pages(run_dir):
    for name in ("report.html", "game-000.html", "game-001.html"):
        text = _text((run_dir / name).read_text(encoding="utf-8"))
        for raw in ('{"', "': ", "None", "False", "True", "[]", "{}"):
            assert raw not in text, (name, raw)


def test_every_plot_has_alt_text_and_its_numbers(run_dir):
    page = (run_dir / "report.html").read_text(encoding="utf-8")
    images = re.findall(r'<img src="plots/([^"]+)\.svg" alt="([^"]*)"', page)
    names = {n for n, _ in images}
    assert {"first-games-cut-for-deal", "first-games-dealt-cards", "first-games-starter", "show-hands",
            "show-cribs"} <= names
    for name, alt in images:
        assert len(alt) > 40 and (run_dir / "plots" / f"{name}.svg").read_text().startswith("<svg")
    assert page.count("the numbers behind it") == len(images)
    # the cut-for-deal plot's numbers are the transcripts' cuts
    cuts = Counter(e["player_rank"] for n in (0, 1) for e in map(json.loads, (run_dir / f"game-{n:03d}.jsonl")
                   .read_text().splitlines()) if e.get("kind") == "cut")
    figure = page[page.index('id="plot-first-games-cut-for-deal"'):]
    figure = figure[:figure.index("</figure>")]
    rows = re.findall(r"<tr><td>(\w+)</td><td>(\d+)</td>", figure)
    names13 = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert rows == [(names13[r - 1], str(cuts.get(r, 0))) for r in range(1, 14)]


def test_a_planted_unexplained_difference_fails_the_run_and_is_highlighted(run_dir, tmp_path):
    copy = _copy(run_dir, tmp_path)
    path = copy / "game-000.judgements.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        rec = json.loads(line)
        if rec.get("rules") == "standard" and any(d["deviation"] for d in rec.get("differences", [])):
            rec["differences"][0]["deviation"] = None        # the same difference, no longer explained
            lines[i] = json.dumps(rec, ensure_ascii=False, sort_keys=True)
            at = rec["action_at"]
            break
    else:
        pytest.fail("no documented difference to plant on")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_report_html(copy)
    report = (copy / "report.html").read_text(encoding="utf-8")
    assert '<h1 class="verdict fail">FAIL' in report
    assert _cell_after(report, "unexplained differences")[0] == "1"
    assert "report.json counts 0 unexplained, the records 1" in report     # report.json was not planted
    game = (copy / "game-000.html").read_text(encoding="utf-8")
    row = re.search(r'<tr class="diff" id="e%d">(.*?)</tr>' % at, game, re.S)
    assert row and "UNEXPLAINED" in row.group(1) and 'href="listing/listing.html#L' in row.group(1)
    assert broken_links(copy) == []


def test_a_game_without_records_is_not_judged_and_fails_the_run(run_dir, tmp_path):
    copy = _copy(run_dir, tmp_path)
    (copy / "game-001.judgements.jsonl").unlink()
    write_report_html(copy)
    report = (copy / "report.html").read_text(encoding="utf-8")
    assert '<h1 class="verdict fail">FAIL' in report and "No judgement records for game-001" in report
    assert "No judgement records for this game" in (copy / "game-001.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("shift", [1, -1, 10_000])
def test_a_judgement_that_points_at_the_wrong_action_is_caught(run_dir, tmp_path, shift):
    """A record whose action_at names another event than the one it judges (a view would show the judgement
    at the wrong moment: the timeline here, the replay of watch mode) is refused, naming the judgement."""
    copy = _copy(run_dir, tmp_path)
    path = copy / "game-000.judgements.jsonl"
    n, rec = shift_action(path, "play", shift)
    with pytest.raises(InputError) as caught:
        write_report_html(copy)
    at = rec["action_at"]
    said = (f"{path}: judgement {n} (play, {rec['rules']} rules) points at event {at} " if shift != 10_000 else
            f"{path}: judgement {n} (play, {rec['rules']} rules) points at event {at}, past the transcript's ")
    assert str(caught.value).startswith(said)
    if shift != 10_000:
        assert str(caught.value).endswith(f"not at the play it judges (it is event {at - shift})")


def test_a_broken_records_file_is_named(run_dir, tmp_path):
    copy = _copy(run_dir, tmp_path)
    path = copy / "game-000.judgements.jsonl"
    path.write_text(path.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match="game-000.judgements.jsonl"):
        write_report_html(copy)


def test_html_command_reports_an_existing_run_folder_as_the_run_did(run_dir, tmp_path, capsys):
    """The near miss of the planted tests: an unchanged copy rendered again says what the run said."""
    from harness.commands.html import main
    copy = _copy(run_dir, tmp_path)
    (copy / "report.html").unlink()
    assert main(["--report", str(copy)]) == 0
    assert "report: " in capsys.readouterr().out
    assert (copy / "report.html").read_text(encoding="utf-8") == (run_dir / "report.html").read_text(encoding="utf-8")
    with pytest.raises(InputError, match="--report .*nowhere: no such folder$"):
        main(["--report", str(tmp_path / "nowhere")])
