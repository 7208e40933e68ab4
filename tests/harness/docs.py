"""The documentation as one text: README.md and every page under docs/ (the tests that
check that a feature is documented look for it wherever the docs put it)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def docs_text() -> str:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in pages
                     if "_build" not in p.parts and "_generated" not in p.parts)
