"""Take docs/figures/html-readings.png: the edition's listing at a judged line with its details open, showing the
other readings of the scan and what each changes (docs/data/readings.json, `cribbage-zx readings`).

    .venv/bin/cribbage-zx html --out out/html
    .venv/bin/python -m tools.readings_screenshot out/html [LINE]
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    if not argv or not (Path(argv[0]) / "listing.html").is_file():
        print("usage: tools/readings_screenshot.py HTML_DIR [LINE] (a folder written by cribbage-zx html)")
        return 2
    line = int(argv[1]) if len(argv) > 1 else 575
    from PIL import Image
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium is not installed (tools/install-system-deps.sh)")
        return 2
    path = ROOT / "docs" / "figures" / "html-readings.png"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto((Path(argv[0]).resolve() / "listing.html").as_uri() + f"#L{line}", wait_until="load")
            page.eval_on_selector(f"#L{line} details", "d => d.open = true")
            page.eval_on_selector(f"#L{line}", "e => e.scrollIntoView()")
            page.screenshot(path=str(path))
        finally:
            browser.close()
    with Image.open(path) as img:
        small = img.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
