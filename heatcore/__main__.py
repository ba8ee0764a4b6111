"""``python -m heatcore``: the same command line as the ``heatcore`` script."""

import sys

from heatcore.cli import main

sys.exit(main())
