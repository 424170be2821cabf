"""The bias-initialisation atlas: the literature's gate-bias schemes (``lstm_core.init_schemes``)
trained side by side on long-lag tasks as the lag grows (``grid``), run by ``python -m
lstm_core.atlas`` (``cli``), read back by ``results``."""

from .grid import FULL, QUICK, Grid, member_configs, run_unit, t_max
from .results import cells, curves, load, markdown_table, networks, rank_at, ranking

__all__ = [
    "FULL",
    "QUICK",
    "Grid",
    "member_configs",
    "run_unit",
    "t_max",
    "load",
    "networks",
    "cells",
    "curves",
    "ranking",
    "rank_at",
    "markdown_table",
]
