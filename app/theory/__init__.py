"""Theory: the equations' text, the live demo's computation and its figures."""
