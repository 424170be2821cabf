"""``python -m lstm_core.experiments …`` — the reproduction command's entry point, and nothing else.

The command lives in ``lstm_core/reproduce/cli.py`` (its work in ``reproduce/experiments.py``);
this name is kept at the top because every row of docs/results.{md,json} records the command it
was made with in this form.
"""

import sys

if __name__ == "__main__":
    from lstm_core.reproduce.cli import main
    from lstm_core.reproduce.distributed import as_command

    sys.exit(as_command(main))
