"""Per-board logic of the exact four-handed counts, written once for every target.

On a board, a hero combo ``h = {a, b}`` meets three opponents: an unordered triple of live combos, pairwise
card-disjoint and disjoint from ``h``. Seen as a graph whose vertices are the live cards and whose edges are
combos, the triples are the graph's 3-matchings. Walking the board's combos from weakest to strongest (as the
heads-up walk does), the graph ``G`` of the combos strictly weaker than the hero's group grows edge by edge; for a
hero of a group ``T`` of equal strength:

* ``c0`` = m3(G − {a, b}): all three opponents weaker, the hero wins;
* ``c3`` = m3(T − {a, b}): all three tie with the hero (the pot split four ways);
* ``c1`` = Σ_{t ∈ T, t ∩ h = ∅} m2(G − {a, b} − t): one ties, two are weaker (split two ways);
* ``c2`` = m3((G ∪ T) − {a, b}) − c0 − c1 − c3: two tie, one is weaker (split three ways).

The number of 3-matchings of a simple graph follows from its edge count ``m``, degrees ``d``, 3-edge paths and
triangles ``τ`` (a triple of edges is a matching, a path of two plus an edge, a path of three, a star or a triangle;
:func:`compile_graph_functions` counts each kind): m3 = C(m,3) − (m − 2)·Σ C(d,2) + P3 + 2·(Σ C(d,3) + τ), with
P3 = Σ_{uv ∈ E} (d_u − 1)(d_v − 1) − 3τ; and m2 = C(m,2) − Σ C(d,2). With Σ d = 2m, both follow from m, Σ d²,
Σ d³, Σ_u d_u·s_u and τ (:func:`compile_matching_formulas`, shared by the CPU walk and the GPU's). A graph is kept as
52 neighbour bit masks, the degrees and ``s_u`` = Σ of the neighbours' degrees, so a graph less the hero's two cards
is counted in O(52) with bit counts, without being built.
"""

from types import SimpleNamespace

import numpy as np

from kernels.headsup.core import COMBO_BITS, COMBO_FIELD

N_CARDS = 52
ONE = np.uint64(1)


def compile_matching_formulas(jit) -> SimpleNamespace:
    """Compile ``matchings3(m, squares, cubes, cross, triangles)`` and ``matchings2(m, squares)``: the 3- and
    2-matchings of a simple graph from its edge count, Σ d², Σ d³, Σ_u d_u·s_u (= 2 Σ_{uv ∈ E} d_u·d_v) and
    triangle count (module docstring)."""

    @jit
    def matchings3(m, squares, cubes, cross, triangles):
        pairs = (squares - 2 * m) // 2  # Σ C(d, 2), with Σ d = 2m
        stars = (cubes - 3 * squares + 4 * m) // 6  # Σ C(d, 3)
        paths3 = cross // 2 - squares + m - 3 * triangles
        return m * (m - 1) * (m - 2) // 6 - (m - 2) * pairs + paths3 + 2 * (stars + triangles)

    @jit
    def matchings2(m, squares):
        return m * (m - 1) // 2 - (squares - 2 * m) // 2

    return SimpleNamespace(matchings3=matchings3, matchings2=matchings2)


def compile_graph_functions(jit) -> SimpleNamespace:
    """Compile the graph counting for one target (``jit``: ``numba.njit`` or a CUDA device decorator)."""
    formulas = compile_matching_formulas(jit)
    matchings3, matchings2 = formulas.matchings3, formulas.matchings2

    @jit
    def bits(mask):
        """Number of set bits of a uint64 (the SWAR count, which LLVM turns into one popcount instruction)."""
        x = mask - ((mask >> np.uint64(1)) & np.uint64(0x5555555555555555))
        x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
        x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
        return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))

    @jit
    def has(mask, v):
        return np.int64((mask >> np.uint64(v)) & ONE)

    @jit
    def add_edge(nbr, deg, s, x, y):
        """Add edge ``xy`` (not yet in the graph); returns the triangles it closes."""
        for w in range(N_CARDS):
            if has(nbr[x], w):
                s[w] += 1
            if has(nbr[y], w):
                s[w] += 1
        closed = bits(nbr[x] & nbr[y])
        s[x] += deg[y] + 1
        s[y] += deg[x] + 1
        deg[x] += 1
        deg[y] += 1
        nbr[x] |= ONE << np.uint64(y)
        nbr[y] |= ONE << np.uint64(x)
        return closed

    @jit
    def triangles_at(nbr, v):
        """Triangles through vertex ``v``."""
        total = 0
        for w in range(N_CARDS):
            if has(nbr[v], w):
                total += bits(nbr[v] & nbr[w])
        return total // 2

    @jit
    def matchings3_without(nbr, deg, s, edges, triangles, a, b):
        """3-matchings of the graph (``edges`` edges, ``triangles`` triangles) less vertices ``a`` and ``b``."""
        ab = has(nbr[a], b)
        m = edges - deg[a] - deg[b] + ab
        if m < 3:
            return np.int64(0)
        tau = triangles - triangles_at(nbr, a) - triangles_at(nbr, b) + ab * bits(nbr[a] & nbr[b])
        squares = 0  # Σ d'²
        cubes = 0  # Σ d'³
        cross = 0  # Σ_u d'_u s'_u = 2 Σ_{uv ∈ E'} d'_u d'_v
        for u in range(N_CARDS):
            if u == a or u == b or deg[u] == 0:
                continue
            hit_a, hit_b = has(nbr[u], a), has(nbr[u], b)
            d = deg[u] - hit_a - hit_b
            if d == 0:
                continue
            with_a, with_b = nbr[u] & nbr[a], nbr[u] & nbr[b]
            su = s[u] - hit_a * deg[a] - hit_b * deg[b] - (bits(with_a) - has(with_a, b)) - (bits(with_b) - has(with_b, a))
            squares += d * d
            cubes += d * d * d
            cross += d * su
        return matchings3(m, squares, cubes, cross, tau)

    @jit
    def matchings2_without(nbr, deg, edges, a, b, c, d):
        """2-matchings of the graph less the four distinct vertices ``a, b, c, d``."""
        q = (ONE << np.uint64(a)) | (ONE << np.uint64(b)) | (ONE << np.uint64(c)) | (ONE << np.uint64(d))
        inside = (bits(nbr[a] & q) + bits(nbr[b] & q) + bits(nbr[c] & q) + bits(nbr[d] & q)) // 2
        m = edges - deg[a] - deg[b] - deg[c] - deg[d] + inside
        if m < 2:
            return np.int64(0)
        squares = 0
        for u in range(N_CARDS):
            if (q >> np.uint64(u)) & ONE or deg[u] == 0:
                continue
            k = deg[u] - bits(nbr[u] & q)
            squares += k * k
        return matchings2(m, squares)

    return SimpleNamespace(bits=bits, has=has, add_edge=add_edge, triangles_at=triangles_at,
                           matchings3_without=matchings3_without, matchings2_without=matchings2_without)


def compile_board_functions(jit, graph, add_count) -> SimpleNamespace:
    """Compile ``count_board`` for one target; ``graph``: :func:`compile_graph_functions` of the same target;
    ``add_count(counts, combo, k, value)``: ``counts[combo, k] += value`` (a plain add on the CPU; an atomic one where
    threads share the tally)."""
    add_edge, matchings3_without, matchings2_without = graph.add_edge, graph.matchings3_without, graph.matchings2_without

    @jit
    def copy_graph(nbr, deg, s, to_nbr, to_deg, to_s):
        for v in range(N_CARDS):
            to_nbr[v], to_deg[v], to_s[v] = nbr[v], deg[v], s[v]

    @jit
    def clear_graph(nbr, deg, s):
        for v in range(N_CARDS):
            nbr[v], deg[v], s[v] = 0, 0, 0

    @jit
    def count_board(keys, count, combos, weight, counts, scratch_masks, scratch_ints):
        """Add ``weight`` × (c0, c1, c2, c3) of every combo in sorted ``keys[0:count]`` (``strength << 11 | combo``,
        the board's live combos, or any subset of them) to ``counts[combo]`` (int64 ``(1326, 4)``), the opponents
        drawn from the same combos. ``scratch_masks`` uint64 ``(3, 52)``, ``scratch_ints`` int64 ``(6, 52)``."""
        g_nbr, t_nbr, u_nbr = scratch_masks[0], scratch_masks[1], scratch_masks[2]
        g_deg, g_s, t_deg, t_s, u_deg, u_s = (scratch_ints[0], scratch_ints[1], scratch_ints[2], scratch_ints[3],
                                              scratch_ints[4], scratch_ints[5])
        clear_graph(g_nbr, g_deg, g_s)
        g_edges = 0
        g_triangles = 0
        start = 0
        while start < count:
            strength = keys[start] >> COMBO_BITS
            end = start + 1
            while end < count and (keys[end] >> COMBO_BITS) == strength:
                end += 1
            if end - start == 1:  # no tie partner: c0 only
                combo = keys[start] & COMBO_FIELD
                a, b = combos[combo, 0], combos[combo, 1]
                add_count(counts, combo, 0, weight * matchings3_without(g_nbr, g_deg, g_s, g_edges, g_triangles, a, b))
                g_triangles += add_edge(g_nbr, g_deg, g_s, a, b)
                g_edges += 1
                start = end
                continue
            clear_graph(t_nbr, t_deg, t_s)
            copy_graph(g_nbr, g_deg, g_s, u_nbr, u_deg, u_s)
            t_edges, t_triangles, u_edges, u_triangles = 0, 0, g_edges, g_triangles
            for i in range(start, end):
                combo = keys[i] & COMBO_FIELD
                a, b = combos[combo, 0], combos[combo, 1]
                t_triangles += add_edge(t_nbr, t_deg, t_s, a, b)
                t_edges += 1
                u_triangles += add_edge(u_nbr, u_deg, u_s, a, b)
                u_edges += 1
            for i in range(start, end):
                combo = keys[i] & COMBO_FIELD
                a, b = combos[combo, 0], combos[combo, 1]
                c0 = matchings3_without(g_nbr, g_deg, g_s, g_edges, g_triangles, a, b)
                c3 = matchings3_without(t_nbr, t_deg, t_s, t_edges, t_triangles, a, b)
                everything = matchings3_without(u_nbr, u_deg, u_s, u_edges, u_triangles, a, b)
                c1 = 0
                if g_edges >= 2:
                    for j in range(start, end):
                        other = keys[j] & COMBO_FIELD
                        c, d = combos[other, 0], combos[other, 1]
                        if c != a and c != b and d != a and d != b:
                            c1 += matchings2_without(g_nbr, g_deg, g_edges, a, b, c, d)
                add_count(counts, combo, 0, weight * c0)
                add_count(counts, combo, 1, weight * c1)
                add_count(counts, combo, 2, weight * (everything - c0 - c1 - c3))
                add_count(counts, combo, 3, weight * c3)
            copy_graph(u_nbr, u_deg, u_s, g_nbr, g_deg, g_s)
            g_edges, g_triangles = u_edges, u_triangles
            start = end

    return SimpleNamespace(count_board=count_board)
