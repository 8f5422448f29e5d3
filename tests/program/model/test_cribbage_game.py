"""A whole deal and game as a state machine, checked against the seeds."""

import pytest

from harness.cribbage import (ARTICLE, CADENZA, STANDARD, Game, IllegalAction, Rules,
                              parse_russian, replay)
from harness.cribbage.cards import format_cards
from harness.program.model.rulesets import PROGRAM      # the listing's rule set, built by the program model

DEALER, OPPONENT = 0, 1

# «СДАТЧИК ПРОТИВНИК / ПК Б9 Т9 Б8 П7 ЧТ БВ П10 Ч8 Т7 Ч5 Т3» (the OCR's "48",
# "45", "ТЗ" read as Ч8, Ч5, Т3).
EXAMPLE_DEAL = {
    "dealer": DEALER,
    "hands": [format_cards(parse_russian("ПК Б9 Т9 Б8 П7 ЧТ")),
              format_cards(parse_russian("БВ П10 Ч8 Т7 Ч5 Т3"))],
    # «Противник сносит в криб 10-3», «сдатчик ... легко сносит К-Т»
    "discards": ["KS AH", "TS 3C"],
    # «После переворота стартера оказалось, что это пиковая шестерка»
    "starter": "6S",
    "plays": ["8H", "7S", "7C", "9D", "JD", "9C", "5H", "go", "8D"],
}


def events(step):
    return [(e.player, e.points, e.reason) for e in step.events]


def test_article_example_deal_step_by_step():
    g = Game(dealer=DEALER)
    steps = g.replay(EXAMPLE_DEAL)
    by_action = [(s.action.split(" (")[0], events(s)) for s in steps]
    assert by_action[:4] == [("deal 1", []), ("discard TS 3C", []), ("discard KS AH", []),
                             ("starter 6S", [])]
    play = by_action[4:13]
    assert play == [
        ("play 8H", []),                                  # «1. ... "Восемь"»
        ("play 7S", [(DEALER, 2, "fifteen")]),            # «2. ... "Пятнадцать" - "два очка"»
        ("play 7C", [(OPPONENT, 2, "pair")]),             # «3. ... "пара" - "два очка"»
        ("play 9D", [(DEALER, 2, "thirty-one")]),         # «4. ... "Тридцать одно" - "два очка"»
        ("play JD", []),                                  # «5. ... "Десять"»
        ("play 9C", []),                                  # «6. ... "Девятнадцать"»
        ("play 5H", []),                                  # «7. ... "Двадцать четыре"»
        ("go", [(OPPONENT, 1, "go")]),                    # «8. ... "Ход!" и противник заносит себе очко»
        ("play 8D", [(DEALER, 1, "last card")]),          # «9. ... получает очко "за последнюю карту"»
    ]
    shows = by_action[13:]
    assert shows == [
        ("show pone", [(OPPONENT, 8, "hand")]),     # «ПРОТИВНИК ... Итого: 8 очков»
        ("show dealer", [(DEALER, 16, "hand")]),    # double run 9-9-8-7 + 6 (hand count, see show tests)
        ("show crib", [(DEALER, 0, "crib")]),       # «нет ни одного очка»
    ]
    assert g.scores == [2 + 2 + 1 + 16, 2 + 1 + 8]
    assert g.phase == "deal" and g.dealer == OPPONENT  # «Сдача в игре производится по очереди»


def test_article_example_deal_is_the_same_under_every_preset():
    totals = {}
    for rules in (STANDARD, ARTICLE, PROGRAM, CADENZA):
        g, _ = replay({"deals": [EXAMPLE_DEAL]}, rules)
        totals[rules.name] = tuple(g.scores)
    assert set(totals.values()) == {(21, 11)}


def test_cut_for_deal_lower_card_deals():
    # program line 7410: «МЛАДШАЯ КАРТА СДАЕТ»; ace is low («Туз - младшая карта»)
    g = Game()
    assert g.cut_for_deal("AH", "KS") == 0
    g = Game()
    assert g.cut_for_deal("9H", "3S") == 1
    g = Game()
    assert g.cut_for_deal("5H", "5S") is None and g.phase == "cut"  # equal: cut again
    assert g.cut_for_deal("5H", "6S") == 0
    g = Game(Rules(lower_card_deals=False))
    assert g.cut_for_deal("AH", "KS") == 1


def _to_starter(rules, starter="JH", dealer=0):
    g = Game(rules, dealer=dealer)
    g.deal("AS 2S 3S 4S 5S 6S", "AC 2C 3C 4C 5C 6C")
    g.discard(0, "5S 6S")
    g.discard(1, "5C 6C")
    return g, g.starter(starter)


def test_his_heels():
    # Cadenza: "If the starter is a jack, the dealer scores two points 'for his
    # heels'"; program line 8020: «2 ОЧКА ЗА ЕГО ЧЕЛЯДЬ»
    for rules in (STANDARD, CADENZA, PROGRAM):
        _, ev = _to_starter(rules)
        assert [(e.player, e.points, e.reason) for e in ev] == [(0, 2, "his heels")]
    # article text: «Если валет оказывается картой-стартером, то сдатчику
    # засчитывается очко»
    _, ev = _to_starter(ARTICLE)
    assert [(e.player, e.points, e.rule) for e in ev] == [(0, 1, "his_heels")]
    _, ev = _to_starter(STANDARD, starter="QH")
    assert ev == []


def test_non_dealer_leads_and_illegal_actions():
    g, _ = _to_starter(STANDARD, starter="KH", dealer=0)
    # «Первым выкладывает любую свою карту несдававший»
    assert g.expected() == ("play", 1)
    with pytest.raises(IllegalAction):
        g.play("AS")              # dealer out of turn
    with pytest.raises(IllegalAction):
        g.go()                    # the pone can play: no go
    with pytest.raises(IllegalAction):
        g.play("KD")              # nobody holds it
    g.play("4C")
    with pytest.raises(IllegalAction):
        g.show()


GO_DEAL = {
    "dealer": 0,
    "hands": ["JD TS KC QC 7H 8H", "KH 9H AH 2H 3S 4S"],
    "discards": ["7H 8H", "3S 4S"],
    "starter": "5D",
}


def test_go_then_play_on_then_go_point():
    # Article: «Тогда он объявляет "ХОД" и его противник получает себе очко.
    # Теперь противник может ... выкладывать их на стол, оставаясь в пределах
    # 31 очка ... если меньше [31], то одно.»  Cadenza: "that player's opponent
    # must play until he/she is out of cards, or has no card that would not
    # make the total ... greater than 31."
    g = Game(dealer=0)
    g.deal(*GO_DEAL["hands"])
    g.discard(1, "3S 4S"), g.discard(0, "7H 8H"), g.starter("5D")
    assert g.play("KH") == [] and g.play("JD") == [] and g.play("9H") == []
    assert g.expected() == ("go", 0)        # dealer holds TS KC QC at 29
    assert g.go() == []                     # the point waits: the pone may reach 31
    assert g.expected() == ("play", 1)
    assert g.play("AH") == []               # 30
    assert g.expected() == ("go", 1)        # 2H would make 32
    ev = g.go()
    assert [(e.player, e.points, e.reason) for e in ev] == [(1, 1, "go")]
    # «Первым кладет карту тот, кто первым пропустил ход»
    assert g.expected() == ("play", 0)


def _play_out(rules):
    g = Game(rules, dealer=0)
    g.deal(*GO_DEAL["hands"])
    g.discard(1, "3S 4S"), g.discard(0, "7H 8H"), g.starter("5D")
    for c in ("KH", "JD", "9H"):
        g.play(c)
    g.go(), g.play("AH"), g.go()
    out = [g.play("TS"), g.play("2H"), g.play("KC")]   # pone is now out of cards
    assert g.expected() == ("go", 0)                   # QC would make 32
    out.append(g.go())
    out.append(g.play("QC"))
    return g, [[(e.player, e.points, e.reason) for e in ev] for ev in out]


def test_playing_out_alone_standard_and_cadenza():
    # Standard (and the article): the go point goes to the player who laid the
    # last card of the series even when the opponent has run out of cards.
    g, ev = _play_out(STANDARD)
    assert ev == [[], [], [], [(0, 1, "go")], [(0, 1, "last card")]]
    # Cadenza: "If a player cannot play because he/she has no cards, the other
    # player plays out his/her hand, but is not given any additional score.
    # ... if the total ... would exceed 31, the played cards are moved away and
    # the count starts at zero again."  "A player receives 1 for playing the
    # last card".
    g, ev = _play_out(CADENZA)
    assert ev == [[], [], [], [], [(0, 1, "last card")]]
    assert g.phase == "show"


THIRTY_ONE_LAST = {
    "dealer": 0,
    "hands": ["8H 8D 9S TD AS 2S", "7H 8C 9C 3H KC QC"],
    "discards": ["AS 2S", "KC QC"],
    "starter": "4D",
    "plays": ["7H", "8H", "8C", "8D", "9C", "9S", "3H", "TD"],
}


def _play_events(rules):
    g = Game(rules)
    steps = g.replay_deal(THIRTY_ONE_LAST)
    return [events(s) for s in steps if s.action.startswith("play")]


def test_thirty_one_on_the_last_card():
    std = _play_events(STANDARD)
    assert std[:4] == [[], [(0, 2, "fifteen")], [(1, 2, "pair")],
                       [(0, 2, "thirty-one"), (0, 6, "pair royal")]]
    assert std[4:7] == [[], [(0, 2, "pair")], []]
    # Cadenza: "A player receives 1 for playing the last card, or 2 if this
    # brings the total of played cards to exactly 31."
    assert std[7] == [(0, 2, "thirty-one")]
    assert _play_events(CADENZA)[7] == [(0, 2, "thirty-one")]
    # Article: «Ход последней картой (из восьми) дает еще одно очко, а если к
    # тому же ... образовалось 31, то добавляются 2 дополнительных очка» = 3
    art = _play_events(ARTICLE)[7]
    assert art == [(0, 2, "thirty-one"), (0, 1, "last card")]
    assert sum(p for _, p, _ in art) == 3


def test_thirty_one_resets_and_the_other_player_leads():
    g = Game(dealer=0)
    g.deal(*THIRTY_ONE_LAST["hands"])
    g.discard(0, "AS 2S"), g.discard(1, "KC QC"), g.starter("4D")
    for c in ("7H", "8H", "8C", "8D"):
        g.play(c)
    # «5. Противник открывает новый счет» after the dealer's 31
    assert g.count == 0 and g.expected() == ("play", 1)


def test_implied_go_in_a_transcript():
    plays = ["KH", "JD", "9H", "AH", "TS", "2H", "KC", "QC"]   # no "go" written
    g = Game(dealer=0)
    steps = g.replay_deal({**GO_DEAL, "plays": plays})
    implied = [s.action for s in steps if "implied" in s.action]
    assert len(implied) == 3
    explicit = Game(dealer=0)
    explicit.replay_deal({**GO_DEAL, "plays": ["KH", "JD", "9H", "go", "AH", "go", "TS", "2H",
                                               "KC", "go", "QC"]})
    assert g.scores == explicit.scores and g.phase == "deal"
    with pytest.raises(IllegalAction):
        Game(dealer=0).replay_deal({**GO_DEAL, "plays": ["go"]})
    lenient = Game(dealer=0)
    steps = lenient.replay_deal({**GO_DEAL, "plays": ["go"] + plays}, strict=False)
    assert steps[4].action.startswith("go (ignored") and lenient.scores == g.scores


def test_show_order_and_game_ends_the_moment_121_is_reached():
    # Cadenza: "Cards are shown in the following order: non-dealer's hand,
    # dealer's hand, and crib"; the game ends when "a player gets a score of
    # 121 or greater".
    g = Game(dealer=DEALER)
    g.scores = [110, 110]
    g.replay(EXAMPLE_DEAL)
    # pegging: dealer 110+2+2+1 = 115, opponent 110+2+1 = 113; the opponent's
    # hand (8) is counted first and reaches 121: the dealer's 16 never counts
    assert g.winner == OPPONENT and g.scores == [115, 121]
    assert [s.action for s in g.log][-1] == "show pone"
    with pytest.raises(IllegalAction):
        g.show()
    assert g.game_result() == (OPPONENT, 115, 1)


def test_game_can_end_during_the_play():
    g = Game(dealer=DEALER)
    g.scores = [119, 0]
    steps = g.replay(EXAMPLE_DEAL)
    assert g.winner == DEALER and g.scores[DEALER] == 121
    assert steps[-1].action.startswith("play 7S")     # the fifteen pegs out


def test_game_of_61():
    # Cadenza: "If the game is played once around, play continues until one
    # player achieves a score of 61 or more."
    g = Game(Rules(game_length=61), dealer=DEALER)
    g.scores = [40, 53]
    g.replay(EXAMPLE_DEAL)
    assert g.winner == OPPONENT and g.scores[OPPONENT] == 61 + 3


def test_game_points_lurch_and_skunk():
    # Article: «Победителю в гейме засчитывается одно очко, если его противник
    # набрал более 61 очка и два очка, если тот набрал меньше.»
    assert ARTICLE.game_points_for(62) == 1
    assert ARTICLE.game_points_for(60) == 2
    # Cadenza: "If the game is played twice around and the loser receives a
    # score less than 61, the winner is given an additional game score"; "If
    # the game is played once around and the loser receives a score less than
    # 31, that player is 'lurched'".
    assert CADENZA.game_points_for(60) == 2
    assert CADENZA.game_points_for(61) == 1
    once = CADENZA.with_(game_length=61)
    assert once.game_points_for(30) == 2 and once.game_points_for(31) == 1
    # Modern skunk: "a 'skunk' (double game) for the winner if the losing
    # player fails to pass the three-quarter mark - 91 points or more - and it
    # is a 'double skunk' (quadruple game) if the loser fails to pass the
    # halfway mark (61 or more points)."
    assert [STANDARD.game_points_for(s) for s in (91, 90, 61, 60)] == [1, 2, 2, 4]
    assert PROGRAM.game_points_for(10) == 1   # line 8260: LET G(PLAYER)=G(PLAYER)+1


def _show_with_claims(rules, claims):
    g = Game(rules, dealer=DEALER)
    steps = g.replay({**EXAMPLE_DEAL, "claims": claims})
    return g, [events(s) for s in steps if s.action.startswith("show")]


def test_muggins_standard():
    # «если Вы, объявляя свои очки, что-то забудете подсчитать, то Ваш
    # соперник имеет право Вас подправить, объявив "Маггинз!" и эти очки,
    # которые он увидел, а Вы - нет, запишутся ему.»
    rules = STANDARD.with_(muggins="standard")
    _, shows = _show_with_claims(rules, [6, 16, 0])     # the opponent missed 2 of his 8
    assert shows[0] == [(OPPONENT, 6, "hand"), (DEALER, 2, "muggins")]
    assert shows[1] == [(DEALER, 16, "hand")]
    _, shows = _show_with_claims(rules, [10, 16, 0])    # an over-claim is just corrected
    assert shows[0] == [(OPPONENT, 8, "hand")]


def test_muggins_as_the_program_does_it():
    # Listing 4790-4800: IF SS=S+P+F+FL+NOB THEN «Я СОГЛАСЕН» ... else
    # «НЕВЕРНО. Я ПОЛУЧАЮ ОЧКИ!» and PLAYER=ZX takes the whole total.
    g, shows = _show_with_claims(PROGRAM, [6, 16, 0])
    assert shows[0] == [(OPPONENT, 0, "hand"), (DEALER, 8, "muggins")]
    _, shows = _show_with_claims(PROGRAM, [9, 16, 0])   # an over-claim too
    assert shows[0] == [(OPPONENT, 0, "hand"), (DEALER, 8, "muggins")]
    _, shows = _show_with_claims(PROGRAM, [8, 16, 0])
    assert shows[0] == [(OPPONENT, 8, "hand")]
    # muggins off: claims are ignored
    _, shows = _show_with_claims(STANDARD, [6, 16, 0])
    assert shows[0] == [(OPPONENT, 8, "hand")]


def test_deal_alternates_and_rules_differences_are_named():
    g = Game(dealer=0)
    g.replay(EXAMPLE_DEAL)
    with pytest.raises(IllegalAction):
        g.deal("AS 2S 3S 4S 5S 6S", "AC 2C 3C 4C 5C 6C", dealer=0)
    assert set(STANDARD.differences(ARTICLE)) == {
        "his_heels", "thirty_one_last_card", "game_points", "muggins"}
    assert CADENZA.differences(STANDARD) == ["go_point_when_opponent_out", "game_points"]


def test_a_forced_go_before_any_card_of_a_series_passes_the_turn_without_points():
    """What a program under test may accept (D2 at count 0 cannot happen, but a transcript may say so):
    the engine follows the forced go without a card to score it on, and the play goes on."""
    from harness.cribbage import Game
    g = Game("standard")
    g.deal("KS QS 9D 9C 8D 7S", "TS JD 8H 5H 7C AC", dealer=0)
    g.discard(0, "KS QS")
    g.discard(1, "TS JD")
    g.starter("2D")
    assert g.turn == 1 and g.count == 0
    assert g.go(1, force=True) == []
    assert g.turn == 0 and g.phase == "play"
    assert [e.reason for e in g.play("9D", 0)] == []
