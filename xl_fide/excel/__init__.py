"""Workbooks built by code with openpyxl: the layout, building templates, filling a
cross-table from a tournament, reading it back, the lossless round trip, and the
native-formula rating block. The only part of xl-fide that knows openpyxl."""

from xl_fide.excel._build import build_template
from xl_fide.excel._fill import (choose_layout, complete_cells, fill_workbook, save_workbook,
                                 write_default_templates)
from xl_fide.excel._layout import (
    DEFAULT_TEMPLATES,
    LAYOUTS,
    MAX_PLAYERS,
    MAX_ROUND_ROBIN,
    MAX_ROUNDS,
    NATIVE_TEMPLATES,
    safe_text,
)
from xl_fide.excel._read import WorkbookEvent, read_workbook, read_workbook_event

__all__ = [
    "DEFAULT_TEMPLATES", "LAYOUTS", "MAX_PLAYERS", "MAX_ROUNDS", "MAX_ROUND_ROBIN",
    "NATIVE_TEMPLATES", "WorkbookEvent", "build_template",
    "choose_layout", "complete_cells", "fill_workbook", "read_workbook", "read_workbook_event", "safe_text",
    "save_workbook", "write_default_templates",
]
