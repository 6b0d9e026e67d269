"""``python -m generator.cli``: the ``allin`` command line."""

from generator.cli import main

main()
