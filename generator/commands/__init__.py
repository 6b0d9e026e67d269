"""One module per CLI command (or group of related commands); `generator.cli` assembles them."""
