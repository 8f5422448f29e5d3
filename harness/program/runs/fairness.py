"""What `cribbage-zx fairness` computes (the command: harness/commands/fairness.py): are the program's cut for deal, deals and starters what a fair deck gives?

Games are played as `regress` plays them (the "series" player plays several games in a row on one
machine, so later games start from the RND and the deck the earlier ones left), or read from the
transcripts of earlier runs (--from). Each distribution is set against the uniform one with a
chi-square test (scipy), the first game of each machine and the later games apart:

- the cut for deal: the rank of the player's card (13 ranks);
- the dealt cards: every card of every hand dealt (52 cards);
- the starter: every starter cut (52 cards).

A p-value below --alpha is flagged: the program's randomness is not what a fair deck gives there;
a flag a documented deviation explains (D10: the first cut for deal) is named by it, any other one
makes the exit status 1.
"""
from __future__ import annotations

from typing import Hashable, TypeVar

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ...cribbage.cards import full_deck
from ...errors import InputError, MachineError
from ..records.events import Cut, Deal, Event, Starter, read_jsonl
from ..judge.judgements import is_transcript_name, Cause, Difference, FairnessFlag, Kind
import numpy as np
from ..model import program as P
from ...cribbage.rules import STANDARD
from ..judge.deviations import classify
from .regress import spread_seed
from .loaded import worker_tape, init_worker
from ..observe.observer import Observer
from ..model.build import tape_bytes
from ...spectrum.typist import Typist
from ...runtime.jobs import Setup, run_jobs

#: a category a distribution counts: a rank (the cut for deal) or a card's text (the deals, the starters)
Category = TypeVar("Category", bound=Hashable)

RANKS = tuple(range(1, 14))
CARDS = tuple(str(c) for c in full_deck())


@dataclass
class Samples:
    """What one group of games showed: the player's cut ranks, the dealt cards, the starters."""
    cuts: Counter[int] = field(default_factory=Counter)
    dealt: Counter[str] = field(default_factory=Counter)
    starters: Counter[str] = field(default_factory=Counter)
    games: int = 0
    deals: int = 0

    def add_game(self, events: list[Event]) -> None:
        self.games += 1
        for ev in events:
            if isinstance(ev, Cut):
                self.cuts[ev.player_rank] += 1
            elif isinstance(ev, Deal):
                self.deals += 1
                self.dealt.update(ev.computer + ev.player)
            elif isinstance(ev, Starter):
                self.starters[ev.card] += 1


def games_of(events: list[Event]) -> list[list[Event]]:
    """One machine's events cut into its games: each game begins with its cut for deal."""
    games: list[list[Event]] = []
    for ev in events:
        if isinstance(ev, Cut) or not games:
            games.append([])
        games[-1].append(ev)
    return [g for g in games if any(isinstance(e, Cut) for e in g)]


def collect(machines: list[list[Event]]) -> dict[str, Samples]:
    """Samples of the first game of every machine and of the games after it."""
    first, later = Samples(), Samples()
    for events in machines:
        for n, game in enumerate(games_of(events)):
            (first if n == 0 else later).add_game(game)
    return {"first games": first, "later games": later}


@dataclass
class ChiSquare:
    """Pearson's chi-square of one distribution against the uniform one: *n* samples, the statistic and its
    p-value (None without samples), the count of each category; whether it is flagged at the run's alpha, and
    once classified (`classify_flags`), the documented deviation that explains the flag (None: unexplained)."""
    n: int
    chi2: float | None
    dof: int
    p: float | None
    observed: dict[str, int]
    expected_each: float | None = None        # n / categories (None without samples)
    flagged: bool = False
    classified: bool = False
    deviation: str | None = None

    def flag(self, alpha: float) -> None:
        """Flagged when the p-value is below *alpha*."""
        self.flagged = self.p is not None and self.p < alpha

    def as_json(self) -> dict[str, object]:
        """fairness.json's object of the test: expected_each only with samples, deviation once classified."""
        expected: dict[str, object] = {} if self.expected_each is None else {"expected_each": self.expected_each}
        deviation: dict[str, object] = {"deviation": self.deviation} if self.classified else {}
        return ({"n": self.n, "chi2": self.chi2, "dof": self.dof, "p": self.p} | expected
                | {"observed": self.observed, "flagged": self.flagged} | deviation)


@dataclass
class Group:
    """A group of games (the machines' first games, the later ones) and its distributions tested by name."""
    games: int
    deals: int
    tests: dict[str, ChiSquare]


@dataclass
class Fairness:
    """What `fairness` found (fairness.json): the alpha, the machines and each group's tests."""
    alpha: float
    machines: int
    groups: dict[str, Group]

    def as_json(self) -> dict[str, object]:
        return {"alpha": self.alpha, "machines": self.machines,
                "groups": {name: {"games": g.games, "deals": g.deals,
                                  "tests": {t: test.as_json() for t, test in g.tests.items()}}
                           for name, g in self.groups.items()}}

    def unexplained(self) -> list[ChiSquare]:
        """The flagged tests no documented deviation explains (each makes the exit status 1)."""
        return [t for g in self.groups.values() for t in g.tests.values() if t.flagged and not t.deviation]


def chi_square(counts: Counter[Category], categories: tuple[Category, ...]) -> ChiSquare:
    """Pearson's chi-square of *counts* over *categories* against the uniform distribution.

    The statistic and p-value are scipy.stats.chisquare's (the same sums, and chi2.sf is chdtrc), from
    scipy.special: importing scipy.stats costs about a CPU second, a third of a one-game run's report."""
    # lazy: scipy.special (0.26 s) only for the chi-square tests
    from scipy.special import chdtrc  # type: ignore[import-untyped]
    observed = [counts.get(c, 0) for c in categories]
    n = sum(observed)
    by_name = dict(zip(map(str, categories), observed))
    if n == 0:
        return ChiSquare(n=0, chi2=None, dof=len(categories) - 1, p=None, observed=by_name)
    f_obs = np.asarray(observed, dtype=np.float64)
    f_exp = f_obs.mean()
    statistic = ((f_obs - f_exp) ** 2 / f_exp).sum()
    pvalue = chdtrc(len(categories) - 1, statistic)
    return ChiSquare(n=n, chi2=round(float(statistic), 3), dof=len(categories) - 1, p=float(pvalue),
                     expected_each=round(n / len(categories), 3), observed=by_name)


def analyse(machines: list[list[Event]], alpha: float = 0.001) -> Fairness:
    groups = collect(machines)
    out = Fairness(alpha=alpha, machines=len(machines), groups={})
    for name, s in groups.items():
        tests = {"cut for deal (player's rank)": chi_square(s.cuts, RANKS),
                 "dealt cards": chi_square(s.dealt, CARDS),
                 "starter": chi_square(s.starters, CARDS)}
        for t in tests.values():
            t.flag(alpha)
        out.groups[name] = Group(games=s.games, deals=s.deals, tests=tests)
    return out


@dataclass(frozen=True)
class FairnessTest:
    """One chi-square test of an `analyse` result: its group, its name, the samples and their counts."""
    group: str                           # "first game", "later games"
    test: str                            # "cut for deal (player's rank)", "dealt cards", "starter"
    n: int
    p: float | None                      # None: no samples
    observed: dict[str, int]             # category -> count, in the categories' order


def read_tests(result: Fairness) -> list[FairnessTest]:
    """Every test of an `analyse` result, group by group in its order, as the plots read them."""
    return [FairnessTest(group, test, t.n, t.p, dict(t.observed))
            for group, gr in result.groups.items() for test, t in gr.tests.items()]


@dataclass(frozen=True)
class CutJob:
    """One machine to cut for deal: its number and its SEED."""
    index: int
    seed: int


@dataclass(frozen=True)
class CutResult:
    """The first cut for deal of a machine: the player's card's rank and the computer's."""
    player_rank: int
    computer_rank: int


def cut_for_deal(job: CutJob) -> CutResult:
    """One machine from the loaded tape, seeded, to its cut for deal: (player's rank, computer's rank).

    Only the first game's cut: the quick way to sample many (the program answers N and N, the
    player cuts with ENTER, the observer reads S and K at 7450)."""
    index, seed = job.index, job.seed
    m = worker_tape().machine()
    events: list[Event] = []
    observer = Observer(m, events.append)
    observer.attach()
    try:
        m.poke("SEED", seed)
        for line in (P.ASK_INSTRUCTIONS, P.ASK_MUGGINS):
            stop = m.run(3000, until_wait=True, what=f"the question at {line}")
            if stop.kind != "wait" or stop.wait is None or stop.wait.line != line:
                raise MachineError(f"machine {index}: expected the question at {line}, got {stop}")
            Typist(m).answer(P.NO)
        stop = m.run(3000, until_wait=True, what="the cut for deal")
        m.press("ENTER")
        m.run(600, until_line=P.AT_CUT_FOR_DEAL, what="the cut decided")
        m.run_frames(1)
        m.release("ENTER")
    finally:
        observer.detach()
    cut = next((e for e in events if isinstance(e, Cut)), None)
    if cut is None:
        raise MachineError(f"machine {index}: no cut for deal seen")
    return CutResult(cut.player_rank, cut.computer_rank)


def sample_cuts(n: int, seed: int, workers: int, scheduler: str | None = None) -> Samples:
    """The cut for deal of *n* freshly loaded machines (first games only)."""
    tape = tape_bytes(None)
    samples = Samples()
    jobs = [CutJob(i, spread_seed(seed + i)) for i in range(n)]
    with run_jobs(cut_for_deal, jobs, Setup(init_worker, (tape,)), workers, scheduler) as outcomes:
        for outcome in outcomes:
            if outcome.value is None:
                raise MachineError(f"cut {outcome.index}: {outcome.error}")
            samples.cuts[outcome.value.player_rank] += 1
            samples.games += 1
    return samples


def read_runs(folders: list[Path], given_as: str = "") -> list[list[Event]]:
    """The games of each folder's transcripts. A folder given twice, the same game (seed, player, game) in two
    folders, a transcript with no header or no events is refused: each would count samples twice or none.
    *given_as* is how the caller named the folders (the command's option), for the refusal of a folder
    given twice."""
    machines = []
    folders_seen: dict[Path, Path] = {}
    games_seen: dict[tuple[object, ...], Path] = {}
    for folder in folders:
        real = Path(folder).resolve()
        if real in folders_seen:
            raise InputError(f"{given_as + ' ' if given_as else ''}{folder}: given twice (as {folders_seen[real]}): "
                             f"its games would count twice")
        folders_seen[real] = Path(folder)
        files = sorted(p for p in folder.glob("game-*.jsonl") if is_transcript_name(p.name))
        if not files:
            raise InputError(f"{folder}: no game-*.jsonl transcripts")
        for path in files:
            try:
                with open(path, encoding="utf-8") as f:
                    head, events = read_jsonl(f)
            except (OSError, ValueError) as exc:
                raise InputError(f"{path}: {exc}") from None
            if head.schema == 0 or head.seed is None:
                raise InputError(f"{path}: no header line: not a transcript of a regress or fairness run")
            if not events:
                raise InputError(f"{path}: a header and no events: the game was not played")
            key = (head.seed, head.player, head.game)
            if key in games_seen:
                raise InputError(f"{path}: the game of seed {key[0]} ({key[1]}) is in {games_seen[key]} too")
            games_seen[key] = path
            machines.append(events)
    return machines


def classify_flags(result: Fairness) -> None:
    """Each flagged distribution as a difference, named by the documented deviation that explains it."""
    for group, g in result.groups.items():
        for name, t in g.tests.items():
            if not t.flagged:
                continue
            never = sorted((k for k, v in t.observed.items() if v == 0), key=lambda k: (len(k), k))
            d = Difference(Kind.FAIRNESS, None, "uniform", f"p={t.p:.3g}", Cause.FAIRNESS_FLAG,
                           FairnessFlag(name, group, tuple(never)))
            t.deviation = classify(d, STANDARD)      # the deal's fairness is the same under every rule set
            t.classified = True


def table(result: Fairness) -> str:
    rows = [("group", "distribution", "n", "chi2", "dof", "p", "")]
    for group, g in result.groups.items():
        for name, t in g.tests.items():
            p = "-" if t.p is None else f"{t.p:.3g}"
            verdict = ""
            if t.flagged:
                verdict = f"not uniform: {t.deviation}" if t.deviation else "NOT UNIFORM, unexplained"
            rows.append((group, name, str(t.n), "-" if t.chi2 is None else f"{t.chi2:.1f}",
                         str(t.dof), p, verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
