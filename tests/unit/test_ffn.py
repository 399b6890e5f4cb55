"""GPT-2's MLP block: seed 004 recomputed independently, the seed's slips pinned, the
table parser, the checker, and the full-size facts (independence, squashing, collapse)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtri

from lib import ffn
from lib.activations import ACTIVATIONS

RNG = np.random.default_rng(4)


# --- an independent block: plain Python loops, math.erf / math.tanh -----------------------

def _gelu_exact(z: float) -> float:
    return 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))


def _gelu_tanh(z: float) -> float:
    return 0.5 * z * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3)))


def _matmul(A, B, bias=None):
    n, k, m = len(A), len(B), len(B[0])
    return [[sum(A[i][t] * B[t][j] for t in range(k)) + (bias[j] if bias is not None else 0.0)
             for j in range(m)] for i in range(n)]


def _block(x, W1, W2, b1=None, b2=None, g=_gelu_exact):
    pre = _matmul(x, W1, b1)
    post = [[g(v) for v in row] for row in pre]
    return pre, post, _matmul(post, W2, b2)


X, W1, W2 = ffn.SEED_X.tolist(), ffn.SEED_W1.tolist(), ffn.SEED_W2.tolist()

# What the seed's inputs really give (x has 2 decimals and W1 one, so z is exact at 3 decimals).
PRE = [[0.772, -1.460, 0.856, 0.512, -1.752, 1.380],
       [-0.659, 1.220, -0.757, -0.404, 1.464, -1.175],
       [-0.491, -0.005, -1.478, 0.848, -0.006, -0.771],
       [0.553, -1.225, 0.434, 0.592, -1.470, 1.009],
       [-0.530, 0.535, -1.055, 0.236, 0.642, -0.894]]
POST = [[0.6021, -0.1053, 0.6882, 0.3562, -0.0699, 1.2644],
        [-0.1680, 1.0843, -0.1700, -0.1386, 1.3592, -0.1410],
        [-0.1531, -0.0025, -0.1030, 0.6799, -0.0030, -0.1699],
        [0.3926, -0.1351, 0.2898, 0.4281, -0.1040, 0.8511],
        [-0.1580, 0.3765, -0.1537, 0.1400, 0.4748, -0.1660]]
OUT = [[1.2171, -0.4962, 0.5967],
       [-1.3636, 1.4039, 0.2281],
       [-0.1002, 0.2998, 0.4671],
       [0.7676, -0.3048, 0.6148],
       [-0.5894, 0.6158, 0.1927]]


def test_independent_recomputation_matches_the_pinned_values():
    pre, post, out = _block(X, W1, W2)
    np.testing.assert_allclose(pre, PRE, atol=1e-12)
    np.testing.assert_allclose(post, POST, atol=5e-5)
    np.testing.assert_allclose(out, OUT, atol=5e-5)


def test_lib_block_matches_the_independent_one():
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    pre, post, out = _block(X, W1, W2)
    assert steps.pre.shape == (5, 6) and steps.post.shape == (5, 6) and steps.out.shape == (5, 3)
    np.testing.assert_allclose(steps.pre, pre, atol=1e-13)
    np.testing.assert_allclose(steps.post, post, atol=1e-13)
    np.testing.assert_allclose(steps.out, out, atol=1e-13)


def test_tanh_gelu_and_biases_match_the_independent_block():
    b1, b2 = RNG.normal(size=6), RNG.normal(size=3)
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, b1, b2, act="gelu_tanh")
    pre, post, out = _block(X, W1, W2, b1.tolist(), b2.tolist(), g=_gelu_tanh)
    np.testing.assert_allclose(steps.pre, pre, atol=1e-13)
    np.testing.assert_allclose(steps.post, post, atol=1e-13)
    np.testing.assert_allclose(steps.out, out, atol=1e-13)
    # The two GELUs agree to a few ten-thousandths here: enough to change a 4th decimal.
    exact = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, b1, b2)
    assert 1e-5 < np.max(np.abs(exact.post - steps.post)) < 1e-3


def test_unknown_gelu_is_refused():
    with pytest.raises(ValueError, match="unknown GELU"):
        ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, act="relu")


# --- the seed's printed tables and their slips -----------------------------------------------

def _cells(mask) -> set[tuple[int, int]]:
    return {(int(i), int(j)) for i, j in np.argwhere(mask)}


def test_seed_slips_at_the_default_tolerance():
    checks = ffn.check_steps(ffn.SEED_HAND, ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, tol=0.001)
    # z: 0-based (token, unit); e.g. (2, 3): 0.71*0.6 + 0.70*0.2 + (-1.41)(-0.2) = 0.848, printed -0.566
    assert _cells(checks["pre"].wrong) == {
        (0, 5), (1, 0), (1, 5), (2, 1), (2, 3), (2, 5), (3, 0), (3, 1), (3, 2), (3, 3), (3, 5),
        (4, 4), (4, 5)}
    assert checks["pre"].slip.sum() == 13  # the first table has no earlier table to blame
    assert _cells(checks["post"].wrong) == {
        (0, 5), (1, 0), (1, 1), (1, 4), (2, 1), (2, 3), (2, 5), (3, 0), (3, 2), (3, 3), (3, 5),
        (4, 1), (4, 4)}
    # New GELU slips: GELU(1.219) = 1.0832 printed 1.082; GELU(1.463) = 1.3581 printed 1.354;
    # GELU(0.575) = 0.4125 printed 0.414. The other ten carry slips of the z table.
    assert _cells(checks["post"].slip) == {(1, 1), (1, 4), (3, 3)}
    # Every output cell is wrong, and wrong even from the seed's own GELU table.
    assert checks["out"].wrong.all() and checks["out"].slip.all()
    worst, i, j = checks["pre"].worst
    assert (i, j) == (2, 3) and worst == pytest.approx(1.414)


def test_seed_slips_at_half_a_unit_in_the_last_digit():
    checks = ffn.check_steps(ffn.SEED_HAND, ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, tol=0.0005)
    # Six more z cells are off by exactly 0.001 (1.219 for 1.220, ...): slips that 0.001 lets pass.
    default = ffn.check_steps(ffn.SEED_HAND, ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, tol=0.001)
    assert _cells(checks["pre"].wrong) - _cells(default["pre"].wrong) == {
        (1, 1), (1, 4), (2, 0), (3, 4), (4, 0), (4, 1)}
    assert checks["pre"].n_wrong == 19
    assert checks["post"].n_wrong == 19
    assert checks["out"].n_wrong == 15


def test_the_seed_printed_tables_are_not_what_lib_computes():
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    for name in ffn.TABLES:
        assert not np.allclose(ffn.SEED_HAND[name], getattr(steps, name), atol=1e-3)


def test_the_seed_gelu_examples_in_its_prose():
    # "GELU(0.772) ≈ 0.603", "GELU(-1.460) ≈ -0.106", "GELU(0.856) ≈ 0.689", "GELU(-1.752) ≈ -0.070"
    for z, printed in ((0.772, 0.603), (-1.460, -0.106), (0.856, 0.689), (-1.752, -0.070)):
        assert abs(_gelu_exact(z) - printed) < 1e-3
        assert ffn.gelu_act("gelu").fn(z) == pytest.approx(_gelu_exact(z), abs=1e-15)


# --- parsing pasted tables -------------------------------------------------------------------

SEED_TEXT = """# FFN Hidden Layer (Before GELU)
ffn_hidden_before_gelu = [
  [ 0.772, -1.460,  0.856,  0.512, -1.752,  1.428],
  [-0.644,  1.219, -0.757, -0.404,  1.463, -1.180],
  [-0.492,  0.118, -1.478, -0.566, -0.006, -0.891],
  [ 0.551, -1.228,  0.438,  0.575, -1.471,  1.012],
  [-0.529,  0.536, -1.055,  0.236,  0.640, -0.903]
]"""


def test_parse_the_seed_as_printed():
    np.testing.assert_array_equal(ffn.parse_table(SEED_TEXT), ffn.SEED_HAND["pre"])


@pytest.mark.parametrize("text", [
    "1 2 3\n4 5 6",
    "1, 2, 3\n4, 5, 6\n",
    "1;2;3\n\n4 ,5, 6",
    "[[1, 2, 3], [4, 5, 6]]",
    "[[1, 2, 3],\n [4, 5, 6]]  # the end",
    "x = [[1.0, 2e0, 3], [+4, 5., 6]]",
    "1 2 3  # row one\n4 5 6",
])
def test_parse_forms(text):
    np.testing.assert_array_equal(ffn.parse_table(text), [[1, 2, 3], [4, 5, 6]])


def test_parse_unicode_minus():
    np.testing.assert_array_equal(ffn.parse_table("−1.5 2\n3 –4"), [[-1.5, 2], [3, -4]])


@pytest.mark.parametrize(("text", "message"), [
    ("", "no numbers"),
    ("  \n # only a comment", "no numbers"),
    ("1 2 3\n4 5", "row 2 has 2 numbers but row 1 has 3"),
    ("1 2\n3 x", "row 2, column 2: 'x' is not a number"),
    ("1 nan", "not a finite number"),
    ("1 inf", "not a finite number"),
    ("[[1, 2], 3]", "brackets"),
    ("[[1, 2]", "brackets"),
    ("[[1, 2], [3, 4]] extra", "brackets"),
    ("__import__('os').system('true')", "is not a number"),
    ("[[__import__('os')]]", "is not a number"),
    ("1 " * 30_000, "too long"),
])
def test_parse_refuses_with_a_reason(text, message):
    with pytest.raises(ValueError, match=message):
        ffn.parse_table(text)


def test_parse_never_echoes_markup():
    with pytest.raises(ValueError) as err:
        ffn.parse_table("1 **<b>x</b>**")
    assert "<" not in str(err.value) and "*" not in str(err.value)


# --- the checker ---------------------------------------------------------------------------------

def test_check_table_counts_and_the_tolerance_edge():
    true = np.array([[1.220, 0.5]])
    ck = ffn.check_table([[1.219, 0.5]], true, tol=0.001)
    assert ck.n_wrong == 0                     # off by exactly the tolerance: counted right
    ck = ffn.check_table([[1.219, 0.5]], true, tol=0.0009)
    assert ck.n_wrong == 1 and ck.diff[0, 0] == pytest.approx(-0.001)
    assert ffn.check_table(true, true, tol=0.0).n_wrong == 0


def test_check_table_refuses_wrong_shapes_and_tolerances():
    with pytest.raises(ValueError, match="expected 5 × 6 numbers, got 5 × 5"):
        ffn.check_table(np.zeros((5, 5)), np.zeros((5, 6)))
    with pytest.raises(ValueError, match="tolerance"):
        ffn.check_table(np.zeros((1, 1)), np.zeros((1, 1)), tol=-1.0)


def test_check_steps_skips_missing_tables_and_names_bad_shapes():
    checks = ffn.check_steps({"post": ffn.SEED_HAND["post"]}, ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    assert set(checks) == {"post"}
    # Without the student's z table there is nothing to blame: every wrong cell is a slip.
    assert checks["post"].n_slips == checks["post"].n_wrong == 13
    with pytest.raises(ValueError, match="out: expected 5 × 3"):
        ffn.check_steps({"out": np.zeros((3, 5))}, ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)


def test_a_perfect_hand_table_passes_and_one_slip_is_found():
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    hand = {k: np.round(getattr(steps, k), 3) for k in ffn.TABLES}
    assert all(c.n_wrong == 0 for c in ffn.check_steps(hand, ffn.SEED_X, ffn.SEED_W1,
                                                        ffn.SEED_W2).values())
    hand["pre"] = hand["pre"].copy()
    hand["pre"][1, 2] += 0.1                   # one slip in z ...
    hand["post"] = np.round(ffn.gelu_act().fn(hand["pre"]), 3)  # ... carried honestly through GELU
    checks = ffn.check_steps(hand, ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    assert _cells(checks["pre"].slip) == {(1, 2)}
    assert _cells(checks["post"].wrong) == {(1, 2)} and checks["post"].n_slips == 0


# --- gates, units on, near zero ----------------------------------------------------------------

def test_gate_is_phi_for_exact_gelu():
    z = np.linspace(-4, 4, 81)                                   # includes 0
    phi = np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in z])
    np.testing.assert_allclose(ffn.gate(z), phi, atol=1e-14)
    assert ffn.gate(np.array([0.0]))[0] == 0.5
    np.testing.assert_array_equal(ffn.units_on(z), z > 0)


@pytest.mark.parametrize("ratio", [0.05, 0.1, 0.25])
def test_near_zero_cutoff_is_the_normal_quantile(ratio):
    assert ffn.near_zero_cutoff(ratio, "gelu") == pytest.approx(ndtri(ratio), abs=1e-9)
    assert abs(ffn.near_zero_cutoff(ratio, "gelu_tanh") - ndtri(ratio)) < 5e-3
    z = np.linspace(-5, 5, 2001)
    h = ACTIVATIONS["gelu"].fn(z)
    np.testing.assert_array_equal(ffn.near_zero(z, h, ratio)[z != 0], (z < ndtri(ratio))[z != 0])


def test_near_zero_cutoff_refuses_silly_ratios():
    for r in (0.0, 0.5, 1.0):
        with pytest.raises(ValueError):
            ffn.near_zero_cutoff(r)


# --- the real size ---------------------------------------------------------------------------------

def test_random_block_scales():
    W1, W2 = ffn.random_block(seed=1, init="gpt2")
    assert W1.shape == (768, 3072) and W2.shape == (3072, 768)
    assert W1.std() == pytest.approx(0.02, rel=0.01) and W2.std() == pytest.approx(0.02, rel=0.01)
    W1, W2 = ffn.random_block(d=64, d_ff=256, seed=1, init="fan_in")
    assert W1.std() == pytest.approx(1 / 8, rel=0.05) and W2.std() == pytest.approx(1 / 16, rel=0.05)
    np.testing.assert_array_equal(ffn.random_block(d=8, d_ff=32, seed=3)[0],
                                  ffn.random_block(d=8, d_ff=32, seed=3)[0])
    with pytest.raises(ValueError):
        ffn.random_block(d=8, d_ff=32, init="huge")


def test_tokens_look_like_layernorm_output():
    x = ffn.layer_normed_tokens(6, seed=2)
    assert x.shape == (6, 768)
    np.testing.assert_allclose(x.mean(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(x.std(axis=1), 1, atol=1e-12)


@pytest.mark.parametrize("act", ffn.GELUS)
def test_only_the_changed_token_moves(act):
    W1, W2 = ffn.random_block(d=32, d_ff=128, seed=5)
    x = RNG.normal(size=(7, 32))
    changes = ffn.row_changes(x, 4, RNG.normal(size=32), W1, W2, act=act)
    assert changes.shape == (7,)
    assert changes[4] > 0
    assert np.all(np.delete(changes, 4) == 0.0)   # exactly: rows never mix


def test_only_the_changed_token_moves_at_full_size():
    W1, W2 = ffn.random_block(seed=0)
    x = ffn.layer_normed_tokens(8, seed=1)
    changes = ffn.row_changes(x, 2, ffn.layer_normed_tokens(1, seed=9)[0], W1, W2)
    assert changes[2] > 0.1 and np.all(np.delete(changes, 2) == 0.0)


def test_collapse_at_full_size():
    W1, W2 = ffn.random_block(seed=0)
    x = ffn.layer_normed_tokens(8, seed=1)
    out = ffn.collapse_gap(x, W1, W2)
    assert out["W"].shape == (768, 768)
    assert out["two_params"] == 2 * 768 * 3072 == 4_718_592
    assert out["one_params"] == 768 * 768 == 589_824
    assert out["linear_gap"] < 1e-12
    assert out["gelu_gap"] > 0.1
    # Cross-check the collapsed matrix without lib: one output by explicit sums.
    z = x[0] @ W1
    np.testing.assert_allclose((z @ W2)[0], x[0] @ out["W"][:, 0], atol=1e-12)


def test_collapse_with_biases():
    W1, W2 = ffn.random_block(d=5, d_ff=20, seed=2, init="fan_in")
    b1, b2 = RNG.normal(size=20), RNG.normal(size=5)
    x = RNG.normal(size=(4, 5))
    out = ffn.collapse_gap(x, W1, W2, b1, b2)
    assert out["linear_gap"] < 1e-12 and out["gelu_gap"] > 1e-3


def test_share_near_zero_grows_with_the_spread_of_z():
    x = ffn.layer_normed_tokens(8, seed=1)
    shares = {}
    for init in ffn.INITS:
        W1, W2 = ffn.random_block(seed=0, init=init)
        s = ffn.ffn(x, W1, W2)
        shares[init] = ffn.near_zero(s.pre, s.post, 0.1).mean()
        # Φ(z) < 0.1  <=>  z < ndtri(0.1): count it directly as a cross-check.
        assert shares[init] == pytest.approx((s.pre < ndtri(0.1)).mean())
    # z has spread about 0.02 * sqrt(768) = 0.55 at GPT-2's scale and about 1 at fan_in:
    # P(N(0, s) < -1.28) is about 1 % and 10 %.
    assert 0.003 < shares["gpt2"] < 0.03 and 0.07 < shares["fan_in"] < 0.14


def test_format_table_reads_back_and_never_writes_negative_zero():
    M = np.array([[0.7724, -1.4601, -0.0001], [1e-9, 2.0, -3.25]])
    text = ffn.format_table(M)
    assert "-0.000" not in text and "e-" not in text
    np.testing.assert_allclose(ffn.parse_table(text), np.round(M, 3) + 0.0)
    np.testing.assert_allclose(ffn.parse_table(ffn.format_table(ffn.SEED_HAND["pre"])), ffn.SEED_HAND["pre"])


def test_bend_summary_counts_every_hidden_value():
    W1, W2 = ffn.random_block(seed=0)
    x = ffn.real_tokens(0)
    b = ffn.bend_summary(x, W1, W2, ratio=0.1)
    steps = ffn.ffn(x, W1, W2)
    assert b["shapes"]["pre"] == (ffn.REAL_TOKENS, ffn.GPT2_D_FF)
    assert b["counts"].sum() == steps.pre.size
    assert b["near_counts"].sum() == round(b["near_share"] * steps.pre.size)
    assert np.isclose(b["neg_share"], (steps.pre < 0).mean()) and np.isclose(b["pre_std"], steps.pre.std())
    # every value left of the cutoff is near zero, none right of it
    assert np.all(b["edges"][:-1][b["near_counts"] > 0] < b["cutoff"] + (b["edges"][1] - b["edges"][0]))
    assert not np.array_equal(ffn.real_tokens(0), ffn.real_tokens(1))
    assert ffn.fresh_token(0).shape == (ffn.GPT2_D,)
