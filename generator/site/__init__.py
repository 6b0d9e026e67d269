"""Rendering the static site from the data files: pages, articles and their shortcodes, charts, URLs
(:mod:`.structure`). Imports :mod:`generator.core` and :mod:`generator.data`."""
