"""How Chinese a text reads: the measure behind the issue's "≥ 90 % of the visible words are Chinese".

English words are runs of two or more Latin letters, less the names that stay as they are in both
languages (``NAMES``: LSTM, RTRL, Reber, …); symbols such as y_in or s_c and numbers are not words.
Chinese is written without spaces, so its words are counted as CJK characters / 2 (the mean length
of a Chinese word, as a dictionary segmenter would cut it, is close to two characters).
"""

from __future__ import annotations

import re

NAMES = {
    n.lower()
    for n in """LSTM GRU RNN RTRL BPTT TBPTT CEC Reber PyTorch sigmoid tanh peephole peepholes
    NaN inf CSV JSON URL PNG SVG safetensors npz pt Plotly Streamlit Dask nginx MSD NMSD GTS PFG
    Gers Hochreiter Schmidhuber Schraudolph Cummins Frasconi Gori Soda JMLR fc nn Linear Embedding px ms
    Ctrl ReLU softmax argmax Adam SGD OpenBLAS NumPy AMD EPYC Intel Xeon Haswell Zen Sandybridge vs
    adding lstm gru rnn""".split()
}
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
TOKEN = re.compile(r"[A-Za-z0-9_′'’\\^]+")


def english_words(text: str) -> list[str]:
    return [t for t in TOKEN.findall(text) if re.fullmatch(r"[A-Za-z]{2,}", t) and t.lower() not in NAMES]


LEFT_OUT = re.compile(
    r"<style.*?</style>|<script.*?</script>|</?[A-Za-z][^<>]*>|\$\$.*?\$\$|\$[^$\n]*\$|```.*?```|"
    r"`[^`\n]*`|:material/\w+:",
    re.S,
)


def chinese_share(text: str) -> tuple[float, int, int]:
    """(share of Chinese words, Chinese words, English words) of ``text``; typeset equations, code,
    icon names and HTML markup (tags, style sheets) are left out."""
    text = LEFT_OUT.sub(" ", text)
    zh = len(CJK.findall(text)) / 2
    en = len(english_words(text))
    return (zh / (zh + en) if zh + en else 1.0), round(zh), en
