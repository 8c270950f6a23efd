"""PD-ORS (seed 004): the family's modules; the registration is :mod:`.family`."""
