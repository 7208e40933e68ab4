# The UNO component of the xl-fide LibreOffice extension (written by
# `xl-fide libreoffice`). Calc calls the methods below; each serves one FIDE_*
# function of the module named in _CONFIG, imported from pythonpath/ beside this file.
# Runs in LibreOffice's own Python: standard library and pyuno only.
import json
import os
import sys
import threading
import traceback

import unohelper
from com.sun.star.lang import IllegalArgumentException, Locale, XLocalizable, XServiceInfo
from com.sun.star.lang import XServiceName

_CONFIG = json.loads(r'''@@CONFIG@@''')

# LibreOffice's loader appends pythonpath/ to sys.path (and sets __file__): put it
# first, so that an xl_fide installed elsewhere in this Python (pip) cannot shadow ours
try:
    _PYTHONPATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pythonpath")
except NameError:
    _PYTHONPATH = None
if _PYTHONPATH and os.path.isdir(_PYTHONPATH):
    while _PYTHONPATH in sys.path:
        sys.path.remove(_PYTHONPATH)
    sys.path.insert(0, _PYTHONPATH)

_XIface = getattr(__import__(_CONFIG["idl_module"], fromlist=[_CONFIG["interface"]]),
                  _CONFIG["interface"])
_LOG = os.environ.get(_CONFIG["log_env"])
_log_lock = threading.Lock()
_log_file = []


def _log(line):
    if not _LOG:
        return
    with _log_lock:
        if not _log_file:
            _log_file.append(open(_LOG, "a", buffering=1, encoding="utf-8"))
        _log_file[0].write(line + "\n")


def _load():
    """(functions by name, message types) or raise."""
    import importlib
    if sys.version_info < tuple(_CONFIG["python_min"]):
        raise RuntimeError("Python %s or newer is needed (update LibreOffice)"
                           % ".".join(map(str, _CONFIG["python_min"])))
    from xl_fide.libreoffice._xlwings_standin import install
    from xl_fide.libreoffice import _cells
    install()
    module = importlib.import_module(_CONFIG["module"])

    def named(dotted):
        mod, _, name = dotted.rpartition(".")
        return getattr(importlib.import_module(mod), name)

    types = [named(dotted) for dotted in _CONFIG["message_types"]]
    check_shape = named(_CONFIG["check_shape"]) if _CONFIG["check_shape"] else None
    functions = {}
    for f in _CONFIG["functions"]:
        functions[f["name"]] = _cells.Function(f["name"], getattr(module, f["name"]),
                                               f["params"], f["options"], check_shape)
    return _cells, functions, tuple(types)


try:
    _cells, _FUNCTIONS, _MESSAGE_TYPES = _load()
    _IMPORT_ERROR = None
except Exception as _e:      # keep the functions registered: each cell shows why
    _IMPORT_ERROR = "xl-fide cannot start in LibreOffice's Python %s: %s: %s" % (
        sys.version.split()[0], type(_e).__name__, _e)
    traceback.print_exc()


def _call(name, args):
    _log(name)
    if _IMPORT_ERROR:
        _log("!%s\t%s" % (name, _IMPORT_ERROR))
        return ((_IMPORT_ERROR[:255],),)
    try:
        return _cells.call(_FUNCTIONS[name], args, _MESSAGE_TYPES,
                           lambda e: _log("!%s\t%s: %s" % (name, type(e).__name__,
                                                           str(e).replace("\n", " "))))
    except Exception as e:               # not an input error: the cell shows #VALUE!
        msg = "%s: %s" % (type(e).__name__, e)
        _log("!%s\t%s" % (name, msg.replace("\n", " ")))
        traceback.print_exc()
        raise IllegalArgumentException(msg, None, 0)


class FideAddIn(unohelper.Base, _XIface, XServiceName, XServiceInfo, XLocalizable):
    def __init__(self, ctx):
        self.locale = Locale("en", "US", "")

    def getServiceName(self):
        return _CONFIG["service"]

    def getImplementationName(self):
        return _CONFIG["service"]

    def supportsService(self, name):
        return name == "com.sun.star.sheet.AddIn"

    def getSupportedServiceNames(self):
        return ("com.sun.star.sheet.AddIn",)

    def setLocale(self, locale):
        self.locale = locale

    def getLocale(self):
        return self.locale


def _method(name):
    def method(self, *args):
        return _call(name, args)
    method.__name__ = name
    return method


for _f in _CONFIG["functions"]:
    setattr(FideAddIn, _f["idl"], _method(_f["name"]))

g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(FideAddIn, _CONFIG["service"],
                                         ("com.sun.star.sheet.AddIn",))
