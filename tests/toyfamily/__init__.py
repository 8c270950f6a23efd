"""A sixth family in one folder: unit jobs on identical GPU servers (a toy for the conformance
suite).  Registered by the tests with ``register_family("toy", "toyfamily.family:FAMILY")``."""
