"""The flop atlas's numerics (definitions in docs/flop.md).

* :mod:`.flops`: the 22,100 flops, their 1,755 suit-distinct classes and weights, textures.
* :mod:`.categories`: a hand's made category and draws on a board; every class's counts over its flops; a range's hit table.
  Its per-hand logic is :mod:`.core`'s, written once for the CPU and CUDA; :mod:`.gpu`: the class counts on CUDA.
* :mod:`.boards`: the 134,459 five-card board classes and their ten flops each.
* :mod:`.equity`: range against range on a board (each combo's equity, the distribution) and on every flop.
"""
