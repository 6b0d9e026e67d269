"""Random dealing shared by the Monte Carlo kernels: counter-based words (:mod:`.rng`), partial shuffles (:mod:`.dealing`)."""
