"""``python -m lstm_core.atlas``: see ``lstm_core.atlas.cli``."""

import sys

from ..reproduce.distributed import as_command
from .cli import main

sys.exit(as_command(main))
