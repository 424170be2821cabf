"""Guided lessons: predict, then reveal what the real model does (issue 15)."""
