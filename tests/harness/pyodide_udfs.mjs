// Run xl_fide's UDFs inside Pyodide under Node, called with what Office.js passes to
// xlwings Lite's custom functions: numbers, strings, and ranges as arrays of arrays
// with `null` for empty cells (Pyodide >= 0.28 turns JS null into pyodide.ffi.jsnull).
//
// usage: node pyodide_udfs.mjs PYODIDE_DIR WHEEL CASES.json
//   CASES.json: [[function name, [argument, ...]], ...]  (JSON null = JS null)
// prints one JSON line: {"pyodide": version, "jsnull_type": ..., "results": [...]}
// where each result is {"ok": value} or {"error": message}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [dir, wheel, casesPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + path.sep, stdout: () => {}, stderr: () => {} });
// our pure-Python wheel, from the local file system (no CDN, no micropip)
const site = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: site });
pyodide.runPython(`
import sys, types, json
# xlwings' decorators are no-ops outside Lite and classic Excel; Lite's own argument
# handling (xlwings >= 0.36.7 turns JsNull into None) is what we must not rely on
xw = types.ModuleType("xlwings")
xw.func = xw.arg = xw.ret = xw.script = (
    lambda *a, **k: a[0] if len(a) == 1 and callable(a[0]) and not k else (lambda f: f))
xw.Book = type("Book", (), {})
sys.modules["xlwings"] = xw
import xl_fide.udfs as udfs
from pyodide.ffi import jsnull

def scalar(a):                      # what xlwings' to_scalar does with a 1x1 range
    if isinstance(a, list) and len(a) == 1:
        a = a[0][0] if isinstance(a[0], list) and len(a[0]) == 1 else a[0]
    return a

def call(name, args_js):
    args = [scalar(a) for a in args_js.to_py()]
    try:
        out = getattr(udfs, name)(*args)
        return json.dumps({"ok": out})
    except Exception as e:
        return json.dumps({"error": f"{type(e).__name__}: {e}"})
`);
const call = pyodide.globals.get("call");
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const results = cases.map(([name, args]) => JSON.parse(call(name, args)));
const info = {
  pyodide: pyodide.version,
  jsnull_type: pyodide.runPython("type(jsnull).__name__"),
  null_in_list: pyodide.runPython("type(__import__('js').JSON.parse('[null]').to_py()[0]).__name__"),
  results,
};
console.log(JSON.stringify(info));
