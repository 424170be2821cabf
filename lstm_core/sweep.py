"""``python -m lstm_core.sweep …`` — the bias-sweep command's entry point, and nothing else.

The command lives in ``lstm_core/sweeps/cli.py``; this name is kept at the top because the
Makefile's ``bias-baseline`` and every sweep file (its ``command`` field) name it in this form.
"""

import sys

if __name__ == "__main__":
    from lstm_core.reproduce.distributed import as_command
    from lstm_core.sweeps.cli import main

    sys.exit(as_command(main))
