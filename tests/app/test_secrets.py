"""Secrets stay their owners': a teacher's key and a student's seat are never in a link a page offers to
copy, and a teacher's link whose key does not match says so (issue 32, item 3)."""

from __future__ import annotations

from classroom import connection
from tests.app.conftest import open_page

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 3, "feat": ["x1", "x2"]}


def _codes(at) -> list[str]:
    return [c.value for c in at.code]


def test_a_wrong_or_cut_off_teachers_key_says_why_the_controls_are_missing():
    code, key = connection.store().create_class(PROBLEM)
    for wrong in ("guess", key[:-3]):
        at = open_page("class", {"code": code, "key": wrong})
        assert not at.exception
        assert not any(t.label == "Pause the class" for t in at.toggle)       # the students' view
        said = [w.value for w in at.warning if "does not match" in w.value]
        assert said == [f"This teacher's key does not match class {code}: the teacher's controls are hidden."]
    right = open_page("class", {"code": code, "key": key})
    assert any(t.label == "Pause the class" for t in right.toggle)
    assert not [w for w in right.warning if "does not match" in w.value]
    student = open_page("class", {"code": code})                               # no key: nothing to say
    assert not [w for w in student.warning if "does not match" in w.value]


def test_a_student_in_a_class_is_offered_no_link_with_their_seat():
    """/trainer in a class: the share box's link (every setting and the weights) holds no seat, no class."""
    code, _ = connection.store().create_class(PROBLEM)
    seat = connection.store().join(code, "Ada")
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})
    assert not at.exception
    offered = _codes(at)
    assert any("w=" in c for c in offered), offered                            # the share link is there
    assert not [c for c in offered if seat in c or "seat=" in c or "class=" in c]
