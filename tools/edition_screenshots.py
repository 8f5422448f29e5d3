"""Take the README's screenshots of a regress run's report and its listing edition (headless Chromium).

    .venv/bin/cribbage-zx regress --games 2 --out out/shots --replace
    .venv/bin/python tools/edition_screenshots.py out/shots

writes docs/html-report.png (the top of report.html: the verdict), docs/html-game.png (a game page:
its score race and first deal) and docs/html-listing.png (the listing, Russian with its English),
each 1280 px wide as a reader's window, as 256-colour PNGs to keep them small.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = (("report.html", "", "html-report.png", 900),
         ("game-000.html", "", "html-game.png", 1100),
         ("listing/listing.html", "#L4400", "html-listing.png", 900))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "report.html").is_file():
        print("usage: tools/edition_screenshots.py RUN_DIR (a regress folder with report.html)")
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
            for page_name, anchor, out, height in SHOTS:
                page = browser.new_page(viewport={"width": 1280, "height": height})
                page.goto((run / page_name).as_uri() + anchor, wait_until="load")
                path = ROOT / "docs" / out
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
