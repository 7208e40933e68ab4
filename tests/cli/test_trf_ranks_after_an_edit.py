"""A user trial (8 December): a result edited in a workbook so a player loses a point;
``xl-fide trf BOOK.xlsx`` wrote his new points with his old final rank (4.0, rank 11,
the sheet's Ranking 34). The 001 lines' ranks (TRF16 columns 86-89) now follow the
points written: by points, ties in the file's order (the tie-breaks it was ranked by
cannot be recomputed), with a warning saying so."""
from __future__ import annotations

import openpyxl

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main
from xl_fide.trf import read_trf

# A four-player round robin, written as a Swiss table (Opp, Col, Res a round):
#   R1: 1-4 1-0, 2-3 ½-½   R2: 1-3 1-0, 2-4 1-0   R3: 1-2 ½-½, 3-4 0-1
# points: 1 2.5, 2 2.0, 3 0.5, 4 1.0; final ranks 1, 2, 4, 3
GAMES = {1: [(4, "w", "1"), (3, "w", "1"), (2, "w", "=")],
         2: [(3, "w", "="), (4, "w", "1"), (1, "b", "=")],
         3: [(2, "b", "="), (1, "b", "0"), (4, "w", "0")],
         4: [(1, "b", "0"), (2, "b", "0"), (3, "b", "1")]}
POINTS = {1: "2.5", 2: "2.0", 3: "0.5", 4: "1.0"}
RANKS = {1: 1, 2: 2, 3: 4, 4: 3}


def _book(tmp_path):
    lines = [player_line(i, f"Player {i}", 1800 - 10 * i, points=POINTS[i], rounds=GAMES[i])
             for i in range(1, 5)]
    lines = [line[:85] + f"{RANKS[i]:>4}" + line[89:] for i, line in enumerate(lines, 1)]
    src = tmp_path / "rr.trf"
    src.write_text(trf({"012": "Ranks", "042": "2025/11/01", "052": "2025/11/03"}, lines))
    t = read_trf(src)
    assert t.warnings == () and [p.rank for p in t.players] == [1, 2, 4, 3]
    book = tmp_path / "book.xlsx"
    assert main(["crosstable", str(src), "-o", str(book), "-q", "--layout", "swiss"]) == 0
    return book


def _edit(book, edits):
    """``edits``: (start rank, round, result) written into the Res cell."""
    wb = openpyxl.load_workbook(book)
    ws = wb["Crosstable"]
    header = next(r for r in range(1, 10) if ws.cell(r, 1).value == "No")
    res = [c for c in range(1, ws.max_column + 1) if ws.cell(header, c).value == "Res"]
    for rank, rnd, result in edits:
        row = next(r for r in range(header + 1, header + 6) if ws.cell(r, 1).value == rank)
        ws.cell(row, res[rnd - 1]).value = result
    wb.save(book)


def _written(book, tmp_path, capsys):
    back = tmp_path / "back.trf"
    capsys.readouterr()
    assert main(["trf", str(book), "-o", str(back)]) == 0
    t = read_trf(back)
    return ({p.start_rank: (str(p.points), p.rank) for p in t.players},
            capsys.readouterr().err)


def test_a_point_lost_moves_the_rank(tmp_path, capsys):
    book = _book(tmp_path)
    _edit(book, [(2, 2, 0), (4, 2, 1)])        # R2: 2-4 now 0-1
    # points by hand: 1 2.5, 2 ½+0+½ = 1.0, 3 0.5, 4 0+1+1 = 2.0 -> ranks 1, 3, 4, 2
    ranks, err = _written(book, tmp_path, capsys)
    assert ranks == {1: ("2.5", 1), 2: ("1.0", 3), 3: ("0.5", 4), 4: ("2.0", 2)}
    assert "final ranks" in err and "2 player(s) recomputed" in err


def test_ties_keep_the_file_order(tmp_path, capsys):
    book = _book(tmp_path)
    _edit(book, [(2, 1, 0), (3, 1, 1)])        # R1: 2-3 now 0-1
    # by hand: 1 2.5, 2 0+1+½ = 1.5, 3 1+0+0 = 1.0, 4 1.0: 3 and 4 tie, and the file
    # ranked 4 (rank 3) before 3 (rank 4): the ranks stay 1, 2, 4, 3 (by start rank
    # the tie would give 3 the third place), and nothing is said
    ranks, err = _written(book, tmp_path, capsys)
    assert ranks == {1: ("2.5", 1), 2: ("1.5", 2), 3: ("1.0", 4), 4: ("1.0", 3)}
    assert "final ranks" not in err


def test_an_unedited_book_keeps_the_ranks(tmp_path, capsys):
    ranks, err = _written(_book(tmp_path), tmp_path, capsys)
    assert ranks == {1: ("2.5", 1), 2: ("2.0", 2), 3: ("0.5", 4), 4: ("1.0", 3)}
    assert "final ranks" not in err
