"""Counter-based random numbers: every word is a pure function of (seed, shard, block, deal, word).

Keys are chained with the SplitMix64 step ``child(key, i) = mix64(key + (i + 1) · γ)`` (γ the
64-bit golden ratio, ``mix64`` Stafford's "variant 13" finaliser)::

    root  = mix64(seed ^ ROOT_SALT)
    block = child(child(root, shard), block)
    deal  = child(block, deal)             word i of a deal = child(deal, i)

so any deal can be regenerated alone: results do not depend on how deals are split into
launches, threads or backends. All arithmetic is on ``uint64`` (wrapping), written once and
compiled for both targets by :func:`compile_rng`; :func:`shard_key` runs on the host.
"""

from types import SimpleNamespace

import numpy as np

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)
ROOT_SALT = np.uint64(0x6D756C7469776179)  # "multiway"
SHIFT_30 = np.uint64(30)
SHIFT_27 = np.uint64(27)
SHIFT_31 = np.uint64(31)
ONE = np.uint64(1)

RNG_NAME = "SplitMix64 counter hash chain (seed, shard, block, deal, word)"


def compile_rng(jit) -> SimpleNamespace:
    """Compile ``mix64(z)`` and ``child(key, index)`` (uint64 → uint64) with ``jit``."""

    @jit
    def mix64(z):
        z = (z ^ (z >> SHIFT_30)) * MIX_1
        z = (z ^ (z >> SHIFT_27)) * MIX_2
        return z ^ (z >> SHIFT_31)

    @jit
    def child(key, index):
        return mix64(key + (np.uint64(index) + ONE) * GAMMA)

    return SimpleNamespace(mix64=mix64, child=child)


_HOST = compile_rng(lambda function: function)


def shard_key(seed: int, shard: int) -> np.uint64:
    """Key of a shard (the kernels derive block keys from it with ``child``)."""
    with np.errstate(over="ignore"):
        return _HOST.child(_HOST.mix64(np.uint64(seed) ^ ROOT_SALT), np.uint64(shard))
