"""How each cell family is written and drawn: one module per family, mirroring ``lstm_core/cells``.

A family module (``memory_cell``, ``lstm``, ``gru``, ``rnn``, ``local_feedback``) holds everything the
pages show of that cell — its unit names, the values of one unit at one step, its equations with
those numbers, the sentence on what to look for, its diagram and, for gated cells, the operations of
slow motion. ``families.of(cfg)`` finds the module of a configuration: adding a family is one file
here and one line in ``families.FAMILIES``.
"""
