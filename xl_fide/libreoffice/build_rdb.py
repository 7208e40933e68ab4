"""Rebuild the type library shipped with xl-fide (needs the LibreOffice SDK):

    python -m xl_fide.libreoffice.build_rdb

writes ``xl_fide/libreoffice/data/XFide.idl`` and ``XFide.rdb`` from the functions of
``xl_fide.udfs``. Run it after adding or changing a FIDE_* function's arguments and
commit both files; tests/functions/test_libreoffice.py fails while they are out of date.
"""
from __future__ import annotations

import sys
from pathlib import Path

from xl_fide.libreoffice._build import compile_rdb, idl_text
from xl_fide.libreoffice._spec import read_functions

DATA = Path(__file__).resolve().parent / "data"


def main() -> int:
    idl = idl_text(read_functions())
    rdb = compile_rdb(idl)
    (DATA / "XFide.idl").write_text(idl, encoding="utf-8")
    (DATA / "XFide.rdb").write_bytes(rdb)
    print(f"wrote {DATA / 'XFide.idl'} and {DATA / 'XFide.rdb'} ({len(rdb)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
