"""Harmony (seed 002): the family's modules; the registration is :mod:`.family`."""
