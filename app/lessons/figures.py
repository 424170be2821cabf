"""A lesson question's chart: its outcome's curves as a log-scale flow chart or as lines."""
from __future__ import annotations

import numpy as np

from app.lessons.compute import Outcome
from app.lessons.content import Question
from app.ui import figures


def chart(question: Question, outcome: Outcome, large: bool, uirevision: str) -> figures.Chart:
    """``(go.Figure, alt)`` of the curves the question's computation returned."""
    x = np.asarray(outcome.x)
    if question.chart == "flow":
        curves = [figures.FlowCurve(name, x, np.asarray(y)) for name, y in outcome.curves.items()]
        fig, alt = figures.flow_chart(curves, title=question.chart_title, large=large, uirevision=uirevision,
                                      height=360)
        # Legend above the plot, not beside it: the chart sits in a narrow column next to its text.
        fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.01, x=0, xanchor="left"),
                          margin=dict(t=72 + (24 if large else 0), r=12))
        return fig, alt
    # The contrasting setting is dashed and shares its partner's colour (same position in its group),
    # so the pairs read apart without relying on colour.
    solid = [n for n in outcome.curves if n not in outcome.dashed]
    dashed = [n for n in outcome.curves if n in outcome.dashed]
    series = [figures.Series(n, np.asarray(outcome.curves[n]), colour_index=i) for i, n in enumerate(solid)]
    series += [figures.Series(n, np.asarray(outcome.curves[n]), dash="dash", colour_index=i)
               for i, n in enumerate(dashed)]
    return figures.lines(x, series, title=question.chart_title, y=question.y_label, cursor=None, large=large,
                         uirevision=uirevision, x=question.x_label, height=360)
