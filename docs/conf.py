"""Sphinx configuration: ``python -m pip install --upgrade pip`` (``--group`` needs pip
25.1+), then ``python -m pip install . --group docs && sphinx-build -W docs docs/_build``.

The pages are MyST Markdown; the references are generated from the code: the CLI from
its argparse parser (sphinx-argparse), the ``FIDE_*`` functions and the Python API from
their docstrings (autodoc). Pictures of real workbooks are rendered by LibreOffice from
workbooks this build makes (``_pictures.py``); without LibreOffice the build fails,
unless ``XL_FIDE_DOCS_PICTURES=0`` (then the pages show a note instead).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))          # _pictures.py, this folder's helper

from xl_fide._version import __version__  # noqa: E402

project = "xl-fide"
author = "The xl-fide authors"
copyright = "2026, the xl-fide authors"
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinxarg.ext",
]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated/*.xlsx", "conftest.py"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
nitpicky = False
html_theme = "alabaster"
html_static_path: list[str] = []
html_title = f"xl-fide {release}"
suppress_warnings = ["myst.xref_missing"]


def setup(app):  # noqa: ANN001, ANN201 - Sphinx's hook
    def pictures(app):  # noqa: ANN001
        if os.environ.get("XL_FIDE_DOCS_PICTURES", "1") == "0":
            app.config.suppress_warnings.append("image.not_readable")
            return
        import _pictures
        _pictures.make(HERE / "_generated")
    app.connect("builder-inited", pictures)
