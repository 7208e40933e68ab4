"""Pictures of real workbooks for the docs, made at every build: xl-fide writes the
workbooks, headless LibreOffice computes and prints them to PDF, pdftoppm turns the
pages into PNG (Debian: libreoffice-calc-nogui, poppler-utils). Nothing is drawn by
hand, so the pictures show what a user gets from this version."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from xl_fide.cli import main

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "tests" / "data" / "trf" / "roundrobin_12_synthetic.trf"

#: picture stem -> the xl-fide command line that writes its workbook (OUT: the path)
BOOKS = {
    "crosstable-native": ["crosstable", str(EVENT), "--formulas", "native", "-o", "OUT"],
}
MAX_PAGES = 3


def _render(book: Path, out_dir: Path, stem: str) -> list[Path]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None or shutil.which("pdftoppm") is None:
        raise RuntimeError("the docs' pictures need LibreOffice (soffice) and pdftoppm; "
                           "or build with XL_FIDE_DOCS_PICTURES=0")
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        subprocess.run([soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                        "--convert-to", "pdf", "--outdir", tmp, str(book)],
                       check=True, capture_output=True, timeout=300)
        pdf = Path(tmp) / (book.stem + ".pdf")
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", str(MAX_PAGES),
                        str(pdf), str(Path(tmp) / stem)], check=True, timeout=300)
        pages = sorted(Path(tmp).glob(f"{stem}-*.png"))    # -1 or -01: pdftoppm pads
        return [shutil.move(str(page), out_dir / f"{stem}-{n}.png") and out_dir / f"{stem}-{n}.png"
                for n, page in enumerate(pages, 1)]


def make(out_dir: Path) -> list[Path]:
    """Write every workbook of :data:`BOOKS` and its first pages as PNG into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    made = []
    for stem, argv in BOOKS.items():
        book = out_dir / f"{stem}.xlsx"
        book.unlink(missing_ok=True)
        for old in out_dir.glob(f"{stem}-*.png"):
            old.unlink()
        if main([a.replace("OUT", str(book)) for a in argv] + ["-q"]) != 0:
            raise RuntimeError(f"xl-fide {' '.join(argv)} failed")
        made += _render(book, out_dir, stem)
    return made
