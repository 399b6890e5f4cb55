"""Why depth needs care: a per-layer scale compounds, k layers multiply it k times.

`compound` is the arithmetic (scale ** k); `random_stack` is the experiment: push random
rows through `depth` random matrices whose entries are drawn so that each one multiplies an
activation's size by `scale` on average, and measure the size after every layer.
"""

from __future__ import annotations

import numpy as np


def compound(scale: float, depth: int) -> np.ndarray:
    """Size after k = 0..depth layers when each layer multiplies it by `scale`: (depth + 1,)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    return float(scale) ** np.arange(depth + 1, dtype=float)  # (depth + 1,)


def rms(a, axis=-1) -> np.ndarray:
    """Root mean square: the 'size' of an activation vector, independent of its width."""
    a = np.asarray(a, dtype=float)
    return np.sqrt(np.mean(np.square(a), axis=axis))


def random_stack(scale: float, depth: int, width: int = 64, tokens: int = 32,
                 seed: int = 0) -> np.ndarray:
    """Relative activation size after each of `depth` random linear layers (no bend, no norm).

    Entries of every W are N(0, scale^2 / width), so E[|xW|^2] = scale^2 |x|^2: the size
    grows or shrinks by `scale` per layer on average, like `compound` but with real noise.

    Parameters
    ----------
    scale : the per-layer gain (> 0)
    depth : number of layers
    width : features per token (every W is width x width)
    tokens : rows pushed through together; the size is their mean RMS
    seed : the random matrices and inputs

    Returns
    -------
    sizes : array of shape (depth + 1,)
        sizes[0] = 1; sizes[k] = mean RMS after k layers / mean RMS of the input.
    """
    if depth < 0 or width < 1 or tokens < 1:
        raise ValueError("depth >= 0, width >= 1 and tokens >= 1 are needed")
    rng = np.random.default_rng(seed)
    h = rng.standard_normal((tokens, width))          # (tokens, width)
    start = rms(h).mean()
    sizes = [1.0]
    for _ in range(depth):
        W = rng.standard_normal((width, width)) * (scale / np.sqrt(width))  # (width, width)
        h = h @ W                                                          # (tokens, width)
        sizes.append(rms(h).mean() / start)
    return np.array(sizes)  # (depth + 1,)
