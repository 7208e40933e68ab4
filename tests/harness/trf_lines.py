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


def trf(header: dict[str, str], players: list[str], extra: list[str] = ()) -> str:
    lines = [f"{tag} {text}" for tag, text in header.items()]
    return "\n".join(lines + list(extra) + players) + "\n"
