"""Computing the data: one module per dataset (:mod:`.stages`), reached through :mod:`.registry` with the settings of
one :mod:`.run`; the order of ``allin build`` (:mod:`.pipeline`), Dask (:mod:`.cluster`, :mod:`.units`), the CUDA build
and the self-check (:mod:`.doctor`). Imports the layers below, never :mod:`generator.cli`."""
