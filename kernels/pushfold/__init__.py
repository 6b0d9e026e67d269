"""n-player push/fold (2..10 seats): chip-EV or ICM Nash equilibria by discounted CFR, with a best-response NashConv.

The game (amounts in big blinds, bb). Seats ``0 .. n-1`` act in that order: UTG … BTN, then SB
(``n-2``) and BB (``n-1``); heads-up seat 0 is the SB. Every seat posts its dead ante (the same
``ante`` for everyone, or with ``bb_ante`` only the BB posts ``ante``), SB and BB post their blinds.
The first player to enter shoves all-in or folds; after a shove each later player calls all-in or
folds (overcalls included); nobody re-raises. A caller puts in ``min(its stack, the shover's)``
(stack = chips behind after the ante); folded blinds and antes are dead money in the main pot, and
side pots follow from the unequal bets exactly. If everybody folds to the BB it takes the pot.
Payoff: the change of a player's chips (chip EV), or its ICM prize equity after the hand
(:func:`kernels.icm.harville.prize_equity` with the given payouts). With bounties (KO / PKO, the model of
:mod:`kernels.icm.bounty`): ICM payoffs are :func:`kernels.icm.bounty.position_value` after the hand (prize equity
+ bounty cash won + chip-proportional share of the bounties left on heads); chip-EV payoffs add to the
chips the bounty cash won and the change of that share, the bounties in bb. A player left without chips
is knocked out by the winner(s) of the last pot layer he was in, per showdown outcome.

Strategies: per *information set* — a player's open decision (everyone before it folded), or its
call decision facing shover ``p`` with a given set of callers before it — a probability of the
aggressive action (shove / call) for each of ``K`` hand classes (169 for hold'em).

Hands and card removal (the approximation, stated). A player's class has probability ``prior``; the
other players' classes given it are treated as *independent* of each other, each distributed as
``pairs[c, :]`` (card removal against the player whose value is computed, as the heads-up solver
does); the hands of two all-in opponents are taken jointly from the 3-way weights (card removal
among the three). Showdowns:

* 2 all-in: exact class-vs-class probabilities of win / tie / loss (``duel``);
* 3 all-in: the 13 weak orderings of the class triple (``triple``, from the ``threeway`` stage),
  which settles every side pot exactly;
* 4+ all-in (rare at equilibrium): a player wins pot layer ``k`` with the product of its equities
  against each eligible opponent's range (independent-opponent product, ties split in those
  equities); for ICM it either wins every layer it is eligible for (probability: the product over
  all opponents) or none, and the other players' chips are their expectation with the remaining
  layers split evenly. Folded players' ICM value in such a pot uses the even split. With bounties the
  same columns decide the knockouts (scoop: the player knocks out every stack it covers; nothing: an
  all-in player is knocked out by the others in its last layer, who split its bounty; even split: nobody
  busts); chip EV keeps the chips per layer and prices the bounty part the ICM way, scoop or nothing.
  :func:`multiway_reach` measures how often these pots happen.

Solver: discounted CFR (regrets floored at 0 and discounted, alternating seat updates, averages weighted by
iteration², :data:`DISCOUNT_POSITIVE`);
its counterfactual values come from a term program compiled once per game (sums of products
of per-class vectors, Numba loops). :func:`best_response` is the separate check (:func:`counterfactual_values`,
plain NumPy): for each player the gain of switching to a best response against the others' strategies (per
information set and class, the better action), summed (NashConv), and each class's regret at each decision.
No I/O.

Modules, one responsibility each:

* :mod:`.game`: the table, its terminals (side pots, payoffs per showdown outcome) and information sets;
* :mod:`.model`: the class-level equities and what is derived from them (conditional class distributions,
  the dense 3-way tensors);
* :mod:`.best_response`: counterfactual values, the best response, NashConv and per-class regrets;
* :mod:`.program`: the same counterfactual values compiled once per game, for the solver;
* :mod:`.loops`: the Numba loops of the contractions and of the compiled terms;
* :mod:`.cfr`: discounted CFR, the stopping rule, residue removal;
* :mod:`.diagnostics`: the BB's walk value, the 3-way table's error bound, pot-size frequencies;
* :mod:`.certificate`: each seat's gain from deviating, measured on real deals (no class tables).
"""

from .game import DUEL_ORDERINGS, MAX_SEATS, Game, Table, Terminal, infoset_keys, make_game, position_names, posted_amounts, table_errors
from .model import SWAP_OPPONENTS, Equities, dense_triples, triple_mass
from .best_response import REACH_FLOOR, BestResponse, best_response, class_regret, counterfactual_values, infoset_reach, meets, nash_conv, seat_gains
from .certificate import Certificate, certify
from .cfr import AVERAGE_POWER, DISCOUNT_POSITIVE, FALLBACK_DISCOUNT, RULE, Solution, StoppingRule, published, remove_residue, solve
from .diagnostics import multiway_reach, three_way_error_bound, walk_value

__all__ = [
    "AVERAGE_POWER",
    "BestResponse",
    "Certificate",
    "DISCOUNT_POSITIVE",
    "DUEL_ORDERINGS",
    "Equities",
    "Game",
    "MAX_SEATS",
    "REACH_FLOOR",
    "RULE",
    "SWAP_OPPONENTS",
    "Solution",
    "StoppingRule",
    "Table",
    "Terminal",
    "best_response",
    "certify",
    "class_regret",
    "counterfactual_values",
    "dense_triples",
    "infoset_keys",
    "infoset_reach",
    "make_game",
    "meets",
    "multiway_reach",
    "nash_conv",
    "position_names",
    "posted_amounts",
    "published",
    "remove_residue",
    "seat_gains",
    "solve",
    "FALLBACK_DISCOUNT",
    "table_errors",
    "three_way_error_bound",
    "triple_mass",
    "walk_value",
]
