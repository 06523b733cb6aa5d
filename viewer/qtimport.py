"""Make PySide6's look at each newly imported module cheap. No Qt.

Once PySide6 is imported, every import statement passes through its ``__feature__`` hook,
which reads the source of each module it has not seen yet (``inspect.getsource``) to learn
whether the module mentions "PySide6": only such modules may switch on PySide's optional
``snake_case`` and ``true_property`` features (citeview uses neither). The window imports
some 150 modules after Qt, ours and the standard library's, and that reading took ~20 ms
of a 0.5 s start-up. :func:`install` puts in a check with the same answer that searches
the file's bytes instead; a module it cannot read so (no source file, or one inside the
bundled app's archive) is left to PySide6's own check. The hook is PySide6's private
code: when the PySide6 in use has no such check, nothing is done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

# Where PySide6 (6.4 to 6.11 at least) keeps the check, and its name.
FEATURE_MODULE, CHECK = "shibokensupport.feature", "_mod_uses_pyside"
ModuleCheck = Callable[[ModuleType], bool]


def faster(own: ModuleCheck) -> ModuleCheck:
    """The check ``own`` makes ("does the module's source mention PySide6?"), made by
    searching the bytes of the module's ``.py`` file; ``own`` answers for the rest."""

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass  # not a file of its own (an archive): as PySide6 would
        return bool(own(module))

    uses_pyside.own = own  # type: ignore[attr-defined]  # (installed once)
    return uses_pyside


def install() -> bool:
    """Use :func:`faster` for PySide6's check from now on; False if there is none (or
    PySide6 is not imported yet)."""
    feature = sys.modules.get(FEATURE_MODULE)
    own = getattr(feature, CHECK, None)
    if feature is None or not callable(own):
        return False
    if not hasattr(own, "own"):
        setattr(feature, CHECK, faster(own))
    return True
