"""Players as a rating list shows them (:class:`PlayerData`), and their look-up by
FIDE id or name (:class:`PlayerDirectory`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from xl_fide.errors import InputError
from xl_fide._names import normalise_name

#: The three lists FIDE publishes; ``rating_kind`` picks one from a combined list.
RATING_KINDS = ("standard", "rapid", "blitz")


@dataclass(frozen=True, slots=True)
class PlayerData:
    """One player as a rating list shows them.

    ``rating``, ``games`` and ``k`` are those of the list read (standard, rapid or
    blitz); ``games`` is the list's "Gms" (games rated in the last period), ``k``
    the K the list shows. ``career_games`` and ``peak_rating`` are not on FIDE's
    lists; they may come from a CSV, for the K rules of FIDE B.02 §8.3.3.
    ``title`` is the list's title column (GM, IM, WGM...); ``w_title``,
    ``o_title`` (arbiter, trainer...) and ``foa_title`` keep the other columns.
    Raises :class:`InputError` for a value of the wrong type or a negative number.
    """

    fide_id: int | None
    name: str
    federation: str = ""
    sex: str = ""
    title: str = ""
    rating: int | None = None
    games: int | None = None
    k: int | None = None
    birth_year: int | None = None
    flag: str = ""
    career_games: int | None = None
    peak_rating: int | None = None
    w_title: str = ""
    o_title: str = ""
    foa_title: str = ""
    standard_rating: int | None = None   # a combined list's standard rating (SRtng), for R&B

    def __post_init__(self) -> None:
        numbers = (self.fide_id, self.rating, self.games, self.k, self.birth_year,
                   self.career_games, self.peak_rating, self.standard_rating)
        texts = (self.name, self.federation, self.sex, self.title, self.flag,
                 self.w_title, self.o_title, self.foa_title)
        if (all(v is None or (type(v) is int and v >= 0) for v in numbers)
                and self.fide_id != 0 and all(type(t) is str for t in texts)
                and (self.fide_id is not None or self.name.strip())):
            return
        for field in ("fide_id", "rating", "games", "k", "birth_year",
                      "career_games", "peak_rating", "standard_rating"):
            value = getattr(self, field)
            if value is None:
                continue
            if type(value) is not int:
                raise InputError(f"{field} must be a whole number or None, got {value!r}")
            if value < 0 or (field == "fide_id" and value == 0):
                raise InputError(f"{field} must be positive, got {value!r}")
        for field in ("name", "federation", "sex", "title", "flag",
                      "w_title", "o_title", "foa_title"):
            value = getattr(self, field)
            if not isinstance(value, str):
                raise InputError(f"{field} must be text, got {value!r}")
        if self.fide_id is None and not self.name.strip():
            raise InputError("a player needs a FIDE id or a name, got neither")

    @property
    def inactive(self) -> bool:
        """True when the list flags the player inactive (``i`` in the flag)."""
        return "i" in self.flag.lower()


# --- names --------------------------------------------------------------------

class PlayerDirectory:
    """Players looked up by FIDE id, falling back to their normalised name.

    Built from any iterable of :class:`PlayerData`; keeps their order. Two entries
    with the same FIDE id must be identical (a repeated line), otherwise
    :class:`InputError` names both. ``skipped`` counts the lines of the file it
    was read from that could not be read; ``notes`` says so, and anything else
    the reader wants shown to the user (one line each).
    """

    def __init__(self, players: Iterable[PlayerData], *, skipped: int = 0,
                 notes: Iterable[str] = ()) -> None:
        self.skipped = skipped
        self.notes = tuple(notes)
        kept: list[PlayerData] = []
        self._by_id: dict[int, PlayerData] = {}
        self._by_name: dict[str, list[PlayerData]] = {}
        for player in players:
            if not isinstance(player, PlayerData):
                raise InputError(f"a PlayerDirectory holds PlayerData, got {player!r}")
            if player.fide_id is not None:
                seen = self._by_id.get(player.fide_id)
                if seen is not None:
                    if seen == player:
                        continue
                    raise InputError(f"FIDE id {player.fide_id} appears twice: "
                                     f"{seen.name!r} and {player.name!r}")
                self._by_id[player.fide_id] = player
            self._by_name.setdefault(normalise_name(player.name), []).append(player)
            kept.append(player)
        self._players = tuple(kept)

    def get(self, fide_id: int | None, name: str | None = None) -> PlayerData | None:
        """Return the player with this FIDE id, else the one with this name, else None.

        The name is compared with :func:`normalise_name` (case, accents and spaces
        ignored). When ``fide_id`` is given but not on the list, a player found by
        name is returned only if the list gives them no FIDE id: a namesake with
        another id is another person. Raises :class:`InputError` for a FIDE id
        that is not a whole number, or a name that fits several players.
        """
        if fide_id is not None:
            if type(fide_id) is not int:
                raise InputError(f"fide_id must be a whole number or None, got {fide_id!r}")
            found = self._by_id.get(fide_id)
            if found is not None:
                return found
        if name is None:
            return None
        if not isinstance(name, str):
            raise InputError(f"name must be text or None, got {name!r}")
        key = normalise_name(name)
        if not key:
            return None
        candidates = self._by_name.get(key, [])
        if fide_id is not None:
            candidates = [p for p in candidates if p.fide_id is None]
        if len(candidates) > 1:
            ids = ", ".join(str(p.fide_id) if p.fide_id else "no id" for p in candidates)
            raise InputError(
                f"name {name!r} fits {len(candidates)} players ({ids}); give the FIDE id")
        return candidates[0] if candidates else None

    def __len__(self) -> int:
        return len(self._players)

    def __iter__(self) -> Iterator[PlayerData]:
        return iter(self._players)

    def __repr__(self) -> str:
        return f"PlayerDirectory({len(self._players)} players)"

