"""All-in Atlas site generator: CLI, config, pipeline stages, storage and rendering."""

__version__ = "0.1.0"
