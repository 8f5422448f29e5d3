"""Take the README's screenshots of a regress run's report and its listing edition (headless Chromium).

    .venv/bin/cribbage-zx regress --games 2 --out out/shots --replace
    .venv/bin/cribbage-zx strength --games 3 --opponent ev --opponent greedy --engine-games 200 --out out/s3
    .venv/bin/python -m tools.edition_screenshots out/shots out/s3

writes docs/figures/html-report.png (the top of report.html: the verdict), docs/figures/html-game.png (a game page:
its score race and first deal), docs/figures/report-game-folded.png (a game page's pictures of the screen,
folded, one opened), docs/figures/html-listing.png (the listing, Russian with its English) and, given a
strength folder, docs/figures/strength-page.png (its first sentence and the ladder of players),
each 1280 px wide as a reader's window, as 256-colour PNGs to keep them small.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# (page, anchor, file under docs/, window height, a script run before the shot or None)
OPEN_A_PICTURE = """(() => {
  const row = [...document.querySelectorAll('details.picture')].find(d => d.closest('tr').querySelector('.said'));
  document.querySelectorAll('details.picture').forEach(d => d.open = false);
  const shown = row || document.querySelector('details.picture');
  shown.open = true;
  shown.closest('tr').scrollIntoView();
  window.scrollBy(0, -260);
})()"""
SHOTS = (("report.html", "", "html-report.png", 900, None),
         ("game-000.html", "", "html-game.png", 1100, None),
         ("game-000.html", "#deal-1", "report-game-folded.png", 1000, OPEN_A_PICTURE),
         ("listing/listing.html", "#L4400", "html-listing.png", 900, None))
STRENGTH_SHOTS = (("strength.html", "", "strength-page.png", 1000, None),)


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2) or not (Path(argv[0]) / "report.html").is_file() or (
            len(argv) == 2 and not (Path(argv[1]) / "strength.html").is_file()):
        print("usage: tools/edition_screenshots.py RUN_DIR [STRENGTH_DIR] (a regress folder with report.html; "
              "a strength folder with strength.html)")
        return 2
    from PIL import Image
    from playwright.sync_api import sync_playwright
    run = Path(argv[0]).resolve()
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium is not installed (tools/install-system-deps.sh)")
        return 2
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            shots = [(run, *shot) for shot in SHOTS]
            if len(argv) == 2:
                shots += [(Path(argv[1]).resolve(), *shot) for shot in STRENGTH_SHOTS]
            for folder, page_name, anchor, out, height, script in shots:
                page = browser.new_page(viewport={"width": 1280, "height": height})
                page.goto((folder / page_name).as_uri() + anchor, wait_until="load")
                if script:
                    page.evaluate(script)
                path = ROOT / "docs" / "figures" / out
                page.screenshot(path=str(path))
                page.close()
                with Image.open(path) as img:
                    small = img.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
                small.save(path, optimize=True)
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
