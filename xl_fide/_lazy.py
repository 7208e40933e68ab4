"""Names a package imports on first use (PEP 562), so that importing the package
stays cheap and a command imports only what it runs: :mod:`xl_fide` and
:mod:`xl_fide.lists` serve their public names through :func:`lazy_attribute`."""

from __future__ import annotations

import importlib


def lazy_attribute(namespace: dict[str, object], exports: dict[str, str], name: str) -> object:
    """The package attribute ``name`` from the module ``exports[name]`` defines, kept
    in the package's ``namespace`` (its ``globals()``) so the next look-up is plain.
    Raises :class:`AttributeError` for a name the package does not export."""
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value
