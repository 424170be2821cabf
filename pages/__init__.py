"""The app's pages: one script each, run by the router (app/main.py, ``st.navigation``).

A page script is a thin pipeline — controls → core computation → figure builders in ``app`` —
and draws only when Streamlit runs it as ``__main__``; importing ``pages.<name>`` (the tests
do) gives its settings schema, defaults and helpers without drawing anything.
"""
