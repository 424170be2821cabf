"""A lesson question's chart: its outcome's curves as a log-scale flow chart or as lines."""

from __future__ import annotations

import numpy as np

from app.i18n import _
from app.lessons.compute import Outcome
from app.lessons.questions import Question
from app.ui import figures, flow_figures


def curve_name(outcome: Outcome, name: str) -> str:
    """The curve ``name`` (English, the outcome's key) in this session's language."""
    template, args = outcome.labels.get(name, (name, {}))
    return _(template).format(**{k: _(v) for k, v in args.items()}) if args else _(template)


def chart(question: Question, outcome: Outcome, large: bool, uirevision: str) -> figures.Chart:
    """``(go.Figure, alt)`` of the curves the question's computation returned (texts translated
    here, after the cached computation: the language is per session)."""
    x = np.asarray(outcome.x)
    title = _(question.chart_title)
    if question.chart == "flow":
        curves = [
            flow_figures.FlowCurve(curve_name(outcome, name), x, np.asarray(y))
            for name, y in outcome.curves.items()
        ]
        fig, alt = flow_figures.flow_chart(
            curves, title=title, large=large, uirevision=uirevision, height=360
        )
        # Legend above the plot, not beside it: the chart sits in a narrow column next to its text.
        fig.update_layout(
            legend=dict(orientation="h", yanchor="bottom", y=1.01, x=0, xanchor="left"),
            margin=dict(t=72 + (24 if large else 0), r=12),
        )
        return fig, alt
    # The contrasting setting is dashed and shares its partner's colour (same position in its group),
    # so the pairs read apart without relying on colour.
    solid = [n for n in outcome.curves if n not in outcome.dashed]
    dashed = [n for n in outcome.curves if n in outcome.dashed]
    series = [
        figures.Series(curve_name(outcome, n), np.asarray(outcome.curves[n]), colour_index=i)
        for i, n in enumerate(solid)
    ]
    series += [
        figures.Series(curve_name(outcome, n), np.asarray(outcome.curves[n]), dash="dash", colour_index=i)
        for i, n in enumerate(dashed)
    ]
    return figures.lines(
        x,
        series,
        title=title,
        y=_(question.y_label),
        cursor=None,
        large=large,
        uirevision=uirevision,
        x=_(question.x_label),
        height=360,
    )
