"""FIDE rating lists: reading FIDE's TXT/XML downloads and a player CSV, the local
SQLite store of monthly lists, the download, and the look-up of an event's players
by its resolved rules (FIDE B.02 §8.3.3: the list in force at the start; K from the
list before the rating period)."""

from xl_fide.lists._budget import BUDGETS
from xl_fide.lists._csv import read_player_csv
from xl_fide.lists._download import FIDE_DOWNLOADS, DownloadError, download_lists, list_file_name
from xl_fide.lists._lookup import event_list_data, event_player_data
from xl_fide.lists._model import RATING_KINDS, PlayerData, PlayerDirectory
from xl_fide.lists._read import ListReader, read_player_file
from xl_fide.lists._store import STORE_ENV, ListStore, StoreError, default_store
from xl_fide.lists._txt import read_fide_txt
from xl_fide.lists._xml import read_fide_xml
from xl_fide.errors import PlayerFileError

__all__ = [
    "BUDGETS", "FIDE_DOWNLOADS", "RATING_KINDS", "STORE_ENV", "DownloadError", "ListReader",
    "ListStore", "PlayerData", "PlayerDirectory", "PlayerFileError", "StoreError",
    "default_store", "download_lists", "event_list_data", "event_player_data",
    "list_file_name", "read_fide_txt", "read_fide_xml", "read_player_csv", "read_player_file",
]
