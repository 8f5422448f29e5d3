"""An RZX that inflates past the cap is refused, and a real one (a recorded game) is read."""
from __future__ import annotations


import pytest

from harness.errors import InputError




# ---------------------------------------------------------------- the RZX reader's inflation
def test_an_rzx_that_inflates_past_the_cap_is_refused_and_a_real_one_is_read():
    from harness.spectrum import rzx
    from rzx_game import recorded_game
    big_snapshot = rzx.write_rzx(rzx.Rzx(snapshot=bytes(rzx.MAX_SNAPSHOT + 1)))
    assert len(big_snapshot) < 5_000
    with pytest.raises(InputError, match=r"^BIG: block 0x30 at byte \d+: inflates to more than 1,048,576 bytes"):
        rzx.read_rzx(big_snapshot, "BIG")
    frames = [rzx.RzxFrame(1, bytes([i % 256]) * 60_000) for i in range(600)]     # 36 MB of port readings
    big_frames = rzx.write_rzx(rzx.Rzx(snapshot=bytes(100), frames=frames))
    with pytest.raises(InputError, match=r"^BIG: block 0x80 at byte \d+: inflates to more than 33,554,432 bytes"):
        rzx.read_rzx(big_frames, "BIG")
    assert len(rzx.read_rzx(rzx.write_rzx(rzx.Rzx(snapshot=bytes(rzx.MAX_SNAPSHOT)))).snapshot) == rzx.MAX_SNAPSHOT
    game = rzx.read_rzx(recorded_game().rzx)                         # the near miss: a whole game's recording
    assert len(game.frames) > 20_000
