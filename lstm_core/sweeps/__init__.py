"""Bias sweeps: a grid of gate-bias settings × seeds trained as one population.

- ``sweep`` — ``Axis``, ``Sweep`` and the per-cell aggregates the Bias lab draws;
- ``separately`` — the same networks trained one by one, to prove the population changes nothing;
- ``cli`` — the sweep command (run as ``python -m lstm_core.sweep``), resumable, on Dask if asked;
- ``bias_demos`` — the measurements behind the Bias lab's demonstrations (abuse, drift,
  forget-gate bias).
"""
