"""Cell classes by family (``lstm_core.variants`` says which family a variant belongs to);
each is a small module with its equations in the docstring."""

from .gru import GRUCell
from .local_feedback import LocalFeedbackCell
from .lstm import LSTMCell
from .memory_cell import MemoryCell
from .rnn import RNNCell

CELLS = {
    "rnn": RNNCell,
    "local_feedback": LocalFeedbackCell,
    "memory_cell": MemoryCell,
    "lstm": LSTMCell,
    "gru": GRUCell,
}


def make_cell(cfg):
    return CELLS[cfg.record.family](cfg)
