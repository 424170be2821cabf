"""The Bias atlas page's helpers: settings, charts, the live cell and the model check."""
