"""Write a synthetic FIDE rating list in the combined TXT layout (``players_list_foa.txt``).

Not a test: used by ``benchmarks/lists.py`` (see benchmarks/README.md)::

    python benchmarks/make_fide_list.py OUT.txt [--players 1200000] [--seed 2025]

The header and column positions are those of FIDE's combined list (ID 0, Name 15,
Fed 76, Sex 80, Tit 84, WTit 89, OTit 94, FOA 109, SRtng 113, SGm 119, SK 123, RRtng 126,
RGm 132, Rk 136, BRtng 139, BGm 145, BK 149, B-day 152, Flag 158), CRLF line ends,
trailing blanks trimmed, as in the samples of tests/data/players/. Players are
invented (ids from 100000000 up, names ``Surname123, Given``); about half have a
standard rating (normal, mean 1750, sd 300), a third rapid, a third blitz. With
1.2 M players the file is about 190 MB, the size of FIDE's real list.
"""

from __future__ import annotations

import argparse
import random

HEADER = ("ID Number      Name                                                         "
          "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK "
          "B-day Flag")
FEDS = ("ESP", "GER", "FRA", "IND", "USA", "RUS", "ITA", "POL", "NED", "ARG", "IRI", "TUR")
SURNAMES = ("Garcia", "Muller", "Martin", "Singh", "Smith", "Ivanov", "Rossi", "Nowak",
            "Jansen", "Fernandez", "Ahmadi", "Yilmaz", "Kumar", "Lopez", "Schmidt")
GIVEN = ("Ana", "Ben", "Carla", "David", "Elena", "Farid", "Greta", "Hugo", "Iris", "Jon")


def _rating(rng: random.Random, share: float) -> tuple[str, str, str]:
    if rng.random() >= share:
        return "", "", ""
    r = min(2850, max(1400, int(rng.gauss(1750, 300))))
    k = "10" if r >= 2400 else rng.choice(("20", "20", "40"))
    return str(r), str(rng.randrange(0, 20)), k


def line(rng: random.Random, number: int) -> str:
    """One player of the combined layout."""
    fide_id = 100_000_000 + number
    name = f"{rng.choice(SURNAMES)}{number % 997}, {rng.choice(GIVEN)}"
    std, rapid, blitz = _rating(rng, 0.5), _rating(rng, 0.33), _rating(rng, 0.33)
    flag = rng.choice(("", "", "", "i", "w", "wi"))
    text = (f"{fide_id:<15}{name:<61}{rng.choice(FEDS):<4}{rng.choice('MF'):<4}"
            f"{'':<5}{'':<5}{'':<15}{'':<4}"
            f"{std[0]:<6}{std[1]:<4}{std[2]:<3}{rapid[0]:<6}{rapid[1]:<4}{rapid[2]:<3}"
            f"{blitz[0]:<6}{blitz[1]:<4}{blitz[2]:<3}{rng.randrange(1940, 2020):<6}{flag}")
    return text.rstrip()


def write(path: str, players: int = 1_200_000, seed: int = 2025) -> None:
    """Write ``players`` lines after the header to ``path``."""
    rng = random.Random(seed)
    with open(path, "w", encoding="ascii", newline="\r\n") as out:
        out.write(HEADER + "\n")
        batch = []
        for n in range(players):
            batch.append(line(rng, n))
            if len(batch) == 10_000:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--players", type=int, default=1_200_000)
    ap.add_argument("--seed", type=int, default=2025)
    args = ap.parse_args()
    write(args.out, args.players, args.seed)


if __name__ == "__main__":
    main()
