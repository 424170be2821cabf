"""Training: the papers' algorithms (rtrl, bptt, tbptt), SGD with momentum and clipping,
populations with per-network stop bookkeeping, and the paper presets."""

from .config import ALGORITHMS, TrainConfig
from .optimizer import SGD
from .progress import ProbeTrace, Progress, param_group
from .trainer import Trainer

__all__ = ["Trainer", "TrainConfig", "ALGORITHMS", "SGD", "Progress", "ProbeTrace", "param_group"]
from .presets import PRESETS, Preset, get_preset  # noqa: E402

__all__ += ["PRESETS", "Preset", "get_preset"]
