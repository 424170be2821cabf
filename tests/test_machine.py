"""Every result says where it ran: the CPU and the BLAS kernels its last bits depend on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from lstm_core.reproduce import machine

ROOT = Path(__file__).resolve().parents[1]


def test_describe_names_the_cpu_and_the_numpy_version():
    text = machine.describe()
    assert text.startswith(machine.cpu_model() + ", ") and text.endswith(f"NumPy {np.__version__}")
    assert machine.cpu_model() and "\n" not in text


def test_the_blas_kernels_follow_openblas_coretype():
    """The kernel name is read from OpenBLAS itself: forcing another kernel set shows in the description
    (how the effect of the kernels on a training run was measured; docs/results.md)."""
    assert machine.blas_core(), "the pinned NumPy wheel ships scipy-openblas, which names its kernels"
    code = "from lstm_core.reproduce import machine; print(machine.blas_core())"
    env = {**os.environ, "OPENBLAS_CORETYPE": "Sandybridge"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "Sandybridge"
