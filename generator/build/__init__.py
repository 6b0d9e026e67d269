"""Computing the data: the stages (:mod:`.stages`), the stage graph of ``allin build`` (:mod:`.pipeline`),
the CUDA build and the self-check (:mod:`.doctor`). Imports the layers below, never :mod:`generator.cli`."""
