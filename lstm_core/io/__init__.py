"""Models in and out of files: ``.npz`` / safetensors model files (``model_files``) and the
PyTorch parameter layout (``torch_io``; nothing here imports torch)."""
