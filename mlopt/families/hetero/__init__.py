"""Heterogeneous weighted completion time (seed 003): the family's modules; the registration
is :mod:`.family`."""
