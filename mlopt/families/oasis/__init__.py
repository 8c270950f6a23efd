"""OASiS (seed 000): the family's modules; the registration is :mod:`.family`."""
