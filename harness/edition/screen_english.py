"""The screen's English: the English edition's words for a Russian text a picture of the screen showed.

A game page shows each text the program printed beside its English, taken from basic/translation.tsv (the
table the English tape is built from), so the page says what the screen said without translating anything
anew.
"""
from __future__ import annotations

from functools import lru_cache

from ..program.model.english import TABLE as TRANSLATION, read_table

__all__ = ["screen_english"]


@lru_cache(maxsize=4096)            # a run's screens show the same few texts again and again
def screen_english(text: str) -> str | None:
    """The English edition's words for a Russian text the screen showed (basic/translation.tsv, the table the
    English tape is built from), or None where it shows no Russian or none the table has. A row may hold
    several texts and numbers («15-ТЬ -4 ПАРЫ -2», a message and the answer typed after it): each longest run
    of words that is a whole literal of the listing (its trailing dash, colon or equals sign aside) is
    replaced by its English, numbers and unknown fragments («Д!», the end of a «ХОД!» written over) kept."""
    words = text.split()
    if not any(_cyrillic(w) for w in words):
        return None
    table = _literal_words()
    longest = max((len(k) for k in table), default=0)
    out, i, found = [], 0, False
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            en = table.get(tuple(words[i:i + n]))
            if en is not None:
                out.append(en)
                i += n
                found = True
                break
        else:
            glued = _glued(words, i, table)      # a literal and what was typed after it, no space between
            if glued is not None:
                en, rest, n = glued
                out.append(en + rest)
                i += n
                found = True
            else:
                out.append(words[i])
                i += 1
    return " ".join(out) if found else None


def _glued(words: list[str], i: int, table: dict[tuple[str, ...], str]) -> tuple[str, str, int] | None:
    """The longest literal that words[i:] begin with when its last word is only the start of a word
    («(Y/N):"С"», an INPUT's prompt and the answer echoed after it): (English, the rest, words used)."""
    best = None
    for ru, en in table.items():
        n = len(ru)
        if (i + n <= len(words) and list(ru[:-1]) == words[i:i + n - 1] and words[i + n - 1] != ru[-1]
                and words[i + n - 1].startswith(ru[-1]) and (best is None or n > best[2])):
            rest = words[i + n - 1][len(ru[-1]):]
            if ru[-1][-1].isalpha() and rest[0].isalpha():      # «ВЫ» is not the start of «ВЫБЕРИТЕ»
                continue
            best = (en, rest, n)
    return best


def _cyrillic(word: str) -> bool:
    return any("А" <= ch <= "я" or ch == "Ё" for ch in word)


@lru_cache(maxsize=1)
def _literal_words() -> dict[tuple[str, ...], str]:
    """Each Russian literal of the translation table as its words -> the English's words (a literal that
    two rows translate differently is left out: its English depends on the line)."""
    exact: dict[tuple[str, ...], set[str]] = {}
    bare: dict[tuple[str, ...], set[str]] = {}
    for t in read_table(TRANSLATION):
        if any(_cyrillic(w) for w in t.russian.split()):
            exact.setdefault(tuple(t.russian.split()), set()).add(" ".join(t.english.split()))
            bare.setdefault(tuple(t.russian.strip(" -=:").split()), set()).add(" ".join(t.english.strip(" -=:").split()))
    out = {ru: en.pop() for ru, en in bare.items() if len(en) == 1}
    out.update({ru: en.pop() for ru, en in exact.items() if len(en) == 1})   # «ВСЕГО » itself before «ВСЕГО = »
    return out
