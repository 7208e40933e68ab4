"""FIDE rating lists: reading FIDE's TXT/XML downloads and a player CSV, the local
SQLite store of monthly lists, the download, and the look-up of an event's players
by its resolved rules (FIDE B.02 §8.3.3: the list in force at the start; K from the
list before the rating period)."""

from xl_fide.lists._read import (
    BUDGETS,
    RATING_KINDS,
    ListReader,
    PlayerData,
    PlayerDirectory,
    PlayerFileError,
    read_fide_txt,
    read_fide_xml,
    read_player_csv,
    read_player_file,
)
from xl_fide.lists._store import (
    FIDE_DOWNLOADS,
    STORE_ENV,
    DownloadError,
    ListStore,
    StoreError,
    default_store,
    download_lists,
    event_list_data,
    event_player_data,
    list_file_name,
)

__all__ = [
    "BUDGETS", "FIDE_DOWNLOADS", "RATING_KINDS", "STORE_ENV", "DownloadError", "ListReader",
    "ListStore", "PlayerData", "PlayerDirectory", "PlayerFileError", "StoreError",
    "default_store", "download_lists", "event_list_data", "event_player_data",
    "list_file_name", "read_fide_txt", "read_fide_xml", "read_player_csv", "read_player_file",
]
