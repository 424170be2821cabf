"""Home page (placeholder; the real Home page replaces this file)."""

import streamlit as st

st.title("Gate Lab")
st.write(
    "Gate Lab is a browser lab for teaching and exploring how recurrent cells work: why a plain "
    "RNN forgets, how the 1997 LSTM's constant error carousel keeps error flowing, and what the "
    "gates and their bias initialisations do. A NumPy core steps the cells one timestep at a "
    "time, and the pages let you pick a variant and a task, set the gate biases, and watch "
    "internal states, gate activations and gradient norms update live."
)
