"""What the Chromium tests share: the browser (Debian's chromium driven by Playwright) is tests/oracles/conftest.py's
`browser`, which the watch page's player in tests/oracles/emulators uses too; the watch on a page's console is
tests/helpers.py's watch_console."""
