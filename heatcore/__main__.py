"""``python -m heatcore``: the same command line as the ``heatcore`` script."""

import sys

from heatcore.tools.cli import main

sys.exit(main())
