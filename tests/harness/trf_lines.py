"""Build TRF16 lines column by column for tests (positions of FIDE C.04 Annex 2, 1-based)."""


def put(buf: list[str], first: int, text: str, right: bool = False, width: int | None = None) -> None:
    if width is not None:
        text = text.rjust(width) if right else text.ljust(width)
    for i, ch in enumerate(text):
        pos = first - 1 + i
        while len(buf) <= pos:
            buf.append(" ")
        buf[pos] = ch


def player_line(rank: int, name: str, rating: int | str | None = None, *, sex: str = "m",
                title: str = "", fed: str = "", fide_id: int | None = None, birth: str = "",
                points: str = "", rounds: list[tuple[int, str, str]] = ()) -> str:
    """A 001 line; ``rounds`` are ``(opponent start rank or 0, colour, result code)``."""
    buf = list("001")
    put(buf, 5, str(rank), right=True, width=4)
    put(buf, 10, sex)
    put(buf, 11, title, right=True, width=3)
    put(buf, 15, name, width=33)
    put(buf, 49, "" if rating is None else str(rating), right=True, width=4)
    put(buf, 54, fed, width=3)
    put(buf, 58, "" if fide_id is None else str(fide_id), right=True, width=11)
    put(buf, 70, birth, width=10)
    put(buf, 81, points, right=True, width=4)
    for r, (opp, colour, result) in enumerate(rounds):
        base = 92 + 10 * r
        put(buf, base, f"{opp:04d}" if opp == 0 else str(opp), right=True, width=4)
        put(buf, base + 5, colour)
        put(buf, base + 7, result)
    return "".join(buf).rstrip()


def round_cells(ranks, games) -> dict[int, list[tuple[int, str, str]]]:
    """The ``rounds`` of :func:`player_line` for each of ``ranks`` from ``games`` (round,
    white rank, black rank, white's result '1' '=' '0'); a round without a game is
    ``(0, "-", "Z")`` (not paired)."""
    rounds = max(g[0] for g in games)
    cells = {rank: [(0, "-", "Z")] * rounds for rank in ranks}
    other = {"1": "0", "0": "1", "=": "="}
    for rnd, w, b, res in games:
        cells[w][rnd - 1] = (b, "w", res)
        cells[b][rnd - 1] = (w, "b", other[res])
    return cells


def trf(header: dict[str, str], players: list[str], extra: list[str] = ()) -> str:
    lines = [f"{tag} {text}" for tag, text in header.items()]
    return "\n".join(lines + list(extra) + players) + "\n"


def past_open(one_rating: str = "2150", one_born: str = "1980", *, start: str = "2024/01/13",
              end: str = "2024/01/14", tc: str = "90 min + 30 s") -> str:
    """A two-player event, "Past Open" (by default 13-14 January 2024, 90 min + 30 s):
    One, A (FIDE id 1001, rating ``one_rating``, blank = unrated; born ``one_born``) beats
    Two, B (1002, 2000, born 1980) with white."""
    return (f"012 Past Open\n042 {start}\n052 {end}\n122 {tc}\n"
            f"001    1 m    One, A                            {one_rating:>4} ESP        1001 "
            f"{one_born}        1.0    1     2 w 1\n"
            "001    2 m    Two, B                            2000 ESP        1002 1980"
            "        0.0    2     1 b 0\n")


def two_months_trf(names=("A", "B", "C", "D"), start: str = "2025/10/05", end: str = "2025/11/09",
               dates=("25/10/05", "25/11/09")) -> str:
    """A TRF of four players ``names``, rounds on ``dates`` (by default 5 Oct and 9 Nov
    2025: 35 days, over 30, two rating periods). R1: 1-2 =, 3-4 =; R2: 1-2 1-0, 3-4 =.
    Ratings 1800, 1700 (born 2010), 2440, 2405; FIDE ids 1001 to 1004."""
    a, b, c, d = names
    players = [
        player_line(1, a, 1800, fide_id=1001, rounds=[(2, "w", "="), (2, "b", "1")]),
        player_line(2, b, 1700, fide_id=1002, birth="2010/01/01",
                    rounds=[(1, "b", "="), (1, "w", "0")]),
        player_line(3, c, 2440, fide_id=1003, rounds=[(4, "w", "="), (4, "b", "=")]),
        player_line(4, d, 2405, fide_id=1004, rounds=[(3, "b", "="), (3, "w", "=")]),
    ]
    head = {"012": "Two months", "042": start, "052": end, "122": "90 min + 30 sec"}
    return trf(head, players, ["132" + " " * 88 + "  ".join(dates)])
