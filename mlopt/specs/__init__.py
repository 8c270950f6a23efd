"""Packaged experiment specs (TOML), e.g. the quickstart quick.toml."""
