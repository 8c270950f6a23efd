"""Packaged experiment specs (TOML), the quickstart's quick_<family>.toml, one per family."""
