"""engine.heap: a page's first run in the process freezes what it loaded, once per page."""

import gc

from engine import heap


def test_settle_freezes_once_per_page():
    before = gc.get_freeze_count()
    kept = object.__new__(type("Kept", (), {}))   # a tracked object made before the first settle
    assert heap.settle("test-heap-page")
    assert gc.get_freeze_count() > before        # what was alive is out of later full passes
    # Frozen: out of every generation the collector walks (gc.get_objects() no longer lists it)...
    assert not any(o is kept for o in gc.get_objects())
    fresh = object.__new__(type("Fresh", (), {}))
    assert any(o is fresh for o in gc.get_objects())   # ...while what comes after is collected as usual
    again = gc.get_freeze_count()
    assert not heap.settle("test-heap-page")     # the second run of the page does nothing
    assert gc.get_freeze_count() == again
    assert heap.settle("test-heap-other-page")   # another page settles on its own first run
