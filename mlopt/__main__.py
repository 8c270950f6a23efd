"""``python -m mlopt`` is the ``mlopt`` command."""
import sys

from .cli import main

sys.exit(main())
