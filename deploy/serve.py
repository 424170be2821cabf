"""``python deploy/serve.py --replicas K --port 8080`` from a checkout: the same as ``gatelab room``.

The room server lives in ``gatelab/room.py`` (installed with the package, so ``gatelab room`` works
without a checkout); this script only puts the checkout on ``sys.path`` and hands over.
"""

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gatelab import room  # noqa: E402

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, room.stop)
    sys.exit(room.main())
