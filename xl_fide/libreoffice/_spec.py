"""The function set an extension serves, read from the module that defines it (by
default ``xl_fide.udfs``): names, argument order, defaults, shapes and the Function
Wizard texts all come from the functions themselves -- one definition, not two."""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass

#: Arguments of xl_fide.udfs where 0 is a real value (a loss, a difference of 0, a
#: score of 0, no games yet). Everywhere else 0 is never valid, so a 0 that Calc
#: passes for a blank cell given alone is read as blank (see _cells.convert).
ZERO_IS_A_VALUE = frozenset({"score", "scores", "result", "results", "D", "p", "games",
                             "period_games", "opponents"})
DEFAULT_MODULE = "xl_fide.udfs"


@dataclass(frozen=True)
class Param:
    name: str
    doc: str
    ndim: int | None
    zero_is_blank: bool
    optional: bool = True    # the Python parameter has a default


@dataclass(frozen=True)
class Function:
    name: str            # the Excel name, FIDE_EXPECTED
    summary: str         # the docstring's first line
    params: tuple[Param, ...]


def _first_line(doc: str | None, fallback: str) -> str:
    lines = [line.strip() for line in (doc or "").strip().splitlines()]
    return lines[0] if lines and lines[0] else fallback


def _ndims(module: object, name: str, fn: object) -> dict:
    """ndim per argument from ``arg_docs``, module ``__ndim__``, ``fn._ndim`` or
    classic xlwings ``__xlfunc__`` metadata."""
    out: dict = {}
    xf = getattr(fn, "__xlfunc__", None)
    if isinstance(xf, dict):
        for a in xf.get("args", ()):
            if (a.get("options") or {}).get("ndim") is not None:
                out[a["name"]] = a["options"]["ndim"]
    for arg, (_, ndim) in (getattr(fn, "arg_docs", None) or {}).items():
        if ndim is not None:
            out[arg] = ndim
    for src in (((getattr(module, "__ndim__", None) or {}).get(name) or {}),
                getattr(fn, "_ndim", None) or {}):
        out.update(src)
    return out


def read_functions(module_name: str = DEFAULT_MODULE) -> list[Function]:
    """Every UPPER_CASE function of the module (those in ``__all__`` if it has one),
    in that order. Raises ValueError for a parameter kind Calc cannot pass (*args)."""
    from xl_fide.libreoffice._xlwings_standin import install
    install()
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, f in vars(module).items()
                 if inspect.isfunction(f) and getattr(f, "__module__", None) == module_name]
    zero_values = ZERO_IS_A_VALUE if module_name == DEFAULT_MODULE else None
    out = []
    for name in names:
        fn = getattr(module, name)
        if not (name.isupper() and callable(fn)):
            continue
        docs = getattr(fn, "arg_docs", None) or {}
        ndims = _ndims(module, name, fn)
        params = []
        for p in inspect.signature(fn).parameters.values():
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                raise ValueError(f"{module_name}.{name}: parameter {p.name!r} ({p.kind}) "
                                 "cannot be passed by LibreOffice Calc")
            doc = docs.get(p.name, (p.name, None))[0]
            params.append(Param(p.name, doc, ndims.get(p.name),
                                zero_values is not None and p.name not in zero_values,
                                p.default is not p.empty))
        out.append(Function(name, _first_line(fn.__doc__, name), tuple(params)))
    return out
