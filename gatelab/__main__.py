"""``python -m gatelab …`` — the same as the ``gatelab`` command."""

import sys

from gatelab.cli import main

sys.exit(main())
