"""Bias lab: its settings, sections (demos) and figures."""
