"""``python -m strictconformance``: the ``strictconformance`` command (see :mod:`strictconformance.cli`)."""

import sys

from strictconformance.cli import main

sys.exit(main())
