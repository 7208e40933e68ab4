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
from xl_fide.excel._layout import CROSS, FIRST_ROW, PLAYER_COLS
from xl_fide.excel._read import WorkbookEvent, read_workbook, read_workbook_event

__all__ = [
    "DEFAULT_TEMPLATES", "LAYOUTS", "MAX_PLAYERS", "MAX_ROUNDS", "MAX_ROUND_ROBIN",
    "NATIVE_TEMPLATES", "WorkbookEvent", "build_template",
    "choose_layout", "complete_cells", "fill_workbook", "player_cell", "read_workbook", "read_workbook_event", "safe_text",
    "save_workbook", "write_default_templates",
]


def player_cell(start_rank: int, field: str) -> str:
    """The Crosstable cell holding player ``start_rank``'s ``field`` (a players' column:
    ``"title"``, ``"name"``, ``"fed"``, ``"fide_id"``, ``"ro"``, ``"born"`` ...), as
    ``Crosstable!C7``: the players' columns are the same in every layout and size, row
    ``FIRST_ROW`` the first player's. Raises ValueError for an unknown ``field``."""
    from openpyxl.utils import get_column_letter
    col = 1 + [c.key for c in PLAYER_COLS].index(field)
    return f"{CROSS}!{get_column_letter(col)}{FIRST_ROW + start_rank - 1}"
