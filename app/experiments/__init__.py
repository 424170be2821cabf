"""Paper experiments: the results file and figures."""
