"""Every read-only table on every page draws its negative numbers with the card's minus sign, "−0.65", as
the sentences and charts around it do (issue 34, item 7; tests/minus.py reads what st.dataframe sends).
The browser side, from the messages Chromium received, is in tests/e2e/test_every_view.py."""
from __future__ import annotations

import pytest

from tests.app.conftest import open_page
from tests.minus import minus_problems, read_only
from ui.nav import LESSONS

# Pages whose opening tables hold negative numbers: there the check has something to find.
SIGNED = {"recipe-card", "stacking", "gpt2-mlp"}


@pytest.mark.parametrize("path, query", [(lesson.url_path, {}) for lesson in LESSONS] + [
    ("recipe-card", {"nin": "6", "nout": "4", "w11": "-1.5"}),   # a big card: its outputs in a table row
    ("stacking", {"tokens": "8"})])
def test_every_table_writes_a_negative_number_with_the_minus_sign(path, query):
    at = open_page(path, query)
    assert not at.exception
    problems, checked = [], 0
    for table in at.dataframe:
        if read_only(table.proto):
            found, n = minus_problems(table.proto)
            problems += found
            checked += n
    assert problems == []
    if path in SIGNED:
        assert checked > 0, f"/{path}: no negative number in its tables to check"
