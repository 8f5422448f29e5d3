"""regress --rzx writes the same transcript as without (a game played twice, recorded and not)."""
from __future__ import annotations



from rzx_game import recorded_game


# ---------------------------------------------------------------- a whole regress game
def test_regress_rzx_writes_the_same_transcript_as_without():
    game = recorded_game()
    assert game.transcript == game.plain_transcript      # a picture in a polling loop is named by its head
    assert game.report["completed"] == 1 and game.report["unexplained_differences"] == 0
