"""FIDE rating lists: reading FIDE's TXT/XML downloads and a player CSV, the local
SQLite store of monthly lists, the download, and the look-up of an event's players
by its resolved rules (FIDE B.02 §8.3.3: the list in force at the start; K from the
list before the rating period).

Each name is imported on first use (as :mod:`xl_fide` does), so a command imports
only the part it runs: ``report --player-data`` neither the store (sqlite3) nor the
download (http.client, ssl); ``lists show`` neither the readers nor the download.
"""

from __future__ import annotations

from xl_fide._lazy import lazy_attribute

TYPE_CHECKING = False     # not typing's: importing the package does not import typing

#: The module that defines each public name.
_BY_MODULE: dict[str, tuple[str, ...]] = {
    "xl_fide.lists._budget": ("BUDGETS",),
    "xl_fide.lists._csv": ("read_player_csv",),
    "xl_fide.lists._download": ("FIDE_DOWNLOADS", "download_lists", "list_file_name"),
    "xl_fide.errors": ("DownloadError", "StoreError", "PlayerFileError"),
    "xl_fide.lists._lookup": ("event_list_data", "event_player_data"),
    "xl_fide.lists._model": ("RATING_KINDS", "PlayerData", "PlayerDirectory"),
    "xl_fide.lists._read": ("ListReader", "read_player_file"),
    "xl_fide.lists._store": ("STORE_ENV", "ListStore", "default_store"),
    "xl_fide.lists._txt": ("read_fide_txt",),
    "xl_fide.lists._xml": ("read_fide_xml",),
}
_EXPORTS = {name: module for module, names in _BY_MODULE.items() for name in names}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    return lazy_attribute(globals(), _EXPORTS, name)


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from xl_fide.errors import DownloadError, PlayerFileError, StoreError
    from xl_fide.lists._budget import BUDGETS
    from xl_fide.lists._csv import read_player_csv
    from xl_fide.lists._download import (FIDE_DOWNLOADS, download_lists,
                                         list_file_name)
    from xl_fide.lists._lookup import event_list_data, event_player_data
    from xl_fide.lists._model import RATING_KINDS, PlayerData, PlayerDirectory
    from xl_fide.lists._read import ListReader, read_player_file
    from xl_fide.lists._store import STORE_ENV, ListStore, default_store
    from xl_fide.lists._txt import read_fide_txt
    from xl_fide.lists._xml import read_fide_xml
