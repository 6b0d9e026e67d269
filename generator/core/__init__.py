"""What every layer uses: errors and the number grammar, the validated configuration, atomic storage, the
cache and provenance, the backend choice, progress and interruption. Imports nothing above it."""
