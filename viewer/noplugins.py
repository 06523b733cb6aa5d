"""Pydantic with its plugins off, without importing its plugin loader. No pydantic here.

citeview runs pydantic with plugins disabled (``PYDANTIC_DISABLE_PLUGINS``, set in
:mod:`viewer`). Pydantic still imports its loader, ``pydantic.plugin._loader``, when it
builds the first model, only to hear from it that there are no plugins; and that module
imports ``importlib.metadata`` (with ``email``, ``zipfile``, ``csv``…): ~10 ms in every
check process and command, on the way to the first report. :func:`install` puts a finder
first on ``sys.meta_path`` that answers for that one module, while plugins are disabled as
pydantic itself reads the setting, with a stand-in whose ``get_plugins()`` gives what the
loader's gives then: nothing. Any other name asked of the stand-in is the real loader's,
imported then. Nothing is imported until pydantic asks, so a process that never builds a
model (the window) never sees either.
"""

from __future__ import annotations

import functools
import os
import sys
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

LOADER = "pydantic.plugin._loader"
ENV = "PYDANTIC_DISABLE_PLUGINS"
# The values with which pydantic's get_plugins() returns no plugins without looking.
ALL_OFF = ("__all__", "1", "true")


def all_off() -> bool:
    """Whether pydantic's settings disable every plugin."""
    return os.environ.get(ENV) in ALL_OFF


def no_plugins() -> tuple[()]:
    """The stand-in's ``get_plugins``: with every plugin disabled, pydantic has none."""
    return ()


class _StandIn:
    """Finder and loader of the stand-in for :data:`LOADER`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None
                  ) -> ModuleSpec | None:
        if name != LOADER or not all_off():
            return None
        return ModuleSpec(name, cast("Loader", self), origin="citeview: plugins disabled")

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        setattr(module, "get_plugins", no_plugins)  # noqa: B010  (a module's attributes)
        setattr(module, "__getattr__", _real_attribute)  # noqa: B010


def _real_attribute(name: str) -> Any:
    """Anything else asked of the stand-in: the real loader's (imported once, aside)."""
    if name.startswith("__"):
        raise AttributeError(name)
    real = _real_loader()
    if real is None:
        raise AttributeError(f"module {LOADER!r} has no attribute {name!r}")
    return getattr(real, name)


@functools.cache
def _real_loader() -> ModuleType | None:
    """Pydantic's own loader, imported beside the stand-in; None where it is not found."""
    package = sys.modules.get(LOADER.rpartition(".")[0])
    spec = PathFinder.find_spec(LOADER, getattr(package, "__path__", None))
    if spec is None or spec.loader is None:
        return None
    from importlib.util import module_from_spec

    real = module_from_spec(spec)
    spec.loader.exec_module(real)
    return real


def install() -> None:
    """Put the stand-in's finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _StandIn) for f in sys.meta_path):
        sys.meta_path.insert(0, _StandIn())
