"""Headless LibreOffice Calc harness: recalculate workbooks whose formulas call our
xlwings UDFs (``=FIDE_EXPECTED(C2,D2)``), served by the real Python functions.

How it works
------------
* :func:`build_addin` writes the product's LibreOffice extension with the product's
  own builder (:func:`xl_fide.libreoffice.build_extension`, what ``xl-fide libreoffice``
  runs) for any module with UPPER_CASE functions (default ``xl_fide.udfs``; the tests
  of this harness use ``tests/harness/fake_udfs.py``).  Argument shapes, blanks,
  omitted arguments and results are converted by ``xl_fide/libreoffice/_cells.py``
  (see there); each function's ``CompatibilityName`` is the Excel name, so ``.xlsx``
  formulas find it.  Errors of ``xl_fide.errors`` show their message in the cell (as
  classic Excel shows it); any other exception gives ``#VALUE!``.
* :class:`Office` starts ``soffice --headless`` with a throw-away profile in its
  own process group, installs the ``.oxt`` through the ExtensionManager API
  (``unopkg add`` refuses to run as root), and :meth:`Office.recalc` loads a
  private copy of a workbook, runs ``calculateAll()`` and stores it as ``.xlsx``.
  Read the values back with ``openpyxl.load_workbook(dst, data_only=True)``.
  :meth:`Office.to_pdf` renders a (recalculated) workbook to PDF.
  ``Office(None, profile=DIR)`` runs on a profile :func:`unopkg` installed into, as a
  user would (as root, unopkg runs as ``nobody``).
* Every UDF call made inside soffice is appended to a call log;
  :meth:`Office.recalc` returns the per-function counts of the calls it caused
  (``RecalcResult.calls``) and the messages of any errors (``.errors``).

Blank single cells: Calc hands an add-in ``0.0`` for a blank cell given alone.  The
extension reads that 0 as blank where 0 is never valid (see ``_cells``).  For the
other arguments, :meth:`Office.recalc` rewrites, in its private copy only, every UDF
argument that is a bare single-cell reference ``A1`` into
``IF(ISBLANK(A1),<sentinel>,A1)`` (:func:`mark_blank_arguments`, with openpyxl) and the
extension turns the sentinel into ``None``, as xlwings passes a blank.
``recalc(..., xlwings_blanks=False)`` opens the workbook as a user would.

Known differences from Excel/xlwings that remain:
* TRUE/FALSE arrive as 1.0/0.0 and a returned ``True`` shows as 1 (Calc has no
  boolean type); dates arrive as serial numbers; an empty text ``=""`` inside a range
  reads as ``None``.
* An error value in an argument makes Calc return that error without calling
  the function (xlwings classic calls it with the error's text).
* Dynamic arrays do not spill: write array UDFs as legacy ``ArrayFormula``.
* The UDF module is imported once per soffice process: edits need a new Office.
* Files without cached values (openpyxl's) are computed once while loading and
  again by ``calculateAll()``: ``RecalcResult.calls`` counts the latter only.

UNO: Debian's ``python3-uno`` is built for Debian's /usr/bin/python3 (3.11).  If
``import uno`` works in this interpreter (any CPython 3.11 with
/usr/lib/python3/dist-packages appended to sys.path) UNO is driven in-process;
otherwise (e.g. a 3.12 venv) :class:`Office` transparently drives soffice from a
``/usr/bin/python3`` worker subprocess running this file.  Force one with
``LO_CALC_BACKEND=inprocess|subprocess``.

apt (Debian 12: from bookworm-backports, LibreOffice >= 24.8):
    libreoffice-calc-nogui python3-uno libreoffice-dev poppler-utils
"""
from __future__ import annotations

import atexit
import collections
import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zipfile

DIST_PACKAGES = "/usr/lib/python3/dist-packages"  # Debian's python3-uno
SYSTEM_PYTHON = "/usr/bin/python3"
try:
    from xl_fide.libreoffice._build import LOG_ENV as CALL_LOG_ENV  # the add-in's call log
    from xl_fide.libreoffice._cells import BLANK as BLANK_SENTINEL  # stands for a blank cell
except ImportError:   # the --worker subprocess (system python, no xl_fide): drives soffice only
    CALL_LOG_ENV, BLANK_SENTINEL = "XL_FIDE_LO_CALL_LOG", None

__all__ = ["build_addin", "Office", "RecalcResult", "missing_requirements",
           "uno_importable", "soffice_path", "mark_blank_arguments", "error_cells",
           "unopkg", "CALL_LOG_ENV", "BLANK_SENTINEL"]


# ----------------------------------------------------------------------------- locate

def soffice_path():
    """Path of the soffice launcher, or None."""
    p = shutil.which("soffice") or shutil.which("libreoffice")
    if p:
        return p
    for cand in ("/usr/lib/libreoffice/program/soffice", "/opt/libreoffice/program/soffice"):
        if os.access(cand, os.X_OK):
            return cand
    return None


def _lo_dir():
    """LibreOffice installation dir (the one holding program/ and sdk/)."""
    s = soffice_path()
    if s:
        d = os.path.dirname(os.path.dirname(os.path.realpath(s)))
        if os.path.isdir(os.path.join(d, "program")):
            return d
    return "/usr/lib/libreoffice"


def _unoidl_write():
    for cand in (os.path.join(_lo_dir(), "sdk", "bin", "unoidl-write"),
                 shutil.which("unoidl-write") or ""):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def _ensure_uno_path():
    if DIST_PACKAGES not in sys.path and os.path.isdir(DIST_PACKAGES):
        sys.path.append(DIST_PACKAGES)


_UNO_OK = None


def uno_importable():
    """True if `import uno` works in this interpreter (dist-packages appended)."""
    global _UNO_OK
    if _UNO_OK is None:
        _ensure_uno_path()
        try:
            import uno  # noqa: F401
            import unohelper  # noqa: F401
            _UNO_OK = True
        except Exception:
            _UNO_OK = False
    return _UNO_OK


def _backend():
    forced = os.environ.get("LO_CALC_BACKEND", "").strip().lower()
    if forced in ("inprocess", "subprocess"):
        return forced
    return "inprocess" if uno_importable() else "subprocess"


def missing_requirements():
    """List of what is missing to run the harness (empty list = ready)."""
    missing = []
    if not soffice_path():
        missing.append("soffice (apt: libreoffice-calc-nogui)")
    if not _unoidl_write():
        missing.append("unoidl-write (apt: libreoffice-dev)")
    if not uno_importable():
        ok = False
        if os.access(SYSTEM_PYTHON, os.X_OK):
            r = subprocess.run([SYSTEM_PYTHON, "-c", "import uno, unohelper"],
                               capture_output=True)
            ok = r.returncode == 0
        if not ok:
            missing.append("python3-uno (apt: python3-uno)")
    return missing


# ----------------------------------------------------------------------------- add-in

def build_addin(module_name="xl_fide.udfs", out_oxt="udf_addin.oxt"):
    """Write the Calc extension ``out_oxt`` serving every UPPER_CASE function of
    ``module_name`` with the product's own builder (:func:`xl_fide.libreoffice.build_extension`,
    what ``xl-fide libreoffice`` runs). Returns the list of Excel function names."""
    from xl_fide.libreoffice import build_extension

    return build_extension(out_oxt, module_name)


# ----------------------------------------------------------------------------- blanks

_CELL_REF = re.compile(r"^(?:(?:'(?:[^']|'')+'|[^'!]+)!)?\$?[A-Za-z]{1,3}\$?[0-9]+$")


def mark_blank_arguments(formula, udf_names):
    """Rewrite every argument of a UDF call that is a bare single-cell reference,
    ``FIDE_X(A1)`` -> ``FIDE_X(IF(ISBLANK(A1),"<BLANK_SENTINEL>",A1))``, so that the add-in
    can pass ``None`` for a blank cell as xlwings does (Calc itself passes 0.0).
    Other arguments (ranges, expressions, literals, names) are left alone."""
    from openpyxl.formula import Tokenizer

    if not isinstance(formula, str) or not formula.startswith("="):
        return formula
    names = {n.upper() for n in udf_names}
    if not any(n in formula.upper() for n in names):
        return formula
    try:
        items = Tokenizer(formula).items
    except Exception:                          # let LibreOffice report what it makes of it
        return formula
    out = [t.value for t in items]
    stack = []                                 # frames: [is_udf, token indexes of the arg]

    def finish(frame):
        if frame[0]:
            idx = [i for i in frame[1] if items[i].type != "WHITE-SPACE"]
            if len(idx) == 1:
                t = items[idx[0]]
                if t.type == "OPERAND" and t.subtype == "RANGE" and _CELL_REF.match(t.value):
                    out[idx[0]] = f'IF(ISBLANK({t.value}),"{BLANK_SENTINEL}",{t.value})'
        frame[1] = []

    for i, t in enumerate(items):
        opening = t.subtype == "OPEN" and t.type in ("FUNC", "PAREN", "ARRAY")
        closing = t.subtype == "CLOSE" and t.type in ("FUNC", "PAREN", "ARRAY")
        if opening:
            if stack:
                stack[-1][1].append(i)
            name = t.value[:-1].upper() if t.type == "FUNC" else ""
            stack.append([name in names, []])
        elif closing and stack:
            finish(stack.pop())
            if stack:
                stack[-1][1].append(i)
        elif t.type == "SEP" and t.subtype == "ARG" and stack:
            finish(stack[-1])
        elif stack:
            stack[-1][1].append(i)
    return "=" + "".join(out)


def _rewrite_blanks(path, udf_names):
    """Apply :func:`mark_blank_arguments` to every formula of the workbook at ``path``
    (in place).  Returns the number of formulas changed (0: file left untouched)."""
    from openpyxl import load_workbook
    from openpyxl.worksheet.formula import ArrayFormula

    keep_vba = path.lower().endswith((".xlsm", ".xltm"))
    wb = load_workbook(path, keep_vba=keep_vba, keep_links=True)
    changed = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if isinstance(v, ArrayFormula):
                    new = mark_blank_arguments(v.text, udf_names)
                    if new != v.text:
                        v.text = new
                        changed += 1
                elif c.data_type == "f" and isinstance(v, str):
                    new = mark_blank_arguments(v, udf_names)
                    if new != v:
                        c.value = new
                        changed += 1
    if changed:
        wb.save(path)
    return changed


# ----------------------------------------------------------------------------- office

@dataclasses.dataclass
class RecalcResult:
    """What one :meth:`Office.recalc` did.

    ``calls``: UDF calls per Excel function name made by ``calculateAll()``, i.e. by
    one full recalculation (an array formula counts once, a nested call twice);
    ``load_calls``: calls made while loading (LibreOffice computes formulas that have
    no cached value, e.g. every formula of a file written by openpyxl);
    ``errors``: "FUNC: ExcType: message" for each exception a UDF raised (-> #VALUE!)."""
    src: str
    dst: str
    calls: collections.Counter
    load_calls: collections.Counter
    errors: list
    seconds: float
    calc_seconds: float

    @property
    def total_calls(self):
        """Number of UDF calls made by the full recalculation (calculateAll)."""
        return sum(self.calls.values())

    def to_json(self):
        d = dataclasses.asdict(self)
        d["calls"], d["load_calls"] = dict(self.calls), dict(self.load_calls)
        return d

    @classmethod
    def from_json(cls, d):
        d = dict(d)
        d["calls"] = collections.Counter(d["calls"])
        d["load_calls"] = collections.Counter(d["load_calls"])
        return cls(**d)


# profile settings: never recalc on load (calculateAll does it), no macros
_REGISTRY = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" \
xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" \
oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" \
oor:op="fuse"><value>1</value></prop></item>
</oor:items>
"""


def _add_registry_items(path):
    """Write :data:`_REGISTRY`'s settings into a profile's registrymodifications.xcu
    (created, or its items added to those already there)."""
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(_REGISTRY)
        return
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    items = _REGISTRY[_REGISTRY.index("<item"):_REGISTRY.index("</oor:items>")]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace("</oor:items>", items + "</oor:items>"))


def unopkg(*args, profile, timeout=180):
    """Run LibreOffice's ``unopkg`` (``add``, ``remove``, ``list``...) on the user
    profile ``profile``, as a user would. unopkg refuses to run as root: then it runs
    as the unprivileged ``nobody`` (uid 65534) and the profile is given to that user.
    Returns the CompletedProcess (text). As root, ``profile``'s parent directory must
    be reachable by that user (e.g. made by ``tempfile.mkdtemp()``); file arguments are
    copied into it."""
    tool = os.path.join(_lo_dir(), "program", "unopkg")
    if not os.access(tool, os.X_OK):
        tool = shutil.which("unopkg")
    profile = os.path.abspath(profile)
    home = os.path.dirname(profile)
    env = _soffice_env(HOME=home)
    if os.geteuid() == 0:
        copied = []
        for a in args:                      # the .oxt must be readable by that user
            if os.path.isfile(a) and os.path.dirname(os.path.abspath(a)) != home:
                dst = os.path.join(home, os.path.basename(a))
                shutil.copyfile(a, dst)
                a = dst
            copied.append(a)
        args = tuple(copied)
        os.makedirs(profile, exist_ok=True)
        for root, dirs, files in os.walk(home):
            for n in [".", *dirs, *files]:
                os.chown(os.path.join(root, n), 65534, 65534)
    cmd = [tool, *args, "-env:UserInstallation=file://" + profile]
    cwd = None
    if os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
        # unopkg's script starts with `cd` to its working directory: the checkout may sit
        # in a folder only root can enter (`mktemp -d` makes it 0700), so that user works
        # in the profile's parent, which is his
        cwd = home
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL, cwd=cwd)


def _soffice_env(**extra):
    """Environment for soffice.  Its embedded Python (Debian's libpython3.11) finds its
    stdlib by looking up `python3` on PATH: with a pyenv/venv/conda python3 first on
    PATH it loads a *foreign* stdlib and add-in installation dies (std::bad_alloc).
    So: the system python's directory goes first, and no PYTHON*/VIRTUAL_ENV leaks in."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("PYTHON") or k in ("VIRTUAL_ENV", "CONDA_PREFIX",
                                                   "PYENV_VERSION", "PYENV_DIR"))}
    sysbin = os.path.dirname(SYSTEM_PYTHON)
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != sysbin]
    env["PATH"] = os.pathsep.join([sysbin, *path])
    env["SAL_USE_VCLPLUGIN"] = "svp"
    env.update(extra)
    return env


def error_cells(path):
    """[(sheet, coordinate, value)] of every error cell (``#NAME?``, ``#VALUE!``...) of
    a recalculated workbook.  ``#NAME?`` means a function was not found."""
    from openpyxl import load_workbook

    wb = load_workbook(path, data_only=True)
    return [(ws.title, c.coordinate, c.value) for ws in wb.worksheets
            for row in ws.iter_rows() for c in row if c.data_type == "e"]


def _oxt_udf_names(oxt):
    """The Excel names an extension serves (its CompatibilityName entries)."""
    with zipfile.ZipFile(oxt) as z:
        xcu = z.read("CalcAddIns.xcu").decode("utf-8")
    return re.findall(r'oor:name="CompatibilityName"><value [^>]*>([^<]+)</value>', xcu)


class Office:
    """Headless soffice with a throw-away profile and our add-in(s) installed.

    >>> with Office("udfs.oxt") as office:
    ...     res = office.recalc("book.xlsx", "out.xlsx")   # -> RecalcResult
    ...     office.to_pdf("book.xlsx", "book.pdf")

    Drives UNO in this process when ``import uno`` works here, else through a
    ``/usr/bin/python3`` worker subprocess (same API; ``LO_CALC_BACKEND`` forces one).
    ``xlwings_blanks`` (default True): UDF arguments that are bare single-cell
    references are wrapped in ``IF(ISBLANK(ref),<sentinel>,ref)`` in the private copy,
    so a blank cell reaches the UDF as ``None`` as with xlwings; False: Calc's raw 0.0."""

    backend = "inprocess"

    def __new__(cls, *a, **k):
        if cls is Office and _backend() == "subprocess":
            return object.__new__(_WorkerOffice)
        return object.__new__(cls)

    def __init__(self, oxt=None, *, start_timeout=60.0, call_timeout=300.0, profile=None):
        """``profile``: an existing user profile directory (e.g. one ``unopkg add``
        installed an extension into) to run with; kept on close. Default: a fresh one."""
        self.udf_names = set()
        self.given_profile = os.path.abspath(profile) if profile else None
        self.call_timeout = call_timeout
        self._closed = False
        self.proc = None
        self.tmp = tempfile.mkdtemp(prefix="lo_office_")
        atexit.register(self.close)          # no soffice left behind by a crashed run
        try:
            self._start(start_timeout)
            if oxt:
                self.install(oxt)
        except BaseException:
            self.close()
            raise

    # -- public API (driver side, backend independent)
    def function_descriptions(self, prefix="FIDE_"):
        """What Calc's Function Wizard shows for the functions whose name starts with
        ``prefix``: {name: {"description": ..., "arguments": [[name, description,
        optional], ...]}} (service com.sun.star.sheet.FunctionDescriptions)."""
        return self._function_descriptions(prefix)

    def install(self, oxt):
        """Install an add-in (.oxt from :func:`build_addin`) into the profile."""
        names = _oxt_udf_names(oxt)
        self._install(os.path.abspath(oxt))
        self.udf_names.update(names)

    def recalc(self, src, dst, *, xlwings_blanks=True, timeout=None):
        """Load a private copy of ``src``, ``calculateAll()``, store it as .xlsx at ``dst``
        (read it with ``openpyxl.load_workbook(dst, data_only=True)``)."""
        copy, tmp = self._private_copy(src, xlwings_blanks)
        try:
            res = self._recalc(copy, os.path.abspath(dst), timeout or self.call_timeout)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        res.src, res.dst = str(src), str(dst)
        return res

    def to_pdf(self, src, dst_pdf, *, sheet=None, fit_width=True, xlwings_blanks=True,
               timeout=None):
        """Recalculate a private copy of ``src`` and export it to PDF: only ``sheet`` if
        given; every sheet scaled to one page wide if ``fit_width``."""
        copy, tmp = self._private_copy(src, xlwings_blanks)
        try:
            self._to_pdf(copy, os.path.abspath(dst_pdf), sheet, fit_width,
                         timeout or self.call_timeout)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return str(dst_pdf)

    def close(self):
        """Terminate soffice, kill its process group, delete the profile (idempotent)."""
        if getattr(self, "_shut", False):
            return
        self._shut = True
        atexit.unregister(self.close)
        if self.proc is not None and not self._closed:
            self._stop()
        self._closed = True
        self._kill()
        self._reap()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _stop(self):
        """Ask soffice to end and wait for it a while (the process is still there)."""
        try:
            if self.proc.poll() is None:
                self.desktop.terminate()
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass

    def _reap(self):
        """Wait for the killed process group's leader (no zombie left)."""
        if self.proc is not None:
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- driver-side helpers
    def _private_copy(self, src, xlwings_blanks):
        """Copy src into a fresh directory (the original is never touched and a stale
        .~lock file next to it cannot make the load fail); mark blank arguments."""
        if not os.path.isfile(src):
            raise FileNotFoundError(src)
        tmp = tempfile.mkdtemp(prefix="lo_copy_")
        copy = os.path.join(tmp, os.path.basename(src))
        shutil.copyfile(src, copy)
        if xlwings_blanks and self.udf_names and copy.lower().endswith(
                (".xlsx", ".xlsm", ".xltx", ".xltm")):
            _rewrite_blanks(copy, self.udf_names)
        return copy, tmp

    def _kill(self):
        if self.proc is not None:
            try:                              # oosplash may have restarted soffice.bin
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    # -- in-process UNO backend
    def _start(self, start_timeout):
        _ensure_uno_path()
        import uno
        from com.sun.star.connection import NoConnectException

        self.profile = self.given_profile or os.path.join(self.tmp, "profile")
        os.makedirs(os.path.join(self.profile, "user"), exist_ok=True)
        _add_registry_items(os.path.join(self.profile, "user", "registrymodifications.xcu"))
        self.call_log = os.path.join(self.tmp, "udf_calls.log")
        open(self.call_log, "w").close()
        self.soffice_log = os.path.join(self.tmp, "soffice.log")
        soffice = soffice_path()
        if not soffice:
            raise RuntimeError("soffice not found (apt: libreoffice-calc-nogui)")
        pipe = "lo" + uuid.uuid4().hex
        with open(self.soffice_log, "wb") as log:
            self.proc = subprocess.Popen(
                [soffice, f"-env:UserInstallation={uno.systemPathToFileUrl(self.profile)}",
                 "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
                 "--nolockcheck", f"--accept=pipe,name={pipe};urp;"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=_soffice_env(**{CALL_LOG_ENV: self.call_log}),
                start_new_session=True)   # own process group: close() kills it all
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local)
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                self.ctx = resolver.resolve(
                    f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except NoConnectException:
                if self.proc.poll() is not None and self.proc.returncode != 0:
                    raise RuntimeError(f"soffice exited with {self.proc.returncode}: "
                                       f"{self._log_tail()}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"soffice did not start in {start_timeout}s: "
                                       f"{self._log_tail()}")
                time.sleep(0.05)
        self.desktop = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", self.ctx)

    def _log_tail(self, n=2000):
        try:
            with open(self.soffice_log, "rb") as fh:
                return fh.read()[-n:].decode(errors="replace")
        except OSError:
            return ""

    class _Watchdog:
        """Kill soffice if a UNO call hangs (the call then fails with DisposedException)."""

        def __init__(self, office, seconds, what):
            self.office, self.seconds, self.what = office, seconds, what
            self.fired = False

        def _fire(self):
            self.fired = True
            self.office._kill()

        def __enter__(self):
            self.office._check()
            self.t = threading.Timer(self.seconds, self._fire)
            self.t.daemon = True
            self.t.start()
            return self

        def __exit__(self, et, ev, tb):
            self.t.cancel()
            if self.fired:
                self.office._closed = True
                raise TimeoutError(f"soffice: {self.what} took more than {self.seconds}s; "
                                   "soffice was killed")
            return False

    @staticmethod
    def _props(**kw):
        from com.sun.star.beans import PropertyValue
        out = []
        for k, v in kw.items():
            p = PropertyValue()
            p.Name, p.Value = k, v
            out.append(p)
        return tuple(out)

    def _check(self):
        if self._closed:
            raise RuntimeError("Office is closed")
        if self.proc.poll() is not None:
            raise RuntimeError(f"soffice died (exit {self.proc.returncode}): {self._log_tail()}")

    def _install(self, oxt):
        import uno
        import unohelper
        from com.sun.star.task import XInteractionHandler
        from com.sun.star.ucb import XCommandEnvironment, XProgressHandler

        class _Approve(unohelper.Base, XCommandEnvironment, XInteractionHandler,
                       XProgressHandler):
            """addExtension asks a question while installing: pick the first continuation."""
            def getInteractionHandler(self):
                return self

            def getProgressHandler(self):
                return self

            def handle(self, request):
                request.getContinuations()[0].select()

            def push(self, status):
                pass

            def update(self, status):
                pass

            def pop(self):
                pass

        with self._Watchdog(self, self.call_timeout, f"installing {oxt}"):
            em = self.ctx.getValueByName(
                "/singletons/com.sun.star.deployment.ExtensionManager")
            em.addExtension(uno.systemPathToFileUrl(oxt), (), "user", None, _Approve())

    def _function_descriptions(self, prefix):
        with self._Watchdog(self, self.call_timeout, "reading the function descriptions"):
            fd = self.ctx.ServiceManager.createInstanceWithContext(
                "com.sun.star.sheet.FunctionDescriptions", self.ctx)
            out = {}
            for i in range(fd.getCount()):
                props = {p.Name: p.Value for p in fd.getByIndex(i)}
                if str(props.get("Name", "")).startswith(prefix):
                    out[props["Name"]] = {
                        "description": props.get("Description", ""),
                        "arguments": [[a.Name, a.Description, bool(a.IsOptional)]
                                      for a in props.get("Arguments") or ()]}
            return out

    def _open(self, path):
        import uno
        doc = self.desktop.loadComponentFromURL(
            uno.systemPathToFileUrl(path), "_blank", 0,
            self._props(Hidden=True, MacroExecutionMode=0))   # NEVER_EXECUTE
        if doc is None:
            raise RuntimeError(f"LibreOffice could not load {path}")
        return doc

    def _calls_between(self, a, b):
        calls, errors = collections.Counter(), []
        with open(self.call_log, "rb") as fh:
            fh.seek(a)
            chunk = fh.read(b - a).decode("utf-8", errors="replace")
        for line in chunk.splitlines():
            if line.startswith("!"):
                name, _, msg = line[1:].partition("\t")
                errors.append(f"{name}: {msg}")
            elif line:
                calls[line] += 1
        return calls, errors

    def _recalc(self, path, dst, timeout):
        import uno
        t0 = time.perf_counter()
        size = lambda: os.path.getsize(self.call_log)  # noqa: E731
        with self._Watchdog(self, timeout, f"recalc of {path}"):
            off0 = size()
            doc = self._open(path)
            try:
                off1 = size()
                t1 = time.perf_counter()
                doc.calculateAll()      # hard recalc: never trust cached values in the file
                t2 = time.perf_counter()
                off2 = size()
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                flt = ("Calc MS Excel 2007 VBA XML" if dst.lower().endswith(".xlsm")
                       else "Calc MS Excel 2007 XML")
                doc.storeToURL(uno.systemPathToFileUrl(dst),
                               self._props(FilterName=flt, Overwrite=True))
            finally:
                doc.close(True)
        load_calls, e0 = self._calls_between(off0, off1)
        calls, e1 = self._calls_between(off1, off2)
        _, e2 = self._calls_between(off2, size())
        return RecalcResult(src=path, dst=dst, calls=calls, load_calls=load_calls,
                            errors=e0 + e1 + e2, seconds=time.perf_counter() - t0,
                            calc_seconds=t2 - t1)

    def _to_pdf(self, path, dst_pdf, sheet, fit_width, timeout):
        import uno
        with self._Watchdog(self, timeout, f"PDF export of {path}"):
            doc = self._open(path)
            try:
                doc.calculateAll()
                sheets = doc.Sheets
                names = list(sheets.ElementNames)
                if sheet is not None:
                    if sheet not in names:
                        raise KeyError(f"no sheet {sheet!r} (sheets: {names})")
                    sheets.getByName(sheet).IsVisible = True
                    for n in names:       # hidden sheets are not exported...
                        if n != sheet:
                            other = sheets.getByName(n)
                            other.IsVisible = False
                            other.setPrintAreas(())   # ...but a hidden print range is
                            # (LibreOffice exports the print area of a hidden sheet)
                if fit_width:
                    styles = doc.StyleFamilies.getByName("PageStyles")
                    for n in names:
                        ps = styles.getByName(sheets.getByName(n).PageStyle)
                        ps.ScaleToPagesX, ps.ScaleToPagesY = 1, 0
                os.makedirs(os.path.dirname(dst_pdf), exist_ok=True)
                doc.storeToURL(uno.systemPathToFileUrl(dst_pdf),
                               self._props(FilterName="calc_pdf_Export", Overwrite=True))
            finally:
                doc.close(True)


# ----------------------------------------------------------------------------- worker
# When this interpreter cannot import uno (e.g. a Python 3.12 venv), Office() returns
# this proxy: it runs `/usr/bin/python3 lo_calc.py --worker` (stdlib + uno only) and
# forwards the backend calls as JSON lines.  Blank marking stays on the driver side.

class _WorkerOffice(Office):
    backend = "subprocess"

    def _start(self, start_timeout):
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            [SYSTEM_PYTHON, os.path.abspath(__file__), "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            env=_soffice_env(), start_new_session=True)
        self._rpc("start", start_timeout=start_timeout, call_timeout=self.call_timeout,
                  profile=self.given_profile)

    def _rpc(self, op, **kw):
        if self._closed:
            raise RuntimeError("Office is closed")
        with self._lock:
            try:
                self.proc.stdin.write(json.dumps({"op": op, "kw": kw}) + "\n")
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"lo_calc worker died (exit {self.proc.poll()})")
        msg = json.loads(line)
        if not msg["ok"]:
            exc = {"TimeoutError": TimeoutError, "KeyError": KeyError,
                   "FileNotFoundError": FileNotFoundError}.get(msg["type"], RuntimeError)
            raise exc(msg["error"])
        return msg["result"]

    def _install(self, oxt):
        self._rpc("install", oxt=oxt)

    def _function_descriptions(self, prefix):
        return self._rpc("function_descriptions", prefix=prefix)

    def _recalc(self, path, dst, timeout):
        return RecalcResult.from_json(self._rpc("recalc", path=path, dst=dst, timeout=timeout))

    def _to_pdf(self, path, dst_pdf, sheet, fit_width, timeout):
        self._rpc("to_pdf", path=path, dst_pdf=dst_pdf, sheet=sheet, fit_width=fit_width,
                  timeout=timeout)

    def _stop(self):
        """Ask the worker to close its office, then to end (stdin closed)."""
        try:
            self._rpc("close")
        except Exception:
            pass
        try:
            self.proc.stdin.close()
            self.proc.wait(15)
        except Exception:
            pass

    def _reap(self):
        pass


def _worker_main():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                       # anything else printed goes to stderr
    sys.stdout = sys.stderr
    office = None
    for line in sys.stdin:
        req = json.loads(line)
        op, kw = req["op"], req["kw"]
        try:
            if op == "start":
                office = object.__new__(Office)         # in-process, never a worker
                Office.__init__(office, None, **kw)
                result = None
            elif op == "install":
                result = office._install(kw["oxt"])
            elif op == "recalc":
                result = office._recalc(**kw).to_json()
            elif op == "function_descriptions":
                result = office._function_descriptions(kw["prefix"])
            elif op == "to_pdf":
                result = office._to_pdf(**kw)
            elif op == "close":
                if office is not None:
                    office.close()
                    office = None
                out.write(json.dumps({"ok": True, "result": None}) + "\n")
                break
            else:
                raise ValueError(f"unknown op {op}")
            out.write(json.dumps({"ok": True, "result": result}) + "\n")
        except Exception as e:
            out.write(json.dumps({"ok": False, "type": type(e).__name__,
                                  "error": f"{type(e).__name__}: {e}"}) + "\n")
    if office is not None:
        office.close()


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    _ensure_uno_path()
    _worker_main()
