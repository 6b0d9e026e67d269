"""Pipeline stages: each computes one dataset (through ``kernels``), caches it, and writes ``site/data``."""
