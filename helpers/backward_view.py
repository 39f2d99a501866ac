"""The view of a traced backward pass, by the name learners import it: tables, pictures, a slider.

    >>> from helpers.backward import trace
    >>> from helpers.backward_view import step_through
    >>> steps = trace(a)
    >>> steps                      # a table: step, node, gradients in, gradients out
    >>> step_through(steps)        # the graph once per step, with a slider in JupyterLab

The code is in `helpers.backward.view` (the pictures, the slider, the public functions) and
`helpers.backward.table` (the table a `Trace` also shows itself as); this module only gives them
their public name.
"""

from helpers.backward.messages import VIEW_MESSAGES as MESSAGES  # noqa: F401 - the view's words
from helpers.backward.table import MAX_ROWS  # noqa: F401 - where a long table is cut
from helpers.backward.view import (
    MAX_FRAMES,
    StepThrough,
    frames,
    step_through,
    table_html,
    table_text,
)

__all__ = ["MAX_FRAMES", "StepThrough", "frames", "step_through", "table_html", "table_text"]
