"""``python -m mlopt`` is the ``mlopt`` command."""
import sys

try:
    from mlopt.cli import main
except KeyboardInterrupt:  # Ctrl-C before main() could catch it: the same one line
    print("mlopt: interrupted (results written so far are kept)", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
