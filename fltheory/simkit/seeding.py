"""One seeding scheme for every simulation: numpy's :class:`~numpy.random.SeedSequence` tree.

A simulation takes a ``seed``: a non-negative integer (the user's ``--seed``) or a
``SeedSequence``. Its independent parts — the teacher, the initial weights, the stream of
training samples, the test set, repetition ``s`` of an average — draw from the children
``SeedSequence(entropy, spawn_key=(..., key))`` of that seed, one fixed key per part (each module
names its keys). Children of one sequence are independent by construction (numpy hashes the
entropy with the spawn key), unlike hand-made shifts such as ``seed + 1`` or
``seed * 1000 + s``, which collide (``seed = 0, s = 1000`` and ``seed = 1, s = 0``).

``child(seed, k)`` is ``SeedSequence(seed).spawn(n)[k]`` for any ``n > k``, so a caller may
spawn the repetitions of an average or name them by index; a sweep hands each run the child of
the user's seed keyed by (task, grid point), so serial, process-pool and Dask runs draw the same
numbers.

>>> child(7, 2).spawn_key
(2,)
>>> child(child(7, 2), 0).spawn_key
(2, 0)
>>> child(7, 3).generate_state(1) == np.random.SeedSequence(7).spawn(4)[3].generate_state(1)
array([ True])
>>> float(rng(7, 1).standard_normal()) == float(rng(7, 1).standard_normal())
True
"""

from __future__ import annotations

import numpy as np

from fltheory.exact import DomainError

__all__ = ["SeedLike", "child", "children", "rng", "sequence"]

#: what a simulation accepts as its seed
SeedLike = int | np.random.SeedSequence


def sequence(seed: SeedLike) -> np.random.SeedSequence:
    """The ``SeedSequence`` of a seed (an integer >= 0, or a sequence returned unchanged).

    >>> sequence(3).entropy
    3
    >>> sequence(-1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: seed = -1 is outside the allowed range an integer >= 0 ...
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise DomainError("seed", seed, "an integer >= 0 or a numpy SeedSequence")
    return np.random.SeedSequence(int(seed))


def child(seed: SeedLike, *key: int) -> np.random.SeedSequence:
    """The descendant of ``seed`` at ``key`` (one spawn level per key).

    >>> child(5, 1, 4).spawn_key
    (1, 4)
    """
    parent = sequence(seed)
    for k in key:
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 0:
            raise DomainError("key", k, "an integer >= 0")
    return np.random.SeedSequence(parent.entropy, spawn_key=(*parent.spawn_key, *map(int, key)),
                                  pool_size=parent.pool_size)


#: most children :func:`children` lists at once
_MAX_CHILDREN = 10**6


def children(seed: SeedLike, n: int) -> list[np.random.SeedSequence]:
    """The first ``n`` children of ``seed`` (the repetitions of an average).

    >>> [c.spawn_key for c in children(5, 3)]
    [(0,), (1,), (2,)]

    ``n``: an integer in [0, 10^6] (a bool, float or text "is not an integer"; a negative or
    larger n is a DomainError, checked before the list is built).
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer):
        raise DomainError("n", repr(n)[:40], f"integers in [0, {_MAX_CHILDREN}]",
                          reason="is not an integer")
    if not 0 <= n <= _MAX_CHILDREN:
        raise DomainError("n", n if abs(n) < 10**12 else f"1e{len(str(abs(int(n)))) - 1} (about)",
                          f"integers in [0, {_MAX_CHILDREN}]")
    return [child(seed, s) for s in range(n)]


def rng(seed: SeedLike, *key: int) -> np.random.Generator:
    """A generator drawing from ``child(seed, *key)`` (``seed`` itself without a key).

    >>> int(rng(0, 1).integers(10**6)) != int(rng(0, 2).integers(10**6))
    True
    """
    return np.random.default_rng(child(seed, *key))
