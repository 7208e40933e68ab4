"""Issue 23, the FIDE-list rows: ``report --player-data LIST`` and ``lists show ID`` do
no needless work and import only what they use.

No timing here (speed is measured in benchmarks/user_paths_lists.py): each test pins
one cause of slowness found by profiling, in a way that fails when it comes back.
"""

from pathlib import Path

import pytest

from tests.cli.test_user_paths import _imported
from xl_fide.lists import _scan
from xl_fide.lists._read import read_player_file
from xl_fide.lists._store import ListStore

PLAYERS = Path(__file__).parents[1] / "data" / "players"
COMBINED_TXT = PLAYERS / "combined_foa.txt"
HEADER = COMBINED_TXT.read_text(encoding="utf-8").splitlines()[0]


def _line(fide_id: int, name: str) -> str:
    """A line of the combined layout (the columns of combined_foa.txt's header)."""
    return (f"{fide_id:<15}{name:<61}{'ESP':<4}{'M':<4}{'':<29}"
            f"{'1800':<6}{'5':<4}{'20':<3}{'':<26}1990").rstrip()


def _list(tmp_path: Path, lines: int = 3000) -> Path:
    """A TXT list in which every name starts with the same letters ("Garcia...")."""
    path = tmp_path / "players_list_foa.txt"
    body = [_line(5_000_000 + n, f"Garcia{n}, Ana") for n in range(lines)]
    path.write_text("\r\n".join([HEADER, *body]) + "\r\n", encoding="ascii")
    return path


def _counting_names(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = _scan.normalise_name

    def counted(name: str) -> str:
        seen.append(name)
        return real(name)

    monkeypatch.setattr(_scan, "normalise_name", counted)
    return seen


def test_names_of_players_with_an_id_are_not_looked_for_on_lines_with_one(tmp_path,
                                                                         monkeypatch):
    # Profiling: an event whose players all have a FIDE id had every list line whose
    # name starts like one of theirs decoded and its name normalised (1.2 M names for a
    # common surname), though a line with an id can only be a player's by that id.
    path = _list(tmp_path)
    seen = _counting_names(monkeypatch)
    found = read_player_file(path, only=[(5_000_010, "Garcia10, Ana"),
                                         (5_002_999, "Garcia2999, Ana")])
    assert sorted(p.fide_id for p in found) == [5_000_010, 5_002_999]
    assert len(seen) < 10, len(seen)      # the event's own names, not the list's


def test_a_player_without_an_id_is_still_found_by_name(tmp_path, monkeypatch):
    # the other side of the test above: the names of players without an id are looked for
    path = _list(tmp_path)
    seen = _counting_names(monkeypatch)
    found = read_player_file(path, only=[(5_000_010, "Garcia10, Ana"),
                                         (None, "GARCIA2500,  ana")])
    assert sorted(p.fide_id for p in found) == [5_000_010, 5_002_500]
    assert "Garcia2500, Ana" in seen


def test_an_id_players_name_does_not_make_every_line_slow(tmp_path, monkeypatch):
    # a name with no letters to index (e.g. "-") of a player WITH an id sent the whole
    # list through the line-by-line reader, normalising every name
    path = _list(tmp_path)
    seen = _counting_names(monkeypatch)
    found = read_player_file(path, only=[(5_000_010, "-"), (5_000_020, "Garcia20, Ana")])
    assert sorted(p.fide_id for p in found) == [5_000_010, 5_000_020]
    assert len(seen) < 10, len(seen)


def test_report_with_a_txt_list_imports_neither_store_nor_download_nor_xml(tmp_path):
    trf = tmp_path / "event.trf"
    trf.write_text(
        "012 Event\n042 2025/11/01\n052 2025/11/01\n"
        "001    1 m GM Alvarez, Bruno                    2580 ESP     9900011 1988        1.0"
        "    1     2 w 1\n"
        "001    2 m    Other, Player                     2400 ESP     9900077 1990        0.0"
        "    2     1 b 0\n")
    # what the list adds to the report's own imports: the TXT reader, nothing else
    new = set(_imported("report", str(trf), "--player-data", str(COMBINED_TXT))) - set(
        _imported("report", str(trf)))
    assert "xl_fide.lists._txt" in new
    for name in ("xl_fide.lists._store", "sqlite3", "xl_fide.lists._download", "http.client",
                 "ssl", "xl_fide.lists._xml", "defusedxml", "xml.etree.ElementTree",
                 "xl_fide.lists._csv", "zipfile", "shutil"):
        assert name not in new, name


def test_lists_show_imports_neither_readers_nor_download(tmp_path, monkeypatch):
    store = tmp_path / "lists.sqlite"
    with ListStore(store) as s:
        s.import_file(COMBINED_TXT, "2025-11")
    monkeypatch.setenv("XL_FIDE_STORE", str(store))
    new = _imported("lists", "show", "9900011")
    assert "xl_fide.lists._store" in new
    for name in ("xl_fide.lists._read", "xl_fide.lists._txt", "xl_fide.lists._xml",
                 "defusedxml", "zipfile", "xl_fide.lists._download", "http.client", "ssl",
                 "xl_fide.cli._presenters", "xl_fide.rules.editions"):
        assert name not in new, name


def test_lists_show_still_escapes_control_characters(tmp_path, monkeypatch, capsys):
    # the presenters are imported only for a text that is not printable: such a text
    # is still escaped (escape_controls)
    from xl_fide.cli._lists import _safe
    assert _safe("Alvarez, Bruno") == "Alvarez, Bruno"
    assert _safe("Evil\x1b[31m, Name") == "Evil\\x1b[31m, Name"
    assert _safe("Bidi\u202eName") == "Bidi\\u202eName"


@pytest.mark.parametrize("shift", [0, 1])
def test_event_players_found_in_blocks_of_any_id_column(tmp_path, shift):
    # the id columns are read as a whole when FIDE-shaped (digits, then blanks), else
    # word by word: both find the same players as reading every line. Ids of several
    # lengths, one inside another; ``shift`` puts a blank
    # before some ids (not FIDE's shape: the other way)
    ids = [5, 50, 5_000_001, 50_000_012, 500_000_123, 1_234_567_890]
    lines = [_line(fide_id, f"Name{n}, Ana") for n, fide_id in enumerate(ids)]
    lines += [_line(6_000_000 + n, f"Other{n}, Ben") for n in range(200)]
    if shift:
        lines = [" " + line[:14] + line[15:] if n % 3 == 0 else line
                 for n, line in enumerate(lines)]
    path = tmp_path / "players_list_foa.txt"
    path.write_text("\r\n".join([HEADER, *lines]) + "\r\n", encoding="ascii")
    everyone = {p.fide_id: p for p in read_player_file(path)}
    for wanted in ([5], [50, 500_000_123], [5_000_001, 1_234_567_890, 6_000_199],
                   [7, 50_000_012], ids):
        found = read_player_file(path, only=[(i, None) for i in wanted])
        assert sorted(p.fide_id for p in found) == sorted(i for i in wanted if i in everyone)
        assert all(p == everyone[p.fide_id] for p in found)


def test_xml_list_normalises_no_name_when_every_event_player_has_an_id(monkeypatch):
    # each <player> not wanted by id had its name normalised, though with an id it can
    # only match a player without one, and the event has none
    xml = PLAYERS / "combined.xml"
    seen = _counting_names(monkeypatch)
    found = read_player_file(xml, only=[(9900011, "Alvarez, Bruno")])
    assert [p.fide_id for p in found] == [9900011]
    assert seen == ["Alvarez, Bruno"]       # the event's own name (to match it later)


def test_a_block_with_two_words_in_one_id_column_and_none_in_another(tmp_path):
    # The word-by-word way matched the event's ids against the block's words, which
    # stand for its lines only when every id column holds exactly one word. A column
    # of two words ("777 5000003") and a blank one elsewhere in the block kept the
    # count equal and moved every id after them to the wrong line (here: 5000003 to
    # the line with no id). The players found must be those a full read finds.
    lines = [_line(5_000_001, "First, Ann"),
             _line(0, "Twice, Tom").replace("0              ", "777 5000003    ", 1),
             _line(0, "Blank, Bob").replace("0              ", " " * 15, 1),
             _line(5_000_003, "Real, Three")]
    lines += [_line(6_000_000 + n, f"Other{n}, Ben") for n in range(20)]
    path = tmp_path / "players_list_foa.txt"
    path.write_text("\r\n".join([HEADER, *lines]) + "\r\n", encoding="ascii")
    names = {5_000_001: "First, Ann", 5_000_003: "Real, Three", 6_000_019: "Other19, Ben"}
    for wanted in ([5_000_003], [5_000_001, 5_000_003], [6_000_019]):
        found = read_player_file(path, only=[(i, None) for i in wanted])
        assert sorted((p.fide_id, p.name) for p in found) == [(i, names[i]) for i in wanted]
