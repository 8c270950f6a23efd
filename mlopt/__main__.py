"""``python -m mlopt`` is the ``mlopt`` command."""
import sys

from mlopt.cli import main

sys.exit(main())
