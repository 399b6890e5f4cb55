"""The colour language of Layer Lab: one meaning per colour, on every page and every chart.

Captions name a colour by what it is here ("blue", "vermillion"), never by what it might look like
on some screen, and a colour is never used for anything but its meaning:

| meaning                 | colours                                          |
|-------------------------|--------------------------------------------------|
| sign of a number        | POSITIVE blue, NEGATIVE vermillion; SIGNED scale |
| classes (up to 5)       | CLASSES: orange, bluish green, reddish purple (called pink), yellow, sky blue, |
|                         | each with its own shape too: CLASS_SYMBOLS       |
| on / off                | ON ink (near black), OFF grey (and dashed)       |
| a lesson's right / wrong| RIGHT bluish green (and ✓), WRONG vermillion (and ✗) |
| train / test            | no colour of its own: filled vs hollow marks, solid vs dotted lines |
| categories (series)     | CATEGORY: Paul Tol's muted palette, none of the above |

Okabe-Ito (sign, classes) and Tol's muted (categories) are both designed to stay apart under the
common colour-vision deficiencies. A chart that needs more categories than CATEGORY has should be
two charts.
"""

from __future__ import annotations

# Okabe-Ito
BLUE, VERMILLION = "#0072B2", "#D55E00"
ORANGE, GREEN, PURPLE, YELLOW, SKY = "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#56B4E9"

POSITIVE, NEGATIVE = BLUE, VERMILLION
ZERO = "#F2F2F2"  # the middle of a signed scale: near white, so 0 reads as "nothing"
SIGNED = [[0.0, NEGATIVE], [0.5, ZERO], [1.0, POSITIVE]]  # plotly colorscale, use with zmid=0

CLASSES = (ORANGE, GREEN, PURPLE, YELLOW, SKY)  # class 0, 1, 2, ...
# For captions, as a class sees them: Okabe-Ito's "reddish purple" #CC79A7 reads as pink on a screen or a
# projector, and a caption that says "purple" beside a pink point had the room looking for another colour.
CLASS_NAMES = ("orange", "green", "pink", "yellow", "sky blue")

# Each class has its own shape as well as its colour, in every chart and legend (issue 35: a student who
# cannot tell orange from green tells a circle from a square). Plotly marker symbols; a test point is
# the same shape hollow (SYMBOL + "-open"). ui/boundary.py draws the same shapes as paths (class_path).
CLASS_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross")
CLASS_SHAPES = ("circle", "square", "diamond", "triangle", "cross")       # in words, for legends


def class_symbol(c: int, test: bool = False) -> str:
    """Class c's plotly marker symbol: filled for a training point, hollow (-open) for a test point."""
    return CLASS_SYMBOLS[c % len(CLASS_SYMBOLS)] + ("-open" if test else "")





RIGHT, WRONG = GREEN, VERMILLION  # a lesson's answers: always with ✓ or ✗, never the colour alone
ON, OFF = "#222222", "#999999"  # a bend on / off, a unit active / silent; OFF lines are dashed

# Paul Tol's "muted" qualitative palette (rose and cyan left out: too near vermillion and sky blue).
INDIGO, TEAL, OLIVE, WINE, SAND, DARK_GREEN, MAUVE = (
    "#332288", "#44AA99", "#999933", "#882255", "#DDCC77", "#117733", "#AA4499")
CATEGORY = (INDIGO, TEAL, WINE, OLIVE, MAUVE, SAND, DARK_GREEN)


# The bends a student meets in more than one chart keep one colour on every page (SiLU is wine in
# /activations' gallery and as SwiGLU's gate; GELU teal there and on /gpt2-mlp's curve).
BEND = {"relu": CATEGORY[0], "gelu": CATEGORY[1], "silu": CATEGORY[2]}


def category(i: int) -> str:
    """The i-th category colour (wraps around; a chart with more categories should be split)."""
    return CATEGORY[i % len(CATEGORY)]


def rgba(hex_color: str, alpha: float) -> str:
    """A translucent version of a colour, for fills."""
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha:g})"
