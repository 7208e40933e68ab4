"""Render a workbook as a user would see it: recalculate it in headless LibreOffice
with our UDFs, export to PDF, convert to PNG (pdftoppm, poppler-utils).

    python -m tests.harness.render WORKBOOK.xlsx OUT_DIR [--sheet NAME] [--dpi 80]
                           [--module xl_fide.udfs]

Writes OUT_DIR/<stem>.recalc.xlsx, OUT_DIR/<stem>[-<sheet>].pdf and one PNG per page;
prints the PNG paths (one per line).  From a test, reuse the session ``office``:
``render.render(office, path, out_dir, sheet=...)``.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.harness import lo_calc

HERE = Path(__file__).resolve().parent


def render(office, workbook, out_dir, *, sheet=None, dpi=80):
    """Recalculate + PDF + PNG with an existing lo_calc.Office. Returns
    (png_paths, RecalcResult)."""
    workbook, out_dir = Path(workbook), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    pdftoppm = shutil.which("pdftoppm")
    if not pdftoppm:
        raise RuntimeError("pdftoppm not found (apt: poppler-utils)")
    res = office.recalc(workbook, out_dir / f"{workbook.stem}.recalc.xlsx")
    stem = workbook.stem + (f"-{re.sub(r'[^A-Za-z0-9_.-]+', '_', sheet)}" if sheet else "")
    pdf = out_dir / f"{stem}.pdf"
    office.to_pdf(workbook, pdf, sheet=sheet)
    for old in out_dir.glob(f"{glob_escape(stem)}-*.png"):
        old.unlink()
    subprocess.run([pdftoppm, "-png", "-r", str(dpi), str(pdf), str(out_dir / stem)],
                   check=True)
    pat = re.compile(re.escape(stem) + r"-(\d+)\.png$")
    pngs = sorted((p for p in out_dir.glob(f"{glob_escape(stem)}-*.png") if pat.match(p.name)),
                  key=lambda p: int(pat.match(p.name).group(1)))
    return pngs, res


def glob_escape(s):
    return re.sub(r"([*?\[])", r"[\1]", s)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workbook")
    ap.add_argument("out_dir")
    ap.add_argument("--sheet", help="render only this sheet")
    ap.add_argument("--dpi", type=int, default=80)
    ap.add_argument("--module", default="xl_fide.udfs", help="UDF module (default %(default)s)")
    a = ap.parse_args(argv)

    root = str(HERE.parents[1])             # the working tree's xl_fide
    if root not in sys.path:
        sys.path.insert(0, root)
    missing = lo_calc.missing_requirements()
    if missing:
        sys.exit("render.py: missing " + ", ".join(missing))
    with tempfile.TemporaryDirectory() as tmp:
        oxt = str(Path(tmp) / "udfs.oxt")
        lo_calc.build_addin(a.module, oxt)
        with lo_calc.Office(oxt) as office:
            pngs, res = render(office, a.workbook, a.out_dir, sheet=a.sheet, dpi=a.dpi)
    for e in dict.fromkeys(res.errors):
        print(f"render.py: UDF error: {e}", file=sys.stderr)
    for p in pngs:
        print(p)


if __name__ == "__main__":
    main()
