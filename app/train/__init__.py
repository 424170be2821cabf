"""Train and watch: its settings, the live run and its figures."""
