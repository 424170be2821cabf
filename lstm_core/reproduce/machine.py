"""Which machine a result came from: the CPU model and the numeric kernels NumPy runs on it.

Training runs are bit-for-bit repeatable on one kind of machine, but not across CPUs: OpenBLAS
(NumPy's BLAS, built with DYNAMIC_ARCH) picks its matrix kernels for the CPU it finds, and
different kernels round the last bits differently. In a long run that learns chaotically such a
difference can grow until a network's trajectory changes — measured here: the RNN p = 10 row's
seed 16 reached a best streak of 6 with the kernels OpenBLAS picks on an AMD EPYC (Haswell) and 5 with
``OPENBLAS_CORETYPE=Sandybridge`` (the value of an earlier run on an Intel Xeon); embedded Reber
seed 18 solved at 24,548 (Haswell or Zen kernels), 12,037 on the Intel Xeon, and not at all
with Sandybridge kernels. So every result records the machine it ran on.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os
import platform

import numpy as np


def cpu_model() -> str:
    """The CPU's model name ("AMD EPYC", "Intel(R) Xeon(R) …"), or the platform's processor string."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def blas_core() -> str:
    """The kernel set OpenBLAS chose at run time (e.g. "Zen", "Haswell", "SkylakeX"), or "" if unknown.

    NumPy's wheels ship OpenBLAS as scipy-openblas; its ``…get_corename…`` function names the kernels.
    ``OPENBLAS_CORETYPE`` overrides the choice (that is how the effect above was measured)."""
    libdir = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    for path in glob.glob(os.path.join(libdir, "*openblas*.so*")):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in (
            "scipy_openblas_get_corename64_",
            "scipy_openblas_get_corename",
            "openblas_get_corename",
        ):
            fn = getattr(lib, symbol, None)
            if fn is not None:
                fn.restype = ctypes.c_char_p
                return (fn() or b"").decode(errors="replace").strip()
    return ""


@functools.lru_cache(maxsize=1)
def describe() -> str:
    """One line: CPU model, OpenBLAS kernels and NumPy version — what a result's last bits depend on."""
    core = blas_core()
    return f"{cpu_model()}, " + (f"OpenBLAS {core} kernels, " if core else "") + f"NumPy {np.__version__}"
