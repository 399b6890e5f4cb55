"""lib.depth: compounding per-layer scales, by arithmetic and by a real random stack."""

from __future__ import annotations

import numpy as np
import pytest

from lib.depth import compound, random_stack, rms


def test_seed_002_compounding_table():
    assert compound(1.5, 10)[-1] == pytest.approx(57.665, abs=1e-3)   # "about 58x bigger"
    assert compound(0.7, 10)[-1] == pytest.approx(0.02825, abs=1e-5)  # "about 0.03x"
    sizes = compound(1.5, 10)
    assert sizes.shape == (11,) and sizes[0] == 1.0
    np.testing.assert_allclose(sizes[1:] / sizes[:-1], 1.5)  # each layer multiplies once


def test_compound_refuses_negative_depth():
    with pytest.raises(ValueError):
        compound(1.5, -1)


def test_random_stack_starts_at_one_and_is_reproducible():
    a = random_stack(1.5, 10, width=32, seed=4)
    assert a.shape == (11,) and a[0] == 1.0
    np.testing.assert_array_equal(a, random_stack(1.5, 10, width=32, seed=4))
    assert not np.array_equal(a, random_stack(1.5, 10, width=32, seed=5))


def test_random_stack_is_exactly_scale_to_the_k_times_the_unit_stack():
    # Same draws, W scaled by s: a linear stack's output scales by s per layer, exactly.
    unit = random_stack(1.0, 12, width=16, seed=2)
    np.testing.assert_allclose(random_stack(0.7, 12, width=16, seed=2), unit * 0.7 ** np.arange(13),
                               rtol=1e-12)


@pytest.mark.parametrize("scale", [1.5, 0.7])
def test_a_wide_random_stack_follows_the_arithmetic(scale):
    measured = random_stack(scale, 10, width=512, tokens=64, seed=0)
    # Within 15 % after 10 layers: the noise of wide random matrices is small.
    np.testing.assert_allclose(measured[-1], compound(scale, 10)[-1], rtol=0.15)


def test_random_stack_against_an_independent_loop():
    rng = np.random.default_rng(9)
    h = rng.standard_normal((8, 4))
    start = np.sqrt((h**2).mean(axis=1)).mean()
    want = [1.0]
    for _ in range(3):
        h = h @ (rng.standard_normal((4, 4)) * 2.0 / 2.0)  # scale 2, width 4: sd 2/sqrt(4)
        want.append(np.sqrt((h**2).mean(axis=1)).mean() / start)
    np.testing.assert_allclose(random_stack(2.0, 3, width=4, tokens=8, seed=9), want, rtol=1e-12)


def test_rms():
    assert rms([3.0, -4.0]) == pytest.approx(np.sqrt(12.5))
    with pytest.raises(ValueError):
        random_stack(1.0, 3, width=0)
