"""Build the LibreOffice extension (.oxt) that serves the FIDE_* functions in Calc.

What is inside (a zip, installed with a double click, Tools > Extension Manager or
``unopkg add``)::

    META-INF/manifest.xml   what LibreOffice registers
    description.xml         identifier, version, publisher, licence
    LICENSE.txt             the MIT licence
    XFide.rdb               the compiled type library (shipped in xl_fide, no SDK needed)
    xfide.py                the UNO component: one method per function
    CalcAddIns.xcu          Function Wizard: names, descriptions, arguments
    pythonpath/xl_fide/...  the engine's pure-Python files the functions need

LibreOffice's Python: Linux distributions use the system Python (Debian 12: 3.11);
the Windows and macOS builds bundle their own, built from the tarball named in
LibreOffice core's ``download.lst``: ``PYTHON_TARBALL := Python-3.12.12.tar.xz`` (read
at core commit 00412009b05324d2dfff3bb2a49409620d4ed6a3, the current sources). The
shipped files need 3.11 (``enum.StrEnum``; run on 3.12 and 3.13 too):
tests/functions/test_libreoffice.py checks the minimum with ``vermin`` and calls the functions
on 3.12 from pyenv; an older LibreOffice Python shows why in every FIDE_* cell.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from importlib import resources
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from xl_fide._files import write_atomic
from xl_fide._version import __version__
from xl_fide.errors import ExtensionError
from xl_fide.libreoffice._spec import DEFAULT_MODULE, Function, read_functions

#: the oldest Python the shipped files run on (checked with vermin in the tests)
PYTHON_MIN = (3, 11)
#: what the Windows/macOS builds bundle (LibreOffice core download.lst, see above)
LIBREOFFICE_PYTHON = (3, 12)
IDENTIFIER = "io.github.xl-fide.calc-functions"
PUBLISHER = "xl-fide"
PUBLISHER_URL = "https://pypi.org/project/xl-fide/"
IDL_MODULE = "xlfide"          # the default module's UNO names: xlfide.XFide
INTERFACE = "XFide"
LOG_ENV = "XL_FIDE_LO_CALL_LOG"  # a call log, written only when set (the test harness)
_MESSAGE_TYPES = ["xl_fide.errors.XlFideError"]
#: the cell budget, checked from a range's shape before its cells are read
_CHECK_SHAPE = "xl_fide.udfs.check_shape"
_LANG = 'xml:lang="en-US"'




# ------------------------------------------------------------------ type library

#: an argument's UNO type. Calc marks an argument optional (Function Wizard, "too few
#: arguments") by its type alone: ``any`` is optional, every other type required
#: (LibreOffice sc/source/core/tool/addincol.cxx, ScUnoAddInCollection::ReadFromAddIn
#: and UpdateFromAddIn: ``bOptional = eArgType == SC_ADDINARG_VALUE_OR_ARRAY ||
#: eArgType == SC_ADDINARG_VARARGS``). ``sequence<sequence<any>>`` takes what ``any``
#: takes (a number, a text, a cell, a range, an array), a single value as a 1x1 array
#: (sc/source/core/tool/interpr4.cxx, ScInterpreter::ScExternal, SC_ADDINARG_MIXED_ARRAY).
ARG_OPTIONAL, ARG_REQUIRED = "any", "sequence< sequence< any > >"


def idl_text(functions: list[Function], idl_module: str = IDL_MODULE) -> str:
    """The UNO IDL of the add-in interface: an argument with a Python default ``any``
    (optional: Calc lets it be left out), one without ``sequence<sequence<any>>``
    (required, see :data:`ARG_REQUIRED`); every result ``sequence<sequence<any>>`` (the
    only type from which Calc builds an array; a scalar goes back as a 1x1 array)."""
    lines = ["#include <com/sun/star/uno/XInterface.idl>",
             f"module {idl_module} {{ interface {INTERFACE} : com::sun::star::uno::XInterface {{"]
    for f in functions:
        # UNO identifiers allow no underscore: a0, a1... (the Wizard shows the real names)
        args = ", ".join(f"[in] {ARG_OPTIONAL if p.optional else ARG_REQUIRED} a{i}"
                         for i, p in enumerate(f.params))
        lines.append(f"  sequence< sequence< any > > {_idl_name(f.name)}({args});")
    lines.append("}; };")
    return "\n".join(lines) + "\n"


def _idl_name(excel_name: str) -> str:
    """FIDE_EVENT_SWISS -> fideEventSwiss (the method's UNO name)."""
    words = [w for w in excel_name.lower().split("_") if w]
    return words[0] + "".join(w.title() for w in words[1:])


def _lo_dirs() -> list[Path]:
    out = []
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice:
        out.append(Path(os.path.realpath(soffice)).parent.parent)
    out += [Path("/usr/lib/libreoffice"), Path("/opt/libreoffice"),
            Path("/Applications/LibreOffice.app/Contents"),
            Path(r"C:\Program Files\LibreOffice")]
    return out


def find_unoidl_write() -> tuple[Path, list[Path]] | None:
    """(unoidl-write of the LibreOffice SDK, the type libraries it reads) or None."""
    for d in _lo_dirs():
        for tool in (d / "sdk" / "bin" / "unoidl-write", d / "sdk" / "bin" / "unoidl-write.exe"):
            types = [d / "program" / "types.rdb", d / "program" / "types" / "offapi.rdb"]
            if tool.is_file() and os.access(tool, os.X_OK) and all(t.is_file() for t in types):
                return tool, types
    tool_name = shutil.which("unoidl-write")
    if tool_name:
        d = Path(os.path.realpath(tool_name)).parent.parent
        types = [d / "program" / "types.rdb", d / "program" / "types" / "offapi.rdb"]
        if all(t.is_file() for t in types):
            return Path(tool_name), types
    return None


def compile_rdb(idl: str) -> bytes:
    """The type library for ``idl``, compiled with the SDK's unoidl-write."""
    found = find_unoidl_write()
    if found is None:
        raise ExtensionError("unoidl-write of the LibreOffice SDK not found (Debian: "
                             "apt install libreoffice-dev)")
    tool, types = found
    with tempfile.TemporaryDirectory(prefix="xl_fide_rdb_") as tmp:
        src, out = Path(tmp) / "XFide.idl", Path(tmp) / "XFide.rdb"
        src.write_text(idl, encoding="utf-8")
        r = subprocess.run([str(tool), *map(str, types), str(src), str(out)],
                           capture_output=True, text=True, timeout=120)
        if r.returncode:
            raise ExtensionError(f"unoidl-write failed: {(r.stderr or r.stdout).strip()}")
        return out.read_bytes()


def shipped_rdb() -> tuple[str, bytes]:
    """(IDL, compiled type library) shipped in xl_fide/libreoffice/data."""
    data = resources.files("xl_fide.libreoffice").joinpath("data")
    return (data.joinpath("XFide.idl").read_text(encoding="utf-8"),
            data.joinpath("XFide.rdb").read_bytes())


def _type_library(module_name: str, idl: str) -> bytes:
    if module_name == DEFAULT_MODULE:
        shipped_idl, rdb = shipped_rdb()
        if shipped_idl == idl:
            return rdb
        if find_unoidl_write() is None:
            raise ExtensionError("the shipped type library does not match the functions: "
                                 "run `python -m xl_fide.libreoffice.build_rdb` (needs the "
                                 "LibreOffice SDK)")
    return compile_rdb(idl)


# ------------------------------------------------------------------ the engine's files

def _is_type_checking(node: ast.AST) -> bool:
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING")


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (imports for type checkers only)."""
    out: set[int] = set()
    for t in ast.walk(tree):
        if isinstance(t, ast.If) and _is_type_checking(t):
            out.update(id(n) for b in t.body for n in ast.walk(b))
    return out


def _imported(path: Path, package: str) -> set[str]:
    """Absolute names of the modules ``path`` imports (not under ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def _origin(name: str, root: Path) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    origin = Path(spec.origin).resolve()
    return origin if origin.is_relative_to(root) else None


def engine_files(start: list[str]) -> dict[str, Path]:
    """{path inside pythonpath/: source file} of the modules in ``start``, their parent
    packages and every module of the same source tree they import, transitively."""
    files: dict[str, Path] = {}
    todo = list(start)
    roots = {}
    for name in start:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            raise ExtensionError(f"cannot find module {name}")
        root = Path(spec.origin).resolve()
        for _ in name.split("."):
            root = root.parent
        roots[name.split(".")[0]] = root
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        top = name.split(".")[0]
        if name in seen or top not in roots:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]   # parent packages
        origin = _origin(name, roots[top])
        if origin is None:
            continue
        files[origin.relative_to(roots[top]).as_posix()] = origin
        package = name if origin.name == "__init__.py" else name.rpartition(".")[0]
        todo += sorted(_imported(origin, package))
    return dict(sorted(files.items()))


# ------------------------------------------------------------------ the texts

def _xcu(functions: list[Function], service: str) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<oor:component-data '
           'xmlns:oor="http://openoffice.org/2001/registry" '
           'xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:name="CalcAddIns" '
           'oor:package="org.openoffice.Office">\n<node oor:name="AddInInfo">\n'
           f'<node oor:name={quoteattr(service)} oor:op="replace">\n'
           '<node oor:name="AddInFunctions">\n']
    for f in functions:
        out.append(
            f'<node oor:name="{_idl_name(f.name)}" oor:op="replace">'
            f'<prop oor:name="DisplayName"><value {_LANG}>{f.name}</value></prop>'
            f'<prop oor:name="Description"><value {_LANG}>{escape(f.summary)}</value></prop>'
            '<prop oor:name="Category"><value>Add-In</value></prop>'
            f'<prop oor:name="CompatibilityName"><value {_LANG}>{f.name}</value></prop>'
            '<node oor:name="Parameters">')
        for i, p in enumerate(f.params):
            out.append(
                f'<node oor:name="a{i}" oor:op="replace">'
                f'<prop oor:name="DisplayName"><value {_LANG}>{escape(p.name)}</value></prop>'
                f'<prop oor:name="Description"><value {_LANG}>{escape(p.doc)}</value></prop>'
                '</node>')
        out.append('</node></node>\n')
    out.append('</node>\n</node>\n</node>\n</oor:component-data>\n')
    return "".join(out)


def _description(identifier: str, name: str) -> str:
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<description xmlns="http://openoffice.org/extensions/description/2006"
    xmlns:d="http://openoffice.org/extensions/description/2006"
    xmlns:xlink="http://www.w3.org/1999/xlink">
  <identifier value={quoteattr(identifier)}/>
  <version value={quoteattr(__version__)}/>
  <display-name><name lang="en">{escape(name)}</name></display-name>
  <publisher><name xlink:href={quoteattr(PUBLISHER_URL)} lang="en">{PUBLISHER}</name></publisher>
  <registration>
    <simple-license accept-by="user" suppress-on-update="true" suppress-if-required="true">
      <license-text xlink:href="LICENSE.txt" lang="en"/>
    </simple-license>
  </registration>
  <extension-description><src xlink:href="description-en.txt" lang="en"/></extension-description>
</description>
'''


_ABOUT = """FIDE rating functions for LibreOffice Calc (FIDE Handbook B.02 Rating Regulations):
{names}. The same functions, arguments and results as the xl-fide Excel functions;
open a workbook written by `xl-fide crosstable` and press Ctrl+Shift+F9 to recalculate.
xl-fide {version}.
"""

_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">
 <manifest:file-entry manifest:media-type="application/vnd.sun.star.uno-typelibrary;type=RDB"
   manifest:full-path="XFide.rdb"/>
 <manifest:file-entry manifest:media-type="application/vnd.sun.star.uno-component;type=Python"
   manifest:full-path="xfide.py"/>
 <manifest:file-entry manifest:media-type="application/vnd.sun.star.configuration-data"
   manifest:full-path="CalcAddIns.xcu"/>
</manifest:manifest>
"""


def _licence() -> str:
    return resources.files("xl_fide.libreoffice").joinpath("data", "LICENSE.txt").read_text(
        encoding="utf-8")


# ------------------------------------------------------------------ the extension

def build_extension(out: str | os.PathLike, module_name: str = DEFAULT_MODULE, *,
                    force: bool = True) -> list[str]:
    """Write the extension ``out`` (.oxt) serving every FIDE_* (UPPER_CASE) function of
    ``module_name`` under its own name; return those names.

    The default module uses the type library shipped in xl_fide (no SDK needed); any
    other module (tests) needs the SDK's unoidl-write. ``out`` is written whole or not
    at all, with the mode of any new file (umask), over an existing file only with
    ``force`` (:func:`xl_fide._files.write_atomic`). Raises :class:`ExtensionError`;
    :class:`~xl_fide._files.OutputError` when ``out`` cannot be written."""
    functions = read_functions(module_name)
    if not functions:
        raise ExtensionError(f"{module_name} has no UPPER_CASE functions")
    if module_name == DEFAULT_MODULE:
        idl_module, identifier, title = IDL_MODULE, IDENTIFIER, "xl-fide: FIDE rating functions"
    else:   # several test extensions can live in one profile
        tag = hashlib.sha1(module_name.encode()).hexdigest()[:10]
        idl_module, identifier, title = f"udf{tag}", f"{IDENTIFIER}.test{tag}", module_name
    idl = idl_text(functions, idl_module)
    rdb = _type_library(module_name, idl)
    service = f"{idl_module}.FideAddIn"
    config = {
        "module": module_name, "idl_module": idl_module, "interface": INTERFACE,
        "service": service, "log_env": LOG_ENV, "python_min": list(PYTHON_MIN),
        "message_types": _MESSAGE_TYPES if module_name == DEFAULT_MODULE else [],
        "check_shape": _CHECK_SHAPE if module_name == DEFAULT_MODULE else None,
        "functions": [{"name": f.name, "idl": _idl_name(f.name),
                       "params": [p.name for p in f.params],
                       "options": {p.name: {"ndim": p.ndim, "zero_is_blank": p.zero_is_blank,
                                            "array": not p.optional}
                                   for p in f.params}} for f in functions],
    }
    component = resources.files("xl_fide.libreoffice").joinpath("data", "component.py") \
        .read_text(encoding="utf-8").replace("@@CONFIG@@", json.dumps(config, ensure_ascii=True))
    compile(component, "xfide.py", "exec")
    files = engine_files([module_name, "xl_fide.libreoffice._cells",
                          "xl_fide.libreoffice._xlwings_standin", "xl_fide.errors"])
    about = _ABOUT.format(names=", ".join(f.name for f in functions), version=__version__)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("META-INF/manifest.xml", _MANIFEST)
        z.writestr("description.xml", _description(identifier, title))
        z.writestr("description-en.txt", about)
        z.writestr("LICENSE.txt", _licence())
        z.writestr("XFide.rdb", rdb)
        z.writestr("xfide.py", component)
        z.writestr("CalcAddIns.xcu", _xcu(functions, service))
        for rel, src in files.items():
            z.write(src, f"pythonpath/{rel}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, buffer.getvalue(), force=force)
    return [f.name for f in functions]
