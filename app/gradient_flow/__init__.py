"""Gradient flow page: settings and computation (``flow``)."""
