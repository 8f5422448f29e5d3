"""The screen judge on pictures written by hand (issue 36, item 2): the pegs on both laps, the board's figures,
the winner's line and flag, the English edition's words; each fault planted beside a near miss that passes.
No emulator and no golden game: the judge follows the few events given and judges one picture."""
import pytest

from harness.program.model import program as P
from harness.program.records.events import Cut, Deal, Picture, Score, ScoreContext, Starter, Who, Win
from harness.program.judge.screen_judgements import ScreenJudge, tally

C, PL = Who.COMPUTER, Who.PLAYER
SIX_C = ("AH", "2H", "3H", "4H", "5H", "6H")
SIX_P = ("AS", "2S", "3S", "4S", "5S", "6S")


def pic(moment, rows=None, pegs=None, board=True, flag=False, **variables):
    return Picture(moment=moment, line=0, slots={}, pegs=pegs or {}, rows=rows or {}, board=board, flag=flag,
                   variables=variables)


def found(judge, picture):
    return [(f.cause.value, f.who, f.expected, f.observed) for f in judge.judge(picture)[1]]


def lines(judge, picture, line):
    return [(f.expected, f.observed) for f in judge.judge(picture)[1] if getattr(f.facts, "line", None) == line]


def dealt(words=P.RUSSIAN, dealer=PL):
    j = ScreenJudge(words)
    j.see(Cut(3, 9))
    j.see(Deal(1, dealer, SIX_C, SIX_P))
    return j


# ------------------------------------------------------------------------------------------ the pegs
@pytest.mark.parametrize("scores, back, computer, player", [
    ([60, 61], [0, 120], [60], [1, 60]),        # 60 is the last hole of the first lap, 61 the first of the second
    ([75, 5], [70, 3], [10, 15], [3, 5]),       # the second lap takes 60 off: 70 -> 10, 75 -> 15
    ([1, 2], [0, 1], [1], [1, 2]),              # a back peg at 0 is off the board
])
def test_pegs_in_the_holes_the_scores_give_on_both_laps(scores, back, computer, player):
    moment = f"select {P.SELECT_PLAY}"
    right = pic(moment, pegs={"computer": computer, "player": player}, scores=scores, back=back)
    assert [f for f in found(dealt(), right) if f[0] == "screen pegs"] == []
    for who, holes in (("computer", computer), ("player", player)):
        for wrong in ([h + 1 for h in holes], holes[:-1], holes + [59 if 59 not in holes else 58]):
            bad = pic(moment, pegs={"computer": computer, "player": player, who: wrong}, scores=scores, back=back)
            assert [(f[0], f[1]) for f in found(dealt(), bad) if f[0] == "screen pegs"] == [("screen pegs", who)]


def test_pegs_are_not_judged_without_the_scores_or_the_board():
    moment = f"select {P.SELECT_PLAY}"
    def pegs(picture):
        return [f for f in found(dealt(), picture) if f[0] == "screen pegs"]
    assert pegs(pic(moment, pegs={"computer": [7]}, scores=[1, 1], back=[0, 0])) != []      # the planted fault
    assert pegs(pic(moment, pegs={"computer": [7]}, scores=[1, 1], back=None)) == []
    assert pegs(pic(moment, pegs={"computer": [7]}, scores=None, back=[0, 0])) == []
    assert pegs(pic(moment, pegs={"computer": [7]}, board=False, scores=[1, 1], back=[0, 0])) == []
    checks, _ = dealt().judge(pic(moment, pegs={"computer": [1], "player": [1]}, scores=[1, 1], back=[0, 0]))
    checks_off, _ = dealt().judge(pic(moment, board=False, scores=[1, 1], back=[0, 0]))
    assert checks - checks_off == 3           # two peg tracks and the figures


# ------------------------------------------------------------------------------------------ the figures
@pytest.mark.parametrize("scores, shown", [
    ([121, 5], "5   121"),       # the player's from column 25, the computer's ending at column 31
    ([7, 100], "100   7"),
    ([0, 3], "3     0"),         # once either has pegged, both are printed
    ([12, 0], "0    12"),
    ([0, 0], ""),                # blank until the first peg of a game
])
def test_the_board_figures(scores, shown):
    moment = f"select {P.SELECT_PLAY}"
    assert lines(dealt(), pic(moment, rows={"figures": shown}, scores=scores, back=[0, 0]), "figures") == []
    one_off = shown[:-1] + str((int(shown[-1]) + 1) % 10) if shown else "1"
    assert lines(dealt(), pic(moment, rows={"figures": one_off}, scores=scores, back=[0, 0]), "figures") == [
        (shown, one_off)]
    _, fs = dealt().judge(pic(moment, rows={"figures": one_off}, scores=scores, back=[0, 0]))
    assert [(f.facts.line, f.facts.moment, f.who) for f in fs if getattr(f.facts, "line", None) == "figures"] == [
        ("figures", moment, None)]


# ------------------------------------------------------------------------------------------ the winner
def won(winner):
    j = dealt()
    j.see(Score(C, 3, ScoreContext.PLAY, 100))
    j.see(Score(winner, 4, ScoreContext.SHOW, 117))          # 121: the winner
    j.see(Score(C if winner == PL else PL, 9, ScoreContext.SHOW, 118))   # a later 127 does not take it over
    j.see(Win(winner, 0, 0))
    return j


@pytest.mark.parametrize("winner", [C, PL])
def test_the_winners_line_names_the_first_to_121(winner):
    final = f"pause {P.FINAL_BOARD_PAUSE}"
    right, other = P.WINNER_TEXT[winner], P.WINNER_TEXT[C if winner == PL else PL]
    assert lines(won(winner), pic(final, rows={"line 22": right}, flag=True), "line 22") == []
    assert lines(won(winner), pic(final, rows={"line 22": other}, flag=True), "line 22") == [(right, other)]


def test_a_score_of_120_is_no_winner_and_a_demonstration_is_not_counted():
    j = dealt()
    j.see(Score(C, 20, ScoreContext.PLAY, 100))               # 120: not yet
    j.see(Score(PL, 130, ScoreContext.DEMO, 0))              # the instructions' board: not the game's
    assert lines(j, pic(f"pause {P.FINAL_BOARD_PAUSE}", rows={"line 22": "anything"}, flag=True), "line 22") == []
    j.see(Score(C, 1, ScoreContext.GO, 120))
    assert lines(j, pic(f"pause {P.FINAL_BOARD_PAUSE}", rows={"line 22": ""}, flag=True), "line 22") == [
        (P.WINNER_TEXT[C], "")]


@pytest.mark.parametrize("moment", [f"pause {P.FINAL_BOARD_PAUSE}", f"input {P.ASK_AGAIN}"])
def test_the_winners_flag_at_the_final_board_and_the_tally(moment):
    rows = {"line 22": P.WINNER_TEXT[PL]}
    assert found(won(PL), pic(moment, rows=rows, flag=True)) == []
    assert found(won(PL), pic(moment, rows=rows, flag=False)) == [("screen line", PL, "the winner's flag", "no flag")]
    assert found(won(PL), pic(moment, rows=rows, flag=False, board=False)) == []     # no board drawn: no flag


def test_no_flag_is_asked_for_elsewhere():
    assert lines(won(PL), pic(f"inkey {P.NEXT_DEAL_WAIT}", flag=False), "flag") == []


# ------------------------------------------------------------------------------------------ line 22 and the message
@pytest.mark.parametrize("dealer", [C, PL])
def test_the_dealer_named_at_each_discard(dealer):
    for moment in (f"select {P.SELECT_FIRST_DISCARD}", f"select {P.SELECT_SECOND_DISCARD}"):
        right, other = P.DEALER_TEXT[dealer], P.DEALER_TEXT[C if dealer == PL else PL]
        assert lines(dealt(dealer=dealer), pic(moment, rows={"line 22": right}), "line 22") == []
        assert lines(dealt(dealer=dealer), pic(moment, rows={"line 22": other}), "line 22") == [(right, other)]


def test_line_22_is_cleared_in_the_play_and_the_show_and_names_the_cut_only_before_the_deal():
    for moment in (f"select {P.SELECT_PLAY}", f"select {P.SELECT_GO_CONFIRM}", f"pause {P.SHOW_PAUSE}",
                   f"inkey {P.NEXT_DEAL_WAIT}"):
        assert lines(dealt(), pic(moment, rows={}), "line 22") == []
        assert lines(dealt(), pic(moment, rows={"line 22": "Я СДАЮ"}), "line 22") == [("", "Я СДАЮ")]
    cut = f"inkey {P.CUT_WAIT}"
    before = ScreenJudge()
    before.see(Cut(3, 9))
    assert lines(before, pic(cut, rows={"line 22": P.CUT_TEXT}), "line 22") == []
    assert lines(ScreenJudge(), pic(cut, rows={}), "line 22") == [(P.CUT_TEXT, "")]      # before any cut too
    assert lines(dealt(), pic(cut, rows={"line 22": P.CUT_TEXT}), "line 22") == [("", P.CUT_TEXT)]   # the starter's cut


def test_the_message_is_the_one_set_but_not_at_an_input_or_the_cut():
    moment = f"select {P.SELECT_PLAY}"
    assert lines(dealt(), pic(moment, rows={"message": "ВЫБЕРИТЕ КАРТУ"}, message="ВЫБЕРИТЕ КАРТУ  "), "message") == []
    assert lines(dealt(), pic(moment, rows={"message": "ХОД"}, message="ВЫБЕРИТЕ КАРТУ"), "message") == [
        ("ВЫБЕРИТЕ КАРТУ", "ХОД")]
    assert lines(dealt(), pic(moment, rows={"message": "ХОД"}), "message") == []               # no message set
    for moment in (f"input {P.ASK_AGAIN}", "cut"):
        assert lines(dealt(), pic(moment, rows={"message": "ХОД"}, message="ВЫБЕРИТЕ КАРТУ"), "message") == []


# ------------------------------------------------------------------------------------------ the English edition
def test_the_english_editions_words():
    en = P.english_words()
    moment = f"select {P.SELECT_FIRST_DISCARD}"
    j = dealt(en, dealer=C)
    english_dealer = j.texts.dealer[C]
    assert english_dealer and english_dealer != P.DEALER_TEXT[C] and english_dealer == english_dealer.rstrip()
    assert lines(dealt(en, dealer=C), pic(moment, rows={"line 22": english_dealer}), "line 22") == []
    assert lines(dealt(en, dealer=C), pic(moment, rows={"line 22": P.DEALER_TEXT[C]}), "line 22") != []
    assert j.texts.cut != P.CUT_TEXT and j.texts.cut == j.texts.cut.rstrip()
    assert j.texts.winner[PL] != P.WINNER_TEXT[PL] and j.texts.go != P.GO_TEXT
    russian = ScreenJudge().texts
    assert (russian.dealer, russian.winner, russian.cut, russian.go) == (P.DEALER_TEXT, P.WINNER_TEXT, P.CUT_TEXT,
                                                                         P.GO_TEXT)


def test_a_picture_half_drawn_is_counted_apart_and_the_tally_counts_causes():
    half = Picture(moment=f"select {P.SELECT_PLAY}", line=0, slots={}, pegs={}, rows={"line 22": "x"}, board=False,
                   flag=False, variables={}, drawing=True)
    j = dealt()
    assert j.judge(half) == (0, []) and (j.skipped, j.pictures) == (1, 0)
    _, findings = j.judge(pic(f"select {P.SELECT_PLAY}", rows={"line 22": "x", "message": "y"}, board=False,
                              message="z"))
    assert (j.skipped, j.pictures) == (1, 1)
    # line 22 and the message differ; the count's row shows neither « ХОД! » nor « n »: stale; no pack drawn
    assert tally(findings) == {"screen line": 2, "screen stale": 1, "screen face": 1}


# ------------------------------------------------------------------------------------------ whose slot, and when
def test_a_slot_fault_names_whose_slot_it_is_and_the_moment():
    j = ScreenJudge()
    j.see(Cut(3, 9))
    _, findings = j.judge(pic("cut", board=False))               # nothing drawn at the cut: every slot wrong
    slots = sorted((f.facts.slot, f.who, f.facts.moment, f.facts.reason, f.expected) for f in findings
                   if hasattr(f.facts, "slot"))
    assert slots == [("cut computer", C, "cut", "cut", "up 9?"), ("cut pack 1", None, "cut", "pack", "down"),
                     ("cut pack 2", None, "cut", "pack", "down"), ("cut player", PL, "cut", "cut", "up 3?")]
    j = dealt()
    moment = f"select {P.SELECT_FIRST_DISCARD}"
    _, findings = j.judge(pic(moment, board=False, hand=list(SIX_P), chosen=[0, 0, 0, 0], instructions=False))
    who = {f.facts.slot: f.who for f in findings if hasattr(f.facts, "slot")}
    assert who["hand 1"] == PL and who["computer 1"] == C and who["computer 6"] == C
    j = dealt()
    j.see(Starter("7S"))
    _, findings = j.judge(pic(f"select {P.SELECT_PLAY}", board=False, hand=[], held=[]))
    who = {f.facts.slot: f.who for f in findings if hasattr(f.facts, "slot")}
    assert (who["deck"], who["starter"]) == (None, None)           # the pack and the starter are nobody's


def test_the_count_row_tail_read_from_column_9_to_14():
    moment = f"select {P.SELECT_PLAY}"
    def stale(rows):
        return [(f.facts.place, f.observed) for f in dealt().judge(pic(moment, rows=rows, board=False))[1]
                if f.cause.value == "screen stale"]
    assert stale({"table 6:9": " ХОД! "}) == []
    assert stale({"table 6:9": "Д"}) == [("table 6:9", "Д")]               # column 9 is the tail's first
    assert stale({"table 6:9": " 12"}) == []                              # « n » over « ХОД! »
    # « 12345 » from column 10 runs past the tail's last column (14) into 15: the tail is « 12345 », the run stale
    assert stale({"table 6:10": "12345Z"}) == [("table 6:10", "12345Z")]


def test_a_wrong_card_and_a_wrong_colour_in_full():
    from harness.program.records.events import Play
    j = ScreenJudge()
    j.see(Cut(3, 9))
    seen = {"cut player": "up 4S 7/0", "cut computer": "up 9D 7/2", "cut pack 1": "down", "cut pack 2": "down"}
    _, findings = j.judge(Picture(moment="cut", line=0, slots=seen, pegs={}, rows={}, board=False, flag=False,
                                  variables={}))
    slot_findings = [(x.cause.value, x.who, x.expected, x.observed) for x in findings if hasattr(x.facts, "slot")]
    # the player's cut of the wrong rank (only the rank is judged: the 9D of the computer's 9 is right, in red)
    assert slot_findings == [("screen card", PL, "3", "4S")]
    j = dealt()
    j.see(Starter("7S"))
    j.see(Play(C, "5D", 0))
    play = f"select {P.SELECT_PLAY}"
    slots = {"deck": "down", "starter": "up 8S 7/0", "computer 1": "up 5D 7/0", "hand 1": "up 5H 7/0"}
    _, findings = j.judge(Picture(moment=play, line=0, slots=slots, pegs={}, rows={}, board=False, flag=False,
                                  variables={"hand": ["5H", "6S", "7C", "8D"], "held": [1, 1, 1, 1]}))
    got = {x.facts.slot: (x.cause.value, x.who, x.expected, x.observed) for x in findings if hasattr(x.facts, "slot")}
    assert got["starter"] == ("screen card", None, "7S", "8S")
    assert got["computer 1"] == ("screen colour", C, "7/2", "7/0")         # a red card in black ink
    assert got["hand 1"] == ("screen colour", PL, "7/2", "7/0")
    assert got["hand 2"] == ("screen face", PL, "up 6S", "empty")


def test_face_faults_and_a_leftover_in_full():
    discard = f"select {P.SELECT_FIRST_DISCARD}"
    v = {"hand": list(SIX_P), "chosen": [0, 0, 0, 0]}
    def got(judge, moment, slots, **variables):
        _, fs = judge.judge(Picture(moment=moment, line=0, slots=slots, pegs={}, rows={}, board=False, flag=False,
                                    variables=variables))
        return {x.facts.slot: (x.cause.value, x.who, x.expected, x.observed) for x in fs if hasattr(x.facts, "slot")}
    # under the instructions' text the computer's hand may show anything but a face
    over = got(dealt(), discard, {"computer 1": "up 3C 7/0", "computer 2": "other ab"}, instructions=True, **v)
    assert over["computer 1"] == ("screen face", C, "not face up", "up 3C 7/0") and "computer 2" not in over
    plain = got(dealt(), discard, {"computer 1": "empty"}, instructions=False, **v)
    assert plain["computer 1"] == ("screen face", C, "down", "empty")
    # at the cut for deal nothing is dealt: a card's face or any other drawing left in a hand slot is a leftover
    before = ScreenJudge()
    before.see(Cut(3, 9))
    cut = got(before, f"inkey {P.CUT_WAIT}", {"hand 1": "other 12|ab", "computer 2": "up 5C 7/0", "cut pack 1": "down",
                                               "hand 2": "down"})
    assert cut["hand 1"] == ("screen left", PL, "empty", "other 12|ab")
    assert cut["computer 2"] == ("screen left", C, "empty", "up 5C 7/0")
    assert cut["hand 2"] == ("screen face", PL, "empty", "down")          # face down is not a leftover card


def test_checks_and_pictures_are_counted():
    from harness.program.records.events import Choice, ChoiceKind
    play = f"select {P.SELECT_PLAY}"
    j = dealt()
    # a play picture: 6 hand + 4 computer laid + 4 player laid + 2 computer hand + deck = 17 slots; the deal (no
    # kept hand yet: 0); pegs 2 and figures 1 (board); message 1, line 22 1, the count tail 1; the table 1
    checks, _ = j.judge(pic(play, scores=[1, 1], back=[0, 0], message="x", rows={"message": "x"}))
    assert checks == 17 + 2 + 1 + 3 + 1
    checks, _ = j.judge(pic(play, board=False))
    assert checks == 17 + 0 + 2 + 1
    j.judge(Picture(moment=play, line=0, slots={}, pegs={}, rows={}, board=False, flag=False, variables={},
                    drawing=True))
    j.judge(Picture(moment=play, line=0, slots={}, pegs={}, rows={}, board=False, flag=False, variables={},
                    drawing=True))
    assert (j.pictures, j.skipped) == (2, 2)
    # a peg fault names whose pegs, and the figures are blank when neither has pegged (no row read: blank too)
    _, fs = dealt().judge(pic(play, pegs={"computer": [9]}, scores=[1, 0], back=[0, 0], rows={"figures": "0     1"}))
    assert [(f.facts.whose, f.facts.moment) for f in fs if f.cause.value == "screen pegs"] == [(C, play)]
    assert lines(dealt(), pic(play, rows={}, scores=[0, 0], back=[0, 0]), "figures") == []
    # the first discard taken back (7885) is remembered only after a reselect, and only at the first discard
    first, second = f"select {P.SELECT_FIRST_DISCARD}", f"select {P.SELECT_SECOND_DISCARD}"
    v = {"hand": list(SIX_P), "instructions": False}
    j = dealt()
    j.judge(pic(first, board=False, chosen=[0, 0, 3, 0], **v))              # no reselect yet: nothing taken back
    assert j.expected_slots(pic(first, chosen=[0, 0, 0, 0], **v))["hand 3"].reason == "held"
    j.see(Choice(what=ChoiceKind.RESELECT, slot=3))
    j.judge(pic(second, board=False, chosen=[0, 0, 4, 0], **v))             # not the first discard's picture
    assert j.expected_slots(pic(first, chosen=[0, 0, 0, 0], **v))["hand 4"].reason == "held"
    j.judge(pic(first, board=False, chosen=[1, 2], **v))                    # no T(3) read: nothing to remember
    j.judge(pic(first, board=False, chosen=[0, 0, 3, 0], **v))
    assert j.expected_slots(pic(first, chosen=[0, 0, 0, 0], **v))["hand 3"].reason == "taken back"


# ------------------------------------------------------------------------------------ the table's texts
def test_a_stale_text_of_the_table_is_found_but_not_on_the_instructions_pages():
    """Outside the slots only the count row and the pointer may show text in the play: a word left at row 2
    is stale; the same word on an instructions page is not judged (killed mutant: the instructions' test)."""
    moment = f"select {P.SELECT_PLAY}"
    stale = {"table 2:0": "СТАРОЕ"}
    def stale_found(picture, text="СТАРОЕ"):
        return [f for f in found(dealt(), picture) if f[0] == "screen stale" and f[3] == text]
    assert len(stale_found(pic(moment, rows=stale))) == 1                                  # planted
    assert stale_found(pic(moment, rows=stale, instructions=True)) == []                   # near miss
    row, a, _ = P.TEXT_COUNT
    assert stale_found(pic(moment, rows={f"table {row}:{a}": "СТАРОЕ"})) == []             # the count row is allowed


def test_each_text_of_the_table_is_a_check():
    """One check a table text, at least one a picture (killed mutant: every text counted as the first)."""
    moment = f"select {P.SELECT_PLAY}"
    one, _ = dealt().judge(pic(moment, rows={"table 2:0": "A"}))
    three, _ = dealt().judge(pic(moment, rows={"table 2:0": "A", "table 3:0": "B", "table 4:0": "C"}))
    none, _ = dealt().judge(pic(moment, rows={}))
    assert three - one == 2 and one == none          # no text still counts one check of the table


# ------------------------------------------------------------------------------------ the survivors of issue 36
# Each test below plants the fault a surviving mutant of screen_judgements.py let through, beside a near miss.
from harness.program.records.events import Choice, ChoiceKind, Discard, Show, ShowHand


def face(card):
    """The slot code of *card* face up in its right ink (the near miss every slot test starts from)."""
    return f"up {card} {P.PAPER_FACE_UP}/{P.INK_RED if card[1] in 'HD' else P.INK_BLACK}"


def slot_faults(judge, picture):
    return {f.facts.slot: (f.cause.value, f.expected, f.facts.reason) for f in judge.judge(picture)[1]
            if hasattr(f.facts, "slot")}


def reasons(judge, picture):
    return {name: (e.state, e.reason, e.card) for name, e in judge.expected_slots(picture).items()}


def test_after_a_win_the_next_cut_is_a_cut_for_deal_again():
    """A Win ends the game: the cut that follows is the next game's cut for deal (7430), with line 22 naming the
    cut and nothing dealt; before the Win the same picture is the starter's cut (killed: phase "over" lost)."""
    cut = f"inkey {P.CUT_WAIT}"
    for winner in (C, PL):
        assert lines(won(winner), pic(cut, rows={"line 22": P.CUT_TEXT}), "line 22") == []
        assert lines(won(winner), pic(cut, rows={}), "line 22") == [(P.CUT_TEXT, "")]
        assert reasons(won(winner), pic(cut))["hand 1"] == ("empty", "not dealt", None)
    playing = dealt()
    playing.see(Score(PL, 4, ScoreContext.SHOW, 117))            # 121 but no Win yet: still the starter's cut
    assert lines(playing, pic(cut, rows={"line 22": P.CUT_TEXT}), "line 22") == [("", P.CUT_TEXT)]
    assert reasons(playing, pic(cut))["hand 1"] == ("empty", "cleared", None)


def reselected(*slots):
    j = dealt()
    for slot in slots:
        j.see(Choice(what=ChoiceKind.RESELECT, slot=slot))
    return j


def test_every_first_discard_taken_back_is_remembered_and_no_other():
    first = f"select {P.SELECT_FIRST_DISCARD}"
    v = {"hand": list(SIX_P), "instructions": False}
    j = reselected(3)
    j.judge(pic(first, board=False, chosen=[0, 0, 3], **v))               # T() read three long: T(3) is there
    j.judge(pic(first, board=False, chosen=[0, 0, 5, 0], **v))           # no second reselect: 5 is not taken back
    got = reasons(j, pic(first, chosen=[0, 0, 0, 0], **v))
    assert (got["hand 3"][1], got["hand 5"][1], got["hand 1"][1]) == ("taken back", "held", "held")
    j.see(Choice(what=ChoiceKind.RESELECT, slot=6))
    j.judge(pic(first, board=False, chosen=[0, 0, 6, 0], **v))           # a second reselect: 6 too
    got = reasons(j, pic(first, chosen=[0, 0, 0, 0], **v))
    assert (got["hand 3"][1], got["hand 6"][1], got["hand 5"][1]) == ("taken back", "taken back", "held")


def test_a_card_taken_back_is_judged_by_its_face():
    first = f"select {P.SELECT_FIRST_DISCARD}"
    v = {"hand": list(SIX_P), "instructions": False, "chosen": [0, 0, 0, 0]}
    j = reselected(2)
    j.judge(pic(first, board=False, chosen=[0, 0, 2, 0], hand=list(SIX_P), instructions=False))
    right = {f"hand {i + 1}": face(c) for i, c in enumerate(SIX_P)}
    assert "hand 2" not in slot_faults(j, Picture(moment=first, line=0, slots=right, pegs={}, rows={}, board=False,
                                                  flag=False, variables=v))
    wrong = right | {"hand 2": face("9S")}
    assert slot_faults(j, Picture(moment=first, line=0, slots=wrong, pegs={}, rows={}, board=False, flag=False,
                                  variables=v))["hand 2"] == ("screen card", "2S", "taken back")


def test_the_second_discard_shows_the_first_chosen_face_down_from_a_short_t():
    second = f"select {P.SELECT_SECOND_DISCARD}"
    v = {"hand": list(SIX_P), "instructions": False}
    assert reasons(dealt(), pic(second, chosen=[0, 0, 2], **v))["hand 2"] == ("down", "chosen", None)
    assert reasons(dealt(), pic(second, chosen=[0, 0, 2], **v))["hand 1"] == ("up", "held", "AS")
    got = reasons(dealt(), pic(second, chosen=[0, 0], **v))              # T() read two long: no first discard
    assert {r for _, r, _ in got.values()} == {"held", "hidden"} and got["hand 2"] == ("up", "held", "2S")


def test_a_gap_in_the_hand_skips_that_slot_only():
    first = f"select {P.SELECT_FIRST_DISCARD}"
    hand = ["AS", None, "3S", "4S", "5S", "6S"]
    got = reasons(dealt(), pic(first, chosen=[0, 0, 0, 0], hand=hand, instructions=False))
    assert "hand 2" not in got and got["hand 3"] == ("up", "held", "3S") and got["hand 6"] == ("up", "held", "6S")


def test_the_computers_hand_under_the_instructions_is_judged_as_hidden():
    first = f"select {P.SELECT_FIRST_DISCARD}"
    v = {"hand": list(SIX_P), "chosen": [0, 0, 0, 0], "instructions": True}
    fs = slot_faults(dealt(), Picture(moment=first, line=0, slots={"computer 4": face("KC")}, pegs={}, rows={},
                                      board=False, flag=False, variables=v))
    assert fs["computer 4"] == ("screen face", "not face up", "hidden")
    assert reasons(dealt(), pic(first, **v))["computer 1"] == ("hidden", "hidden", None)


def test_the_play_with_a_short_hand_or_a_short_held_and_the_reasons_of_its_empty_slots():
    play = f"select {P.SELECT_PLAY}"
    for hand, held in ((["AS", "2S", "3S"], [1, 1, 1, 1]), (["AS", "2S", "3S", "4S"], [1, 1, 1])):
        j = dealt()
        j.see(Discard(PL, ("5S", "6S")))
        got = reasons(j, pic(play, hand=hand, held=held))
        assert got["hand 3"] == ("up", "held", "3S") and got["hand 4"] == ("empty", "laid", None)
        assert got["hand 5"] == ("empty", "not dealt", None) and got["hand 6"] == ("empty", "not dealt", None)
        _, fs = j.judge(pic(play, hand=hand, held=held))
        # three drawn and none laid: one of the four kept is missing from the table
        assert [(f.cause.value, f.who, f.expected, f.observed) for f in fs if f.cause.value == "screen deal"] == [
            ("screen deal", PL, ["2S", "3S", "4S", "AS"], ["2S", "3S", "AS"])]
    j = dealt()
    j.see(Discard(PL, ("5S", "6S")))
    _, fs = j.judge(pic(play, hand=["AS", "2S", "3S", "4S"], held=[1, 1, 1, 1]))
    assert [f for f in fs if f.cause.value == "screen deal"] == []                      # the near miss


def test_the_play_judges_its_slots_in_the_order_of_the_table():
    """The findings come in the program model's order: the hand, the computer's four laid, the player's four
    laid, then the two places of the computer's hand (not one of them among its laid), the pack, the starter."""
    j = dealt()
    j.see(Starter("7S"))
    order = list(j.expected_slots(pic(f"select {P.SELECT_PLAY}", hand=[], held=[])))
    want = [s.name for s in P.HAND_SLOTS_DEALT + P.COMPUTER_SLOTS_DEALT[:4] + P.PLAYED_SLOTS[PL]
            + P.COMPUTER_SLOTS_DEALT[4:]] + [P.DECK.name, P.STARTER.name]
    assert order == want


def test_the_deal_is_a_check_of_its_own_at_the_play():
    play = f"select {P.SELECT_PLAY}"
    v = {"hand": ["AS", "2S", "3S", "4S"], "held": [1, 1, 1, 1]}
    before, _ = dealt().judge(pic(play, board=False, **v))
    j = dealt()
    j.see(Discard(PL, ("5S", "6S")))
    after, _ = j.judge(pic(play, board=False, **v))
    assert after == before + 1


def shown(*events, dealer=PL):
    j = dealt(dealer=dealer)
    j.see(Starter("7S"))
    for e in events:
        j.see(e)
    return j


def show(hand):
    return Show(hand, 0, 0, 0, 0, 0, (), ())


def test_the_crib_is_shown_at_the_claim_only_after_the_cribs_show():
    """At the claim (4780) the hand on the table is the last Show's: the crib after the crib's Show, the hand
    after the hand's; at the show's pause the hands, whatever was shown last; the next deal's wait: the crib."""
    crib, hand, computer = ["KH", "KD", "KS", "KC"], ["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]
    v = {"crib": crib, "hand": hand, "computer": computer, "dealer": P.MAN}
    claim, pause = f"input {P.ASK_CLAIM}", f"pause {P.SHOW_PAUSE}"
    after_crib = reasons(shown(show(ShowHand.CRIB)), pic(claim, **v))
    assert after_crib["shown 1"] == ("up", "crib", "KH") and after_crib["computer 1"][1] == "cleared"
    after_hand = reasons(shown(show(ShowHand.PLAYER)), pic(claim, **v))
    assert after_hand["shown 1"] == ("up", "shown", "AS") and after_hand["computer 1"] == ("up", "shown", "AH")
    at_pause = reasons(shown(show(ShowHand.CRIB)), pic(pause, **v))
    assert at_pause["shown 1"] == ("up", "shown", "AS") and at_pause["computer 1"] == ("up", "shown", "AH")


def test_the_computers_hand_is_not_yet_shown_at_the_players_claim_when_the_computer_deals():
    claim = f"input {P.ASK_CLAIM}"
    v = {"hand": ["AS", "2S", "3S", "4S"], "computer": ["AH", "2H", "3H", "4H"], "dealer": P.ZX}
    j = shown(show(ShowHand.PLAYER), dealer=C)
    assert reasons(j, pic(claim, **v))["computer 1"] == ("empty", "not yet shown", None)
    right = {f"shown {i + 1}": face(c) for i, c in enumerate(v["hand"])}
    assert "computer 1" not in slot_faults(j, Picture(moment=claim, line=0, slots=right, pegs={}, rows={},
                                                      board=False, flag=False, variables=v))
    left = right | {"computer 1": face("AH")}
    assert slot_faults(j, Picture(moment=claim, line=0, slots=left, pegs={}, rows={}, board=False, flag=False,
                                  variables=v))["computer 1"] == ("screen left", "empty", "not yet shown")
    # the player deals: the computer's hand was shown before the player's; a card it lacks is not judged
    v2 = v | {"dealer": P.MAN, "computer": ["AH", None, "3H", "4H"]}
    got = reasons(shown(show(ShowHand.PLAYER)), pic(claim, **v2))
    assert got["computer 1"] == ("up", "shown", "AH") and "computer 2" not in got
    # a card that is not a card's name (a transcript's number) is no card either
    got = reasons(shown(show(ShowHand.PLAYER)), pic(claim, **(v2 | {"computer": ["AH", 7, "3H", "4H"]})))
    assert got["computer 1"] == ("up", "shown", "AH") and "computer 2" not in got


def test_pegs_and_figures_are_checks_only_with_their_variables():
    play = f"select {P.SELECT_PLAY}"
    off, _ = dealt().judge(pic(play, board=False))
    assert dealt().judge(pic(play, board=True))[0] == off                         # no scores, no back
    assert dealt().judge(pic(play, board=True, scores=[1, 1]))[0] == off + 1      # the figures only
    assert dealt().judge(pic(play, board=True, scores=[1, 1], back=[0, 0]))[0] == off + 3


def test_the_message_line_in_full():
    play = f"select {P.SELECT_PLAY}"
    _, fs = dealt().judge(pic(play, rows={}, message="ВЫБЕРИТЕ КАРТУ"))      # set but not on the screen
    got = [(f.expected, f.observed, f.facts.line, f.facts.moment) for f in fs if getattr(f.facts, "line", 0) == "message"]
    assert got == [("ВЫБЕРИТЕ КАРТУ", "", "message", play)]
    assert lines(dealt(), pic(play, rows={}, message="   "), "message") == []       # a blank message, no row: right


def test_line_22_and_the_flag_name_their_moment():
    play, final = f"select {P.SELECT_PLAY}", f"pause {P.FINAL_BOARD_PAUSE}"
    _, fs = dealt().judge(pic(play, rows={"line 22": "Я СДАЮ"}))
    assert [(f.facts.line, f.facts.moment) for f in fs if getattr(f.facts, "line", 0) == "line 22"] == [
        ("line 22", play)]
    _, fs = won(C).judge(pic(final, rows={"line 22": P.WINNER_TEXT[C]}, flag=False))
    assert [(f.who, f.facts.line, f.facts.moment) for f in fs if f.observed == "no flag"] == [(C, "flag", final)]


def test_the_count_rows_stale_tail_in_full():
    play = f"select {P.SELECT_PLAY}"
    row = P.TEXT_COUNT[0]
    _, fs = dealt().judge(pic(play, rows={f"table {row}:9": "Д"}, board=False))
    got = [(f.expected, f.observed, f.facts.place, f.facts.moment) for f in fs if f.cause.value == "screen stale"]
    assert got == [("« ХОД! » or « n »", "Д", f"table {row}:9", play)]


def test_a_stale_table_text_in_full_and_the_instructions_pages_no_check():
    play = f"select {P.SELECT_PLAY}"
    _, fs = dealt().judge(pic(play, rows={"table 2:0": "СТАРОЕ"}, board=False))
    got = [(f.expected, f.observed, f.facts.place, f.facts.moment) for f in fs if getattr(f.facts, "place", 0) == "table 2:0"]
    assert got == [("", "СТАРОЕ", "table 2:0", play)]
    plain, _ = dealt().judge(pic(play, board=False))
    over, _ = dealt().judge(pic(play, board=False, instructions=True))
    assert over == plain - 1                        # the table is one check, none on an instructions page


@pytest.mark.parametrize("who", [C, PL])
def test_the_english_words_are_stripped_on_the_right_only(who):
    j = dealt(P.english_words())
    from harness.program.model.english import english
    for key, source in (("dealer", P.DEALER_TEXT[who]), ("winner", P.WINNER_TEXT[who] + " ")):
        text = (j.texts.dealer if key == "dealer" else j.texts.winner)[who]
        assert text == english(source).rstrip() and text == text.rstrip() and text.startswith(english(source)[:1])


@pytest.mark.parametrize("moment", [f"pause {P.FINAL_BOARD_PAUSE}", f"input {P.ASK_AGAIN}"])
def test_the_flag_is_one_check_added_to_the_lines(moment):
    rows = {"line 22": P.WINNER_TEXT[PL], "message": "x"}
    with_board, _ = won(PL).judge(pic(moment, rows=rows, flag=True, board=True, message="x"))
    without, _ = won(PL).judge(pic(moment, rows=rows, flag=True, board=False, message="x"))
    lines_only = 2 if moment.startswith("pause") else 0        # no message nor line 22 judged at the input
    assert without == lines_only and with_board == without + 1     # message and line 22 (at the pause), the flag


def test_the_english_edition_judges_its_cut_and_go_texts_in_english():
    en, ru = dealt(P.english_words()), dealt()
    assert (en.texts.cut, en.texts.go) == ("LOWEST CARD DEALS", " GO!  ")        # cut stripped; go as printed
    assert (ru.texts.cut, ru.texts.go) == ("МЛАДШАЯ КАРТА СДАЕТ", " ХОД! ")
