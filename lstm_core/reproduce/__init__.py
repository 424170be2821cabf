"""Reproducing the papers' experiments: the command, its results files and their bookkeeping.

- ``cli`` — the reproduction command (run as ``python -m lstm_core.experiments``): options, printing, files;
- ``experiments`` — its work: one preset × N networks per row, as units of work, and a row's summary;
- ``results`` — a row's outcome (``Outcome``) and the markdown/JSON files rows are kept in;
- ``diagnostics`` — why a network failed (saturation, state drift, pinned outputs, …);
- ``distributed`` — units of work run in-process or on Dask, resumable;
- ``machine`` — the CPU and OpenBLAS kernels a result was computed on.

Serves the command line and the Paper experiments page; the engine a student reads is the
package above (cells, model, drivers), which never imports from here.
"""
