"""Homework (issue 45 item 6): a class's students go through a ready or saved lesson alone, each answer
checked at once, and with the class's code and a nickname the answers are kept for the teacher's record.

No seat and no token: the nickname is the student, keyed as a seat's is (store.nickname_key, through
Store.nickname), so "Ada" and "ADA" are one student, and a reload goes on under the same name. One row per
class, lesson, nickname and step; the first answer is kept (its right answer was shown at once), a second
gets the first back. The right answer is never the caller's word: the caller passes the step's Question
(its answer computed from the step's link, classroom/asking.py) and the store checks the value here.
Rows go with their class (ON DELETE CASCADE); each is counted against the address's budget (Store.spend).
"""

from __future__ import annotations

import json
import re

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from lib import lessons
from store import base as _store
from store.lessons import StepRecord
from store.models import Class, HomeworkAnswer

NICKNAMES = 200          # nicknames one class's homework of one lesson may hold (a class's MAX_SEATS)
_LESSON = re.compile(r"^(course:[a-z0-9][a-z0-9-]{0,31}|saved:[A-Z2-9]{6})$")   # what a row's `lesson` is


class HomeworkStore:
    """Store's homework methods (store.Store inherits them; it gives `nickname`)."""

    def homework_class(self, code: str) -> bool:
        """Is there a class under this code (a read: the door counts a miss as a wrong code)?"""
        with self.reading() as s:
            return s.scalar(select(Class.id).where(Class.code == _store.normal_code(code))) is not None

    def homework_answer(self, code: str, *, lesson: str, title: str, step: int, step_title: str,
                        question: lessons.Question, nickname: str, value,
                        client: _store.Client | None = None) -> tuple[float | int, bool | None, bool]:
        """Keep a student's answer to step `step` of homework `lesson` ("course:<name>" or "saved:<CODE>")
        in the class: (the answer as kept, right or not (None: a poll), True if this is its first answer).
        A second answer to the same step by the same nickname gets the first back. StoreError, one line:
        no such class, a nickname or answer that is not one, the class's or the address's limits."""
        if not isinstance(lesson, str) or not _LESSON.match(lesson):
            raise _store.StoreError("This homework's lesson is not one this server knows.")
        name, key = self.nickname(nickname)
        try:
            kept = lessons.check_answer(question, value)
        except ValueError as err:
            raise _store.StoreError(f"{str(err)[:1].upper()}{str(err)[1:]}.") from None
        right = lessons.is_right(question, kept)
        words = question.choices[int(kept)] if question.kind == "choice" else kept
        for _ in range(2):   # a second try reads the row a quick double press (or a replica) just wrote
            try:
                with self.writing() as s:
                    c = s.execute(select(Class.id).where(Class.code == _store.normal_code(code))
                                  .with_for_update(key_share=True)).first()
                    if c is None:
                        raise _store.StoreError(f"No class has the code {_store.normal_code(code)[:12]}: "
                                                "check it with your teacher.")
                    same = (HomeworkAnswer.class_id == c.id, HomeworkAnswer.lesson == lesson,
                            HomeworkAnswer.nickname_key == key)
                    first = s.scalar(select(HomeworkAnswer).where(*same, HomeworkAnswer.step == int(step)))
                    if first is not None:
                        was = json.loads(first.value)
                        return was, lessons.is_right(question, was), False
                    nicks = s.scalar(select(func.count(func.distinct(HomeworkAnswer.nickname_key)))
                                     .where(HomeworkAnswer.class_id == c.id, HomeworkAnswer.lesson == lesson))
                    known = s.scalar(select(func.count()).select_from(HomeworkAnswer).where(*same))
                    if not known and nicks >= NICKNAMES:
                        raise _store.StoreError(f"{NICKNAMES} students have done this homework in this "
                                                "class, as many as a class holds.")
                    self.spend(s, "homework", client)
                    s.add(HomeworkAnswer(class_id=c.id, lesson=lesson, title=str(title)[:120],
                                         step_title=str(step_title)[:120], nickname=name, nickname_key=key,
                                         step=int(step), kind=question.kind, value=json.dumps(kept),
                                         right=right, answer=json.dumps(words), created_at=_store.utc_now(),
                                         client=client.address if client and client.address else None))
                return kept, right, True
            except IntegrityError:
                continue
        raise _store.StoreError("Your answer was not kept: press the button again.")

    def _homework_rows(self, code: str, key: str) -> list[HomeworkAnswer]:
        with self.reading() as s:
            c = self.teacher_row(s, code, key)
            return list(s.scalars(select(HomeworkAnswer).where(HomeworkAnswer.class_id == c.id)
                                  .order_by(HomeworkAnswer.title, HomeworkAnswer.lesson, HomeworkAnswer.step,
                                            HomeworkAnswer.nickname_key)).all())

    def homework_record(self, code: str, key: str) -> list[StepRecord]:
        """The class's homework, one record per lesson and step (`homework`: the lesson's title): how many
        answered, the share right, the numbers' median and spread. For the teacher's key only."""
        groups: dict[tuple[str, int], list[HomeworkAnswer]] = {}
        for r in self._homework_rows(code, key):
            groups.setdefault((r.lesson, r.step), []).append(r)
        out = []
        for (_, step), rows in groups.items():
            vals = [json.loads(r.value) for r in rows]
            scored = [r.right for r in rows if r.right is not None]
            out.append(StepRecord(step, rows[0].step_title, rows[0].kind, len(rows),
                                  sum(scored) / len(scored) if scored else None,
                                  lessons.spread(vals) if rows[0].kind == "number" else None,
                                  homework=rows[0].title))
        return out

    def export_homework(self, code: str, key: str) -> list[dict]:
        """Every homework answer for the teacher, as export_answers writes a lesson's, with `homework`:
        the lesson's title (nickname, step from 1, its title, the answer in words, right, time UTC)."""
        return [dict(nickname=r.nickname, step=r.step + 1, title=r.step_title, answer=json.loads(r.answer),
                     right=r.right, time=_store.aware_utc(r.created_at).isoformat(), homework=r.title)
                for r in self._homework_rows(code, key)]
