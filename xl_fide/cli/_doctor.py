"""``xl-fide doctor``: what Excel needs to find the FIDE_* functions, and what is missing.

Checks, in the order a user would fix them: the Python interpreter, xl-fide, xlwings,
whether :mod:`xl_fide.udfs` imports (and how many FIDE_* functions it has), the
user's xlwings configuration (``~/.xlwings/xlwings.conf``: INTERPRETER and UDF
MODULES), and on Windows pywin32, the ``xlwings64-<version>.dll`` the add-in's VBA
loads from beside the interpreter, and the xlwings add-in in XLSTART.
Every problem gets a line starting with ``PROBLEM:`` that says how to fix it.
Nothing here changes the machine.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Callable

UDF_MODULE = "xl_fide.udfs"
_CONFIG_KEYS = ("INTERPRETER_WIN", "INTERPRETER_MAC", "INTERPRETER", "CONDA PATH",
                "CONDA ENV", "UDF MODULES", "PYTHONPATH")


def user_config_path(platform: str | None = None, home: Path | None = None) -> Path:
    """Where xlwings reads the user's configuration (same rule as ``xlwings.USER_CONFIG_FILE``)."""
    platform = platform or sys.platform
    home = home or Path.home()
    if platform.startswith("darwin"):
        return home / "Library" / "Containers" / "com.microsoft.Excel" / "Data" / "xlwings.conf"
    return home / ".xlwings" / "xlwings.conf"


def read_user_config(path: Path) -> dict[str, str]:
    """Keys (upper case) and values of an xlwings.conf file: lines ``"KEY","value"``."""
    config: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        values = re.findall(r'"[^"]*"', line)
        if len(values) >= 2:
            config[values[0].strip('"').upper()] = values[1].strip('"')
    return config


def dll_names(xlwings_version: str) -> tuple[str, str]:
    """The DLL file names the xlwings VBA declares (64-bit and 32-bit Excel)."""
    return f"xlwings64-{xlwings_version}.dll", f"xlwings32-{xlwings_version}.dll"


def dll_folders(executable: str, prefix: str) -> list[Path]:
    """Where the VBA looks for the DLL: the interpreter's folder, its parent (venv),
    and the environment root."""
    exe_dir = Path(executable).parent
    out: list[Path] = []
    for folder in (exe_dir, exe_dir.parent, Path(prefix)):
        if folder not in out:
            out.append(folder)
    return out


def _xlwings_version() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        return version("xlwings")
    except PackageNotFoundError:
        return None


def checks(platform: str | None = None, home: Path | None = None,
           executable: str | None = None, prefix: str | None = None,
           xlwings_version: str | None = "auto") -> tuple[list[str], bool]:
    """The report of :func:`doctor` for a given platform and paths (tests pass fakes)."""
    platform = platform or sys.platform
    executable = executable or sys.executable
    prefix = prefix or sys.prefix
    windows = platform.startswith("win")
    lines: list[str] = []
    ok = True

    def problem(text: str) -> None:
        nonlocal ok
        ok = False
        lines.append("PROBLEM: " + text)

    lines.append(f"Python: {executable} ({sys.version.split()[0]})")
    from xl_fide._version import __version__
    lines.append(f"xl-fide: {__version__} ({Path(__file__).parent})")

    if xlwings_version == "auto":
        xlwings_version = _xlwings_version()
    if xlwings_version is None:
        lines.append("xlwings: not installed")
        problem(f"xlwings is not installed in this Python: run {executable} -m pip install xlwings")
    else:
        lines.append(f"xlwings: {xlwings_version}")

    try:
        udfs = importlib.import_module(UDF_MODULE)
    except Exception as exc:  # noqa: BLE001 - any import failure is the finding
        lines.append(f"{UDF_MODULE}: does not import ({type(exc).__name__}: {exc})")
        problem(f"{UDF_MODULE} must import for Excel to call it: fix the error above "
                f"(reinstall with {executable} -m pip install --force-reinstall xl-fide)")
    else:
        names = [n for n in getattr(udfs, "__all__", ()) if n.startswith("FIDE_")]
        lines.append(f"{UDF_MODULE}: imports, {len(names)} FIDE_* functions")

    config_path = user_config_path(platform, home)
    if config_path.is_file():
        config = read_user_config(config_path)
        lines.append(f"xlwings user config: {config_path}")
        for key in _CONFIG_KEYS:
            if key in config:
                lines.append(f"  {key}: {config[key]}")
        interpreter = config.get("INTERPRETER_WIN" if windows else "INTERPRETER_MAC") \
            or config.get("INTERPRETER")
        if interpreter and interpreter not in ("python", "pythonw"):
            if not Path(os.path.expandvars(interpreter)).exists():
                problem(f"the configured interpreter {interpreter} does not exist: set it to "
                        f"{executable} (Interpreter box of the xlwings ribbon)")
            elif Path(interpreter).parent != Path(executable).parent:
                lines.append(f"  note: Excel uses {interpreter}, not this Python; run "
                             "`xl-fide doctor` with that interpreter too")
        modules = [m.strip() for m in config.get("UDF MODULES", "").split(";") if m.strip()]
        if modules and UDF_MODULE not in modules:
            lines.append(f"  note: UDF MODULES does not list {UDF_MODULE}; the workbook's "
                         "xlwings.conf sheet must (the xl-fide templates do)")
    else:
        lines.append(f"xlwings user config: {config_path} (none; the workbook's "
                     "xlwings.conf sheet or the ribbon settings are used)")

    if windows:
        _windows_checks(lines, problem, xlwings_version, executable, prefix)
    else:
        lines.append(f"Classic Excel functions need Windows; this is {platform}. On macOS "
                     "and Excel on the web use xlwings Lite (README: requirements.txt, "
                     "main.py)")
    lines.extend(_not_checked(windows))
    if not ok:
        lines.append("Result: fix the PROBLEM lines above, then restart Excel")
    elif windows:
        lines.append("Result: no problem found in what this command can check; the points "
                     "under 'Not checked' are done in Excel")
    else:
        lines.append(f"Result: Python, xl-fide and xlwings are fine here, but classic Excel "
                     f"cannot be checked on {platform}: run `xl-fide doctor` on the Windows "
                     "machine with Excel")
    return lines, ok


def _windows_checks(lines: list[str], problem: Callable[[str], None],
                    xlwings_version: str | None, executable: str, prefix: str) -> None:
    """pywin32, the xlwings DLL of this Python and the Excel add-in (Windows only)."""
    if any(importlib.util.find_spec(m) is None for m in ("win32com", "pythoncom")):
        lines.append("pywin32: not installed")
        problem(f"pywin32 is missing: run {executable} -m pip install pywin32")
    else:
        lines.append("pywin32: installed")
    if xlwings_version is not None:
        dlls = dll_names(xlwings_version)
        found = [folder / name for folder in dll_folders(executable, prefix)
                 for name in dlls if (folder / name).is_file()]
        if found:
            lines.append(f"xlwings DLL: {found[0]}")
        else:
            where = ", ".join(str(f) for f in dll_folders(executable, prefix))
            lines.append(f"xlwings DLL: {dlls[0]} not found in {where}")
            problem(f"{dlls[0]} is missing (Excel says 'file not found'): reinstall "
                    f"xlwings in this Python: {executable} -m pip install "
                    f"--force-reinstall xlwings=={xlwings_version}, then run "
                    "`xlwings addin install` so the add-in has the same version")
    appdata = os.environ.get("APPDATA")
    if appdata:
        addin = Path(appdata) / "Microsoft" / "Excel" / "XLSTART" / "xlwings.xlam"
        if addin.is_file():
            lines.append(f"xlwings add-in: {addin}")
        else:
            lines.append(f"xlwings add-in: not in {addin.parent}")
            problem("the xlwings Excel add-in is not installed: run `xlwings addin install` "
                    "(or use a workbook with the standalone xlwings VBA module)")


def _not_checked(windows: bool) -> list[str]:
    """What a command outside Excel cannot see (README, "Excel on Windows")."""
    out = ["Not checked (only Excel can see these):"]
    if not windows:
        out.append("  - pywin32, the xlwings DLL and the xlwings add-in (Windows only)")
    out += [
        "  - Trust access to the VBA project object model (Trust Center > Macro Settings)",
        "  - the reference Tools > References > xlwings in the VBA editor (Alt+F11)",
        "  - that Import Functions was run and the workbook saved as .xlsm",
        "  - macros enabled for the workbook; cells still #NAME? after Import Functions: "
        "Ctrl+Alt+F9",
        "  - xlwings Lite (runs inside Excel: its requirements.txt must pin "
        "xlwings>=0.36.7)",
    ]
    return out


def doctor() -> tuple[list[str], bool]:
    """Report lines about this machine's Excel/xlwings setup and whether all is well.

    Used by ``xl-fide doctor``. Lines starting with ``PROBLEM:`` say what is wrong and
    how to fix it; the bool is False when there is at least one.
    """
    return checks()
