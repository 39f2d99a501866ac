"""Helpers for the autograd notebooks: device choice, loss plots, graph drawing and tracing.

Import the module you need, e.g. ``from helpers.graph import draw`` or
``from helpers.plot import plot_losses``. ``set_language("zh")`` makes every helper speak Chinese
(the notebooks in notebooks/zh/ start with it); English is the default.
"""

from helpers.language import get_language, set_language, speaking
from helpers.torch_version import check_torch

check_torch()  # an unsupported torch is told at once, not by a puzzling error later

__all__ = ["get_language", "set_language", "speaking"]
