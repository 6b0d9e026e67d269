"""The published data files: their JSON Schemas, CSV and binary forms (:mod:`.datafiles`), and what the site
reads of them (:mod:`.sitedata`). Imports only :mod:`generator.core`."""
