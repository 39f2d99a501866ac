"""Helpers for the autograd notebooks: device choice, loss plots, graph drawing and tracing.

Import the module you need, e.g. ``from helpers.graph import draw`` or
``from helpers.plot import plot_losses``.
"""
