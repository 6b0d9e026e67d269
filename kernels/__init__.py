"""Pure numerics for All-in Atlas: cards, evaluator, heads-up, multiway, ICM. No file or network I/O (but where Numba
keeps compiled kernels: :mod:`.compile_cache`)."""

from kernels.compile_cache import use_cache_folder

use_cache_folder()
