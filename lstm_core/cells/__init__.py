"""Registry: variant name -> cell class (each a small module with its equations)."""
from .gru import GRUCell
from .local_feedback import LocalFeedbackCell
from .lstm import LSTMCell
from .memory_cell import MemoryCell
from .rnn import RNNCell

CELLS = {"rnn": RNNCell, "local_feedback": LocalFeedbackCell, "lstm1997": MemoryCell,
         "lstm2000": MemoryCell, "lstm2002": MemoryCell, "lstm": LSTMCell, "gru": GRUCell}


def make_cell(cfg):
    return CELLS[cfg.variant](cfg)
