"""The twin engines' specification: committed golden files that pytest and ``node --test`` both read.

``spec/`` holds data (``<engine>.json`` goldens, ``constants.json``, two binary tables) and the Python that
writes it: one module per engine under :mod:`spec.engines` (the cases and ``build()``, which asks the Python
engine for every expected output), :mod:`spec.constants` (``constants.json`` → ``kernels/constants.py`` and
``templates/assets/js/engines/constants.js``) and :mod:`spec.regenerate` (``python -m spec.regenerate``). Nothing here
is imported by the build or the site; see spec/README.md.
"""
