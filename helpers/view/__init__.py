"""The interactive view: a picture to drag, zoom, search and click, one step of a backward pass
at a time if it has steps. It knows nothing of graphs or traces: what it shows comes from a
`Source`, which `helpers.graph` (`explore`) and `helpers.backward_view` (`step_through`) each
implement.

Its modules, each importing only those before it: `words` (every word the view says), `source`
(what a source gives the view, and the pieces every source needs), `widget` (the view itself,
with its script, ``script/*.js``, and ``view.css``, which anywidget hands to the browser).
"""

from helpers.view.source import Source, forget_with, inline_svg, svg_image
from helpers.view.widget import WIDGET_VIEW, Explorer, script
from helpers.view.words import VIEW_TEXTS

__all__ = [
    "VIEW_TEXTS",
    "WIDGET_VIEW",
    "Explorer",
    "Source",
    "forget_with",
    "inline_svg",
    "script",
    "svg_image",
]
