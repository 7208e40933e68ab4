"""xl_fide.udfs under the REAL classic xlwings decorators, and the VBA Excel would get.

On Linux ``xlwings.func/arg/ret`` are no-ops, so a misspelt ``@arg`` name or an
unsupported signature would only fail on a user's Windows machine. Here a subprocess
puts stub modules for pywin32 (``pythoncom``, ``pywintypes``, ``win32com``,
``win32com.client``) into ``sys.modules``, imports ``xlwings.udfs`` (the Windows
implementation), makes its ``xlfunc/xlarg/xlret`` the public decorators, imports
``xl_fide.udfs`` and runs ``xlwings.udfs.generate_vba_wrapper`` -- the code behind
the ribbon's Import Functions. The stubs live and die with the subprocess.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xl_fide import udfs

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = r'''
import io, json, sys, types

for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["pythoncom"].CoInitialize = lambda: None
sys.modules["pywintypes"].com_error = type("com_error", (Exception,), {})
sys.modules["win32com"].client = sys.modules["win32com.client"]
sys.modules["win32com.client"].Dispatch = lambda *a, **k: None

import xlwings
import xlwings.udfs as xu

xlwings.func, xlwings.arg, xlwings.ret = xu.xlfunc, xu.xlarg, xu.xlret
import xl_fide.udfs as module


class Book:           # generate_vba_wrapper only reads .Name (.xlam -> ActiveWorkbook)
    Name = "fide_event.xlsm"


out = io.StringIO()
xu.generate_vba_wrapper("xl_fide.udfs", module, out, Book())
meta = {}
for name in module.__all__:
    xf = getattr(module, name).__xlfunc__
    meta[name] = {
        "category": xf["category"], "volatile": xf["volatile"],
        "doc": xf["ret"]["doc"],
        "ret_options": {k: repr(v) for k, v in xf["ret"]["options"].items()},
        "args": [{"name": a["name"], "doc": a["doc"], "optional": "optional" in a,
                  "default": repr(a.get("optional")),
                  "options": {k: repr(v) for k, v in a["options"].items()}} for a in xf["args"]],
    }
# a call as call_udf makes it: omitted optional arguments get the Python default
omitted = xu.xlfunc(module.FIDE_EXPECTED).__xlfunc__["args"][2]["optional"]
print(json.dumps({"vba": out.getvalue(), "meta": meta, "omitted": omitted,
                  "expected": module.FIDE_EXPECTED(1892.0, 2022.0)}))
'''

# Words VBA does not accept as parameter names (keywords and statements).
_VBA_RESERVED = {
    "and", "as", "boolean", "byref", "byte", "byval", "call", "case", "const", "currency",
    "date", "debug", "declare", "dim", "do", "double", "each", "else", "elseif", "empty",
    "end", "enum", "eqv", "erase", "error", "event", "exit", "false", "for", "friend",
    "function", "get", "global", "gosub", "goto", "if", "imp", "implements", "in",
    "integer", "is", "let", "lib", "like", "long", "loop", "lset", "me", "mod", "name",
    "new", "next", "not", "nothing", "null", "object", "on", "option", "optional", "or",
    "paramarray", "preserve", "private", "property", "public", "raiseevent", "redim",
    "rem", "resume", "return", "rset", "select", "set", "single", "static", "step",
    "stop", "string", "sub", "then", "to", "true", "type", "typeof", "until", "variant",
    "wend", "while", "with", "xor",
}


@pytest.fixture(scope="module")
def generated():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("XLWINGS_ON_SERVER", None)
    done = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _signature_line(name: str) -> str:
    parts = []
    for p in inspect.signature(getattr(udfs, name)).parameters.values():
        optional = p.default is not inspect.Parameter.empty
        parts.append(("Optional " if optional else "") + p.name)
    return f"Function {name}({', '.join(parts)})"


@pytest.mark.parametrize("name", udfs.__all__)
def test_vba_declares_each_function_with_its_arguments(generated, name):
    vba = generated["vba"]
    assert _signature_line(name) + "\n" in vba
    params = list(inspect.signature(getattr(udfs, name)).parameters)
    array = "Array(" + ", ".join(params) + ")"
    assert (f'{name} = XLPy.CallUDF("xl_fide.udfs", "{name}", {array}, ThisWorkbook, '
            "Application.Caller)") in vba
    assert f"{name} = Err.Description" in vba


def test_vba_has_exactly_our_functions(generated):
    declared = re.findall(r"^Function (\w+)\(", generated["vba"], flags=re.MULTILINE)
    assert sorted(declared) == sorted(udfs.__all__)
    assert "Application.Volatile" not in generated["vba"]


def test_optional_arguments_are_declared_optional(generated):
    vba = generated["vba"]
    assert "Function FIDE_EXPECTED(rating, opponent_rating, Optional method, " \
           "Optional time_control, Optional event_date)" in vba
    assert "Function FIDE_K(rating, Optional birth_year, Optional games, Optional peak_rating, " \
           "Optional period_games, Optional period_year, Optional time_control, " \
           "Optional event_date)" in vba
    assert "Function FIDE_EVENT_SWISS(ratings, k_factors, opponents, results, " \
           "Optional time_control, Optional event_date, Optional notes)" in vba
    assert "Function FIDE_VERSION()" in vba
    # what call_udf puts in for an omitted optional argument: the Python default
    assert generated["omitted"] == "fide"
    assert generated["expected"] == 0.32


@pytest.mark.parametrize("name", udfs.__all__)
def test_metadata_under_classic_decorators(generated, name):
    meta = generated["meta"][name]
    assert meta["category"] == "xl-fide"
    assert meta["volatile"] is False
    assert meta["ret_options"] == {}
    assert "FIDE" in meta["doc"][:255]                   # Excel's wizard keeps 255 characters
    shapes = udfs.NDIM.get(name, {})
    for a in meta["args"]:
        # every argument documented, none left as xlwings' "Positional argument N"
        assert a["doc"] and not a["doc"].startswith("Positional argument"), (name, a["name"])
        assert len(a["doc"]) <= 255
        # no converters from annotations; ndim exactly as NDIM says; error cells arrive
        # as their text ("#N/A"), not as None like a blank (issue 15, #7)
        assert "convert" not in a["options"], (name, a["name"])
        expected = {"ndim": repr(shapes[a["name"]])} if a["name"] in shapes else {}
        expected["err_to_str"] = "True"
        assert a["options"] == expected, (name, a["name"])
        assert a["name"].lower() not in _VBA_RESERVED, (name, a["name"])
    assert set(shapes) <= {a["name"] for a in meta["args"]}
