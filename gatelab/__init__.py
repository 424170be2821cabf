"""The ``gatelab`` command (``cli``) and the room server behind nginx (``room``)."""
