"""Progress output that stays readable: log lines written while the commands' tqdm bar is drawn on
stderr come out as whole lines (``distributed.log_line``: ``tqdm.write``, or ``print`` without tqdm),
never glued to a fragment of the bar."""

from __future__ import annotations

import sys

from tqdm import tqdm

from lstm_core.reproduce import cli, distributed

TINY = ["--workers", "1", "long_lag_rnn", "--trials", "2", "--budget", "120", "--set", "p=4", "--reduced"]


def screen_lines(text: str) -> list[str]:
    """What a terminal shows of each line: the part after its last carriage return."""
    return [line.rsplit("\r", 1)[-1].rstrip() for line in text.split("\n")]


def is_bar(line: str) -> bool:
    return "unit/s" in line or "|" in line


def test_a_runs_log_lines_are_not_glued_to_the_progress_bar(monkeypatch, capsys):
    monkeypatch.setattr(distributed, "IN_UNIT_EVERY", 0.0)  # a progress line at every report inside the unit
    assert cli.main(TINY) == 0  # the bar is on (no --no-progress)
    lines = screen_lines(capsys.readouterr().err)
    logs = [line for line in lines if "long_lag_rnn seeds 0–1:" in line]
    assert any(is_bar(line) for line in lines), "the bar was not drawn, so this test shows nothing"
    assert len(logs) >= 2, lines
    glued = [line for line in logs if is_bar(line) or not line.startswith("  long_lag_rnn")]
    assert not glued, glued
    assert all(line.endswith("left") for line in logs)


def test_log_line_lifts_a_live_bar_off_and_draws_it_again(capsys):
    bar = tqdm(total=3, file=sys.stderr, unit="unit")
    bar.update(1)
    distributed.log_line("  one whole line")
    bar.update(1)
    bar.close()
    lines = screen_lines(capsys.readouterr().err)
    assert "  one whole line" in lines
    assert not any("one whole line" in line and is_bar(line) for line in lines)


def test_without_tqdm_log_lines_are_printed_and_progress_is_plain_lines(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `from tqdm import tqdm` raises ImportError
    distributed.log_line("  a line")
    bar = distributed._bar([], {}, True)
    assert isinstance(bar, distributed._Lines)
    out = capsys.readouterr()
    assert out.err == "  a line\n" and out.out == ""
