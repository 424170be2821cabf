"""The floor Streamlit sets for a slider: one slider, one Plotly line with a cursor at the slider's value.

``benchmarks/live_speed.py`` serves this beside Gate Lab and times a notch of its slider the same way
as each of Gate Lab's (issue 48): from the key press to the chart drawing the moved cursor.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

T = 100
t = st.slider("Timestep", 1, T, 1)
x = np.arange(1, T + 1)
fig = go.Figure(go.Scatter(x=x, y=np.sin(x / 8), mode="lines"))
fig.add_vline(x=t, line_dash="dot")
fig.update_layout(height=300, margin=dict(l=40, r=10, t=10, b=30))
st.plotly_chart(fig, width="stretch")
