"""The class colours and the sign colours stay apart for students with a colour-vision deficiency
(issue 35 item 3).

Each colour is seen as a dichromat sees it (Machado, Oliveira & Fernandes 2009, severity 1: protanopia,
deuteranopia, tritanopia; the matrices act on linear RGB), and every pair of class colours, and the
two sign colours, must differ by a CIEDE2000 colour difference of at least FLOOR as so seen (and as seen
with full colour vision). About 2 is the smallest difference people notice side by side; 10 reads as
"a different colour" at a glance on a small mark.

Measured (ΔE00, the closest pair of class colours): 21.7 with full colour vision (orange / yellow),
14.0 protanopia (pink / sky blue), 11.6 deuteranopia (orange / yellow), 10.9 tritanopia (orange /
pink); the sign colours 49.6 or more. Every pair passes; the closest ones are near the floor, which
is one more reason every class also has its own shape.

Where a pair falls under the floor it is listed in SHAPE_CARRIES, with why: the shape tells those
classes apart (ui.colors.CLASS_SYMBOLS), and the test checks that their shapes differ.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from ui import colors

FLOOR = 10.0

MACHADO = {   # Machado et al. 2009, Table 1, severity 1.0 (linear RGB in, linear RGB out)
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
VISION = ["normal", *MACHADO]

# (vision, class a, class b): pairs whose colours come closer than FLOOR as seen; their shapes carry them.
SHAPE_CARRIES: dict[tuple[str, int, int], str] = {}


def linear(hex_color: str) -> np.ndarray:
    """sRGB hex -> linear RGB in [0, 1], shape (3,)."""
    c = np.array([int(hex_color.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def seen(hex_color: str, vision: str) -> np.ndarray:
    """The linear RGB a dichromat of this kind sees (clipped to the gamut)."""
    rgb = linear(hex_color)
    return rgb if vision == "normal" else np.clip(MACHADO[vision] @ rgb, 0.0, 1.0)


def lab(rgb_linear: np.ndarray) -> np.ndarray:
    """Linear sRGB -> CIE L*a*b* (D65)."""
    M = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = M @ rgb_linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    C = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    G = 0.5 * (1 - np.sqrt(C ** 7 / (C ** 7 + 25 ** 7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360 if C1p else 0.0
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360 if C2p else 0.0
    dLp, dCp = L2 - L1, C2p - C1p
    dh = h2p - h1p
    if C1p * C2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))
    Lbp, Cbp = (L1 + L2) / 2, (C1p + C2p) / 2
    if C1p * C2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    else:
        hbp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    T = (1 - 0.17 * np.cos(np.radians(hbp - 30)) + 0.24 * np.cos(np.radians(2 * hbp))
         + 0.32 * np.cos(np.radians(3 * hbp + 6)) - 0.20 * np.cos(np.radians(4 * hbp - 63)))
    dtheta = 30 * np.exp(-(((hbp - 275) / 25) ** 2))
    RC = 2 * np.sqrt(Cbp ** 7 / (Cbp ** 7 + 25 ** 7))
    SL = 1 + 0.015 * (Lbp - 50) ** 2 / np.sqrt(20 + (Lbp - 50) ** 2)
    SC, SH = 1 + 0.045 * Cbp, 1 + 0.015 * Cbp * T
    RT = -np.sin(np.radians(2 * dtheta)) * RC
    return float(np.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH)))


def test_ciede2000_matches_sharma_s_worked_pairs():
    # Sharma, Wu & Dalal (2005), test data pairs 1, 7 and 17
    assert ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50.0, 0.0, 0.0), (50.0, -1.0, 2.0)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)) == pytest.approx(27.1492, abs=1e-4)


def test_a_dichromat_sees_red_and_green_alike_and_grey_unchanged():
    """The simulation does what it should: protanopia and deuteranopia bring red and green together,
    tritanopia does not, and no simulation changes a grey."""
    red, green = "#D55E00", "#2CA02C"
    normal = ciede2000(lab(seen(red, "normal")), lab(seen(green, "normal")))
    for vision in ("protanopia", "deuteranopia"):
        assert ciede2000(lab(seen(red, vision)), lab(seen(green, vision))) < normal / 2
    for vision in MACHADO:
        np.testing.assert_allclose(seen("#808080", vision), linear("#808080"), atol=1e-3)


def _pairs(palette):
    return list(itertools.combinations(range(len(palette)), 2))


@pytest.mark.parametrize("vision", VISION)
def test_every_pair_of_class_colours_stays_apart(vision):
    from pages.trainer.charts import class_label

    labs = [lab(seen(c, vision)) for c in colors.CLASSES]
    close = []
    for a, b in _pairs(colors.CLASSES):
        d = ciede2000(labs[a], labs[b])
        if d < FLOOR and (vision, a, b) not in SHAPE_CARRIES:
            close.append(f"{class_label(a)} / {class_label(b)}: ΔE00 {d:.1f}")
    assert close == [], f"{vision}: {close}"


@pytest.mark.parametrize("vision", VISION)
def test_the_sign_colours_stay_apart(vision):
    assert ciede2000(lab(seen(colors.POSITIVE, vision)), lab(seen(colors.NEGATIVE, vision))) >= FLOOR


def test_every_class_has_its_own_shape_filled_and_hollow():
    """Shape carries what colour may not (and the pairs in SHAPE_CARRIES above lean on it)."""
    assert len(colors.CLASS_SYMBOLS) == len(colors.CLASSES) == len(set(colors.CLASS_SYMBOLS))
    assert len(set(colors.CLASS_SHAPES)) == len(colors.CLASSES)
    assert [colors.class_symbol(c, test=True) for c in range(2)] == ["circle-open", "square-open"]
    for _, a, b in SHAPE_CARRIES:
        assert colors.CLASS_SYMBOLS[a] != colors.CLASS_SYMBOLS[b]


@pytest.mark.parametrize("vision", VISION)
def test_class_points_stand_out_from_the_linear_regions_under_them(vision):
    """Issue 34 item 7: the trainer's linear regions were full teal and olive under green and orange
    points (ΔE00 9.6). Now pale tints of hues near no class colour: two classes' points stand at least
    15 from every region colour, in every vision; with normal vision every class's at least 12 (the
    others' shapes carry them where a deficiency brings a pale region near sky blue or yellow)."""
    from pages.trainer.inside_charts import REGION_COLORS

    classes = colors.CLASSES if vision == "normal" else colors.CLASSES[:2]
    floor = 12 if vision == "normal" else 15
    close = [f"{c} on {r}: {ciede2000(lab(seen(c, vision)), lab(seen(r, vision))):.1f}"
             for c in classes for r in REGION_COLORS
             if ciede2000(lab(seen(c, vision)), lab(seen(r, vision))) < floor]
    assert close == [], close


def test_the_weights_diagram_draws_the_sign_colours_opaque():
    """Vermillion at 75 % over white read as light orange beside the classes' orange (the trainer's
    Inside diagram: a big network's lines, binned by sign and width)."""
    import numpy as np

    from ui.diagram import network_figure

    W1, W2 = np.array([[1.0, -2.0, 0.5], [0.5, -0.1, 2.0]]), np.array([[1.0], [-1.0], [0.3]])
    fig = network_figure([W1, W2], [["x1", "x2"], ["h1", "h2", "h3"], ["P(1)"]],
                         columns=["inputs", "hidden 1 (ReLU)", "output"], height=300)
    lines = [s for s in fig.layout.shapes if s.type == "path"]
    assert lines and {s.line.color for s in lines} == {colors.POSITIVE, colors.NEGATIVE}
    assert {s.opacity for s in lines} == {1.0}
