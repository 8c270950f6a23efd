"""Edge-cloud JCT (seed 001): the family's modules; the registration is :mod:`.family`."""
