"""pages.trainer.announce: the live region changes its words at most once every few seconds, whatever
the ticks; and the trainer's words for a unit's sum (pages.trainer.views.weighted_sum)."""

from __future__ import annotations

import itertools

from pages.trainer.announce import held


def test_the_first_words_are_said_at_once_and_later_ones_wait_their_turn():
    memory: dict = {}
    assert held(memory, "p", "epoch 10", every=5, now=100.0) == "epoch 10"
    assert held(memory, "p", "epoch 20", every=5, now=101.0) == "epoch 10"   # 1 s later: still the old words
    assert held(memory, "p", "epoch 90", every=5, now=104.9) == "epoch 10"
    assert held(memory, "p", "epoch 95", every=5, now=105.0) == "epoch 95"   # 5 s on: the words now
    assert held(memory, "p", "epoch 99", every=5, now=106.0) == "epoch 95"


def test_ticks_ten_a_second_for_a_minute_make_at_most_twelve_announcements():
    memory: dict = {}
    said = [held(memory, "p", f"epoch {i}", every=5, now=i / 10) for i in range(600)]
    changes = sum(a != b for a, b in itertools.pairwise(said))
    assert 10 <= changes <= 12, changes


def test_no_wait_says_every_change_and_the_same_words_never_restart_the_clock():
    memory: dict = {}
    assert held(memory, "p", "Stopped: epoch 1", every=0, now=0.0) == "Stopped: epoch 1"
    assert held(memory, "p", "Stopped: epoch 2", every=0, now=0.1) == "Stopped: epoch 2"
    held(memory, "q", "a", every=5, now=0.0)
    assert held(memory, "q", "a", every=5, now=4.0) == "a"       # unchanged words keep their time...
    assert held(memory, "q", "b", every=5, now=5.0) == "b"       # ...so the change at 5 s is said
    assert memory["_announce_p"][0] == "Stopped: epoch 2"        # two regions, two clocks


def test_weighted_sum_writes_each_sign_once():
    from pages.trainer.views import weighted_sum
    from ui.fmt import MINUS as M

    assert weighted_sum([1.51, -0.628], ["x₁", "x₂"], -0.507) == f"1.51·x₁ {M} 0.628·x₂ {M} 0.507"
    assert weighted_sum([-2.0], ["x₁"], 0.25) == f"{M}2·x₁ + 0.25"
    assert weighted_sum([0.5, 1.0, -3.0], ["a", "b", "c"], 0.0) == f"0.5·a + 1·b {M} 3·c + 0"
