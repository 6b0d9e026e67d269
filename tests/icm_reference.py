"""ICM by enumerating every finishing order, in whatever numbers it is given (floats, or Fractions
for exact answers): the reference of tests/test_icm.py and tests/bounty_reference.py, independent
of the kernel's DP and integral."""

import itertools


def permutation_equity(stacks: list, payouts: list) -> list:
    """Prize equity of each player: every finishing order of the players with chips, 1st drawn in
    proportion to the stacks, then the next among those left; players without chips share the last
    places equally."""
    n = len(stacks)
    zero = 0 * stacks[0]
    prizes = list(payouts) + [zero] * (n - len(payouts))
    live = [i for i in range(n) if stacks[i] > 0]
    busted = [i for i in range(n) if stacks[i] == 0]
    equity = [zero] * n
    for order in itertools.permutations(live):
        probability, left = 1, sum(stacks[i] for i in live)
        for player in order:
            probability *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += probability * prizes[place]
    for player in busted:
        equity[player] = sum(prizes[len(live):], zero) / len(busted)
    return equity
