"""Models in and out of files: ``.npz`` / safetensors model files (``model_files``: what a file must
hold to be a network; ``tensor_files``: the two formats read and written by hand, never pickle) and
the PyTorch parameter layout (``torch_io``; nothing here imports torch)."""
