"""Gate Lab core: recurrent cells stepped one timestep at a time, with exact gradients.

Pure NumPy (pandas only for ``Run.to_frame``). See docs/api.md for a tour of the API.
"""

from .config import LIMITS, ModelConfig
from .error_flow import ErrorFlow, error_flow
from .gradients import backward, gradients
from .io.model_files import LoadedModel, load_model_file
from .io.torch_io import from_torch, to_torch
from .model import Model, build, build_population, stack
from .numerics import NonFiniteError
from .rtrl import RTRL, rtrl_gradients
from .sequence import Run, forward, shown_names
from .variants import REGISTRY, VARIANTS, Variant, variant

__all__ = [
    "VARIANTS",
    "REGISTRY",
    "Variant",
    "variant",
    "LIMITS",
    "ModelConfig",
    "Model",
    "build",
    "build_population",
    "stack",
    "forward",
    "Run",
    "shown_names",
    "gradients",
    "backward",
    "error_flow",
    "ErrorFlow",
    "RTRL",
    "rtrl_gradients",
    "from_torch",
    "to_torch",
    "NonFiniteError",
    "LoadedModel",
    "load_model_file",
]
from .tasks import TASKS, Batch, Criterion, Report, Task, get_task

__all__ += ["TASKS", "Task", "Batch", "Report", "Criterion", "get_task"]
