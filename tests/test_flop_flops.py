"""The 1,755 suit-distinct flops: orbits checked against applying all 24 suit relabellings directly."""

from itertools import permutations


from kernels.flop.flops import N_FLOPS, all_flops, flop_index, flop_orbits, straight_holdings, texture


def relabelled(flop, perm):
    return tuple(sorted(4 * (card // 4) + perm[card % 4] for card in flop))


def test_orbits_are_the_suit_relabellings_and_weights_their_sizes():
    representatives, weights, orbit_of_flop = flop_orbits()
    flops = [tuple(f) for f in all_flops().tolist()]
    index = {flop: i for i, flop in enumerate(flops)}
    assert len(representatives) == 1755 and weights.sum() == N_FLOPS
    for k, rep in enumerate(representatives.tolist()):
        orbit = {relabelled(rep, perm) for perm in permutations(range(4))}
        assert len(orbit) == weights[k]
        assert {int(orbit_of_flop[index[f]]) for f in orbit} == {k}


def test_flop_index_is_the_position_in_all_flops_for_every_flop():
    flops = all_flops()
    assert [flop_index(f[::-1]) for f in flops.tolist()] == list(range(N_FLOPS))


def test_textures_of_known_flops():
    # Kc 7d 2h: rainbow, unpaired, no two ranks make a straight; Ts 9s 8s: monotone, QJ, J7 and 76.
    assert texture([44, 21, 2]) == {"suits": "rainbow", "pairing": "unpaired", "high": 11, "straights": 0}
    assert texture([35, 31, 27]) == {"suits": "monotone", "pairing": "unpaired", "high": 8, "straights": 3}
    assert texture([0, 1, 6])["pairing"] == "paired" and texture([0, 1, 2])["pairing"] == "trips"
    # A 2 3: only 4 5 makes a straight (the wheel; 2 3 4 5 6 would need both 4 and 5 and a 6).
    assert straight_holdings([12, 0, 1]) == 1
