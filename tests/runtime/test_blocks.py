"""The one writer of generated blocks (harness/runtime/blocks.py): the block replaced, the rest kept byte
for byte, a page without its pair of markers refused."""
import pytest

from harness.errors import InputError

from harness.runtime.blocks import replace_block

B, E = "<!-- b -->", "<!-- e -->"


def test_the_block_is_replaced_and_everything_around_it_kept():
    page = f"head\n{B}\nold\nlines\n{E}\ntail {B} no\n"
    assert replace_block(page, B, E, "new") == f"head\n{B}\nnew\n{E}\ntail {B} no\n"


def test_only_the_first_block_is_written_and_an_end_before_the_begin_does_not_count():
    page = f"{E}\n{B}\nold\n{E}\n{B}\nsecond\n{E}\n"
    assert replace_block(page, B, E, "new") == f"{E}\n{B}\nnew\n{E}\n{B}\nsecond\n{E}\n"


def test_writing_the_same_body_twice_changes_nothing():
    once = replace_block(f"a\n{B}\n{E}\nz", B, E, "x\ny")
    assert replace_block(once, B, E, "x\ny") == once == f"a\n{B}\nx\ny\n{E}\nz"


@pytest.mark.parametrize("page", ["", f"{B}\nno end\n", f"{E}\n{B}\n", f"no begin\n{E}\n"])
def test_a_page_without_both_markers_in_order_is_refused(page):
    with pytest.raises(InputError, match="the markers '<!-- b -->' ... '<!-- e -->' are missing"):
        replace_block(page, B, E, "x")
