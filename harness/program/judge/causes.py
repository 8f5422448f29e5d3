"""What can differ between the program and the engine, and why, as types: the part of the game (`Kind`), what
was judged (`Judged`), and each `Cause` with its frozen dataclass of facts (`FACTS`) and its few words for views
(`CAUSE_WORDS`). A `judgements.Difference` carries one of each; the deviation rules (`deviations.py`) match
them, and `judgements.describe` is the only place a difference becomes words."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..records.events import EventKind, ScoreContext, ShowHand, Who


# ------------------------------------------------------------------ what differed and what was judged
class Kind(StrEnum):
    """What differed (the part of the game or the check)."""
    PLAY = "play"                    # points pegged for a card in the play
    GO = "go"                        # a go or last card, judged at the end of the series
    RESET = "reset"                  # a peg at the count reset (4400)
    HEELS = "heels"
    SHOW = "show"                    # the points a show pegged
    SHOW_FIFTEENS = "show:fifteens"  # one part of a show as 4700 counted it
    SHOW_PAIRS = "show:pairs"
    SHOW_RUNS = "show:runs"
    SHOW_FLUSH = "show:flush"
    SHOW_NOBS = "show:nobs"
    UNKNOWN = "unknown"              # a peg whose reason the observer could not tell
    LEGALITY = "legality"
    FLOW = "flow"
    OUTCOME = "outcome"
    SCREEN = "screen"
    HARNESS = "harness"
    FAIRNESS = "fairness"

    @staticmethod
    def show_part(part: str) -> "Kind":
        return Kind("show:" + part)

    @staticmethod
    def of_peg(context: ScoreContext) -> "Kind":
        """The kind of a peg the program made for *context* (a score event's context)."""
        return Kind(context.value)


class Cause(StrEnum):
    """Why a difference was found; each member has its facts class in `FACTS`."""
    PEGGED = "pegged"                        # an action's pegs against the engine's points
    GO_PEGGED = "go pegged"                  # a series' go / last card against the engine's
    UNMATCHED_PEG = "unmatched peg"          # a peg with no action of its kind open
    SHOW_PART = "show part"                  # one part of a show's count
    BEFORE_GAME = "before game"              # an action before the cut for deal
    ENGINE_REFUSED = "engine refused"        # the engine found the action illegal
    AFTER_WIN = "after win"                  # anything after the program declared a winner
    SCORED_AFTER_121 = "scored after 121"
    PLAYED_AFTER_121 = "played after 121"
    DEALER_AFTER_CUT = "dealer after cut"
    OUT_OF_TURN = "out of turn"              # a card laid when it was the other player's turn
    GO_WITH_A_CARD = "go with a card"        # a go by a player who could play
    GO_OUT_OF_TURN = "go out of turn"
    CARD_REFUSED = "card refused"            # the program refused a card that fits under 31
    TURN_SKIPPED = "turn skipped"            # the series ended with a player still able to play
    SHOW_PHASE = "show phase"                # a show outside the show
    SHOW_ORDER = "show order"
    WINNER = "winner"
    FINAL_SCORES = "final scores"
    GAME_CREDITED = "game credited"
    GAMES_TALLY = "games tally"
    SCREEN_CHECK_UNKNOWN = "screen check unknown"
    SCREEN_BOARD = "screen board"
    SCREEN_COUNT = "screen count"
    SCREEN_HAND = "screen hand"
    SCREEN_SHOW = "screen show"
    SCREEN_TALLY = "screen tally"
    SCREEN_CARD = "screen card"              # a slot shows another card than the hand holds there
    SCREEN_FACE = "screen face"              # a slot face up, face down or empty other than it should be
    SCREEN_COLOUR = "screen colour"          # a card drawn with other paper or ink than 5410 gives its suit
    SCREEN_PEGS = "screen pegs"              # pegs in other holes than the scores give
    SCREEN_LINE = "screen line"              # a message line, the figures, the count's tail, the flag
    SCREEN_STALE = "screen stale"            # something left on the table from an earlier picture
    SCREEN_LEFT = "screen left"              # a slot that should be empty still shows a card (or part of one)
    SCREEN_DEAL = "screen deal"              # the hand on screen with the cards laid is not the hand kept
    HARNESS_ERROR = "harness error"
    FAIRNESS_FLAG = "fairness flag"


class Judged(StrEnum):
    """What kind of action a judgement judges."""
    PLAY = "play"
    GO = "go"
    HEELS = "heels"
    SHOW = "show"
    PEG = "peg"                  # a peg with no matching action, judged alone
    DEALER = "dealer"
    REFUSED = "refused"
    WIN = "win"
    TALLY = "tally"
    SCREEN = "screen"
    HARNESS = "harness"
    STOPPED = "stopped"          # the program stopped before the action's pegs were in: not judged
    END = "end"                  # differences left at the end of the transcript


# ------------------------------------------------------------------ the facts of each cause
@dataclass(frozen=True)
class NoFacts:
    """A cause whose difference's values say it all."""


@dataclass(frozen=True)
class Pegged:
    """An action's pegs: *judged* play/heels/show; the card and table of a play, the starter of his
    heels, the hand, its owner, the claim and the true total of a show; both players' pegs."""
    judged: Judged
    pegged: tuple[int, int]          # (computer, player)
    card: str | None = None
    table: tuple[str, ...] = ()
    count: int | None = None
    starter: str | None = None
    hand: ShowHand | None = None
    owner: Who | None = None
    claim: int | None = None
    true_total: int | None = None


@dataclass(frozen=True)
class GoPegged:
    """The engine's last go event of the series: its reason ('go', 'last card') and the rule field that
    set its value (None: the engine expected nothing)."""
    reason: str | None = None
    rule: str | None = None


@dataclass(frozen=True)
class PreviousPeg:
    who: Who
    points: int
    context: ScoreContext


@dataclass(frozen=True)
class UnmatchedPeg:
    context: ScoreContext
    previous: PreviousPeg | None = None      # the peg just before it


@dataclass(frozen=True)
class ShowPart:
    part: str                                # one of program.SHOW_PARTS
    hand: ShowHand
    cards: tuple[str, ...]                   # the hand, then the starter
    crib: bool


@dataclass(frozen=True)
class BeforeGame:
    action: str


@dataclass(frozen=True)
class EngineRefused:
    action: str                              # the engine's method: deal, discard, starter, play, go, show
    arguments: str
    reason: str


@dataclass(frozen=True)
class AfterWin:
    event: EventKind
    winner: Who


@dataclass(frozen=True)
class AfterGameOver:
    """A peg or a card after a score reached 121: what the last peg before was for."""
    won_by: ScoreContext | None
    card: str | None = None


@dataclass(frozen=True)
class OutOfTurn:
    card: str
    count: int
    go_taken_back: bool                      # the series before this one had a go taken back (D8)


@dataclass(frozen=True)
class GoAt:
    """A go, or a series that ended, with the player's hand and the cards of it that fit under 31."""
    count: int
    hand: tuple[str, ...]
    playable: tuple[str, ...]
    go_taken_back: bool


@dataclass(frozen=True)
class Refusal:
    card: str
    count: int


@dataclass(frozen=True)
class ShowPhase:
    hand: ShowHand
    phase: str


@dataclass(frozen=True)
class Scores:
    scores: tuple[int, int]                  # (computer, player) as the program pegged them


@dataclass(frozen=True)
class Credit:
    won_by: ScoreContext | None              # what the last peg was for
    muggins: bool                            # ... and it was a show's points pegged to the other player


@dataclass(frozen=True)
class GameWon:
    winner: Who
    loser_score: int


@dataclass(frozen=True)
class TallyFacts:
    games: tuple[GameWon, ...]               # every game won so far, in order
    one_per_game: tuple[int, int]            # (computer, player), one per game won
    as_credited: tuple[int, int]             # one per game, to whom the program credited it
    game_points: str                         # the rule set's scheme (rules.game_points)
    credit_deviations: tuple[str, ...]       # deviations that credited a game to its loser


@dataclass(frozen=True)
class ScreenCheckName:
    check: str


@dataclass(frozen=True)
class HandSlot:
    slot: int                                # 1..4


@dataclass(frozen=True)
class ShowLine:
    part: str                                # fifteens, pairs, flush, runs, nobs, total


@dataclass(frozen=True)
class TallyLine:
    whose: Who


@dataclass(frozen=True)
class SlotSeen:
    """A card slot judged at a picture: its name (program.Slot), the moment, and why it should show what it
    should (held, chosen, taken back, discarded, hidden, laid, series over, starter, pack, shown, crib, cut)."""
    slot: str
    moment: str
    reason: str


@dataclass(frozen=True)
class PegsSeen:
    whose: Who
    moment: str


@dataclass(frozen=True)
class LineSeen:
    """A line of text judged at a picture: message (row 23), line 22, figures, count tail, flag."""
    line: str
    moment: str


@dataclass(frozen=True)
class StaleSeen:
    """Cells of the table outside every slot that hold something no statement of this moment prints."""
    place: str                               # "table r:c"
    moment: str


@dataclass(frozen=True)
class HarnessFault:
    error: str
    event: EventKind


@dataclass(frozen=True)
class FairnessFlag:
    distribution: str
    group: str
    never: tuple[str, ...]                   # the values that never came up


FACTS: dict[Cause, type] = {
    Cause.PEGGED: Pegged, Cause.GO_PEGGED: GoPegged, Cause.UNMATCHED_PEG: UnmatchedPeg,
    Cause.SHOW_PART: ShowPart, Cause.BEFORE_GAME: BeforeGame, Cause.ENGINE_REFUSED: EngineRefused,
    Cause.AFTER_WIN: AfterWin, Cause.SCORED_AFTER_121: AfterGameOver, Cause.PLAYED_AFTER_121: AfterGameOver,
    Cause.DEALER_AFTER_CUT: NoFacts, Cause.OUT_OF_TURN: OutOfTurn, Cause.GO_WITH_A_CARD: GoAt,
    Cause.GO_OUT_OF_TURN: GoAt, Cause.CARD_REFUSED: Refusal, Cause.TURN_SKIPPED: GoAt,
    Cause.SHOW_PHASE: ShowPhase, Cause.SHOW_ORDER: NoFacts, Cause.WINNER: Scores, Cause.FINAL_SCORES: NoFacts,
    Cause.GAME_CREDITED: Credit, Cause.GAMES_TALLY: TallyFacts, Cause.SCREEN_CHECK_UNKNOWN: ScreenCheckName,
    Cause.SCREEN_BOARD: NoFacts, Cause.SCREEN_COUNT: NoFacts, Cause.SCREEN_HAND: HandSlot,
    Cause.SCREEN_SHOW: ShowLine, Cause.SCREEN_TALLY: TallyLine, Cause.SCREEN_CARD: SlotSeen,
    Cause.SCREEN_FACE: SlotSeen, Cause.SCREEN_COLOUR: SlotSeen, Cause.SCREEN_PEGS: PegsSeen,
    Cause.SCREEN_LINE: LineSeen, Cause.SCREEN_STALE: StaleSeen, Cause.SCREEN_LEFT: SlotSeen, Cause.SCREEN_DEAL: NoFacts, Cause.HARNESS_ERROR: HarnessFault,
    Cause.FAIRNESS_FLAG: FairnessFlag,
}

# A few words for each cause, for views (the facts add the particulars: see `describe`).
CAUSE_WORDS: dict[Cause, str] = {
    Cause.PEGGED: "points pegged", Cause.GO_PEGGED: "go / last card pegged",
    Cause.UNMATCHED_PEG: "peg with no matching action", Cause.SHOW_PART: "show part",
    Cause.BEFORE_GAME: "action before the game began", Cause.ENGINE_REFUSED: "illegal action",
    Cause.AFTER_WIN: "after the win", Cause.SCORED_AFTER_121: "scored after 121",
    Cause.PLAYED_AFTER_121: "played after 121", Cause.DEALER_AFTER_CUT: "dealer after the cut",
    Cause.OUT_OF_TURN: "out of turn", Cause.GO_WITH_A_CARD: "go with a card to play",
    Cause.GO_OUT_OF_TURN: "go out of turn", Cause.CARD_REFUSED: "card refused",
    Cause.TURN_SKIPPED: "turn skipped at the reset", Cause.SHOW_PHASE: "show outside the show",
    Cause.SHOW_ORDER: "show order", Cause.WINNER: "winner", Cause.FINAL_SCORES: "final scores",
    Cause.GAME_CREDITED: "game credited to", Cause.GAMES_TALLY: "games tally",
    Cause.SCREEN_CHECK_UNKNOWN: "unknown screen check", Cause.SCREEN_BOARD: "board scores on the screen",
    Cause.SCREEN_COUNT: "count on the screen", Cause.SCREEN_HAND: "hand on the screen",
    Cause.SCREEN_SHOW: "show breakdown on the screen", Cause.SCREEN_TALLY: "games tally on the screen",
    Cause.SCREEN_CARD: "another card on the screen", Cause.SCREEN_FACE: "card face up, down or gone wrongly",
    Cause.SCREEN_COLOUR: "card colours", Cause.SCREEN_PEGS: "pegs on the board",
    Cause.SCREEN_LINE: "text line on the screen", Cause.SCREEN_STALE: "left over on the table",
    Cause.SCREEN_LEFT: "card left in an empty slot",
    Cause.SCREEN_DEAL: "hand on the screen is not the hand kept",
    Cause.HARNESS_ERROR: "harness error", Cause.FAIRNESS_FLAG: "not a fair distribution",
}
