"""Rule editions of the FIDE Rating Regulations, as frozen data.

One :class:`RuleEdition` per (date in force, time control). An edition is never
edited once published: a rule change is a new edition. :func:`rules_for` picks the
edition in force on an event's start date (FIDE B.02 §8.3 "ratings of the list in
force when the tournament started"). Events before the oldest edition fall back to
it; callers can tell because ``event_date < edition.in_force``.

Sources (FIDE B.02 as amended): §8.3.1 (400-point rule, 2650 exemption
from 1 Oct 2025, once-per-event cap 1 Jan 2022 - 29 Feb 2024; rapid/blitz 600-point
rule from 1 Dec 2024), §8.3.3 (K; rapid/blitz K = 20 for everyone before 1 Oct 2022),
§7.1 and §8.2 (initial rating rules 2022 and 2024, floors 1000/1400, 2200 maximum).

Ambiguities kept (read as today, listed in the README's known differences): the
2022 once-per-event cap applies to the one game of largest difference for each
player, higher- or lower-rated; in rapid/blitz before 1 Oct 2022 K is 20 for
everyone, and a standard rating counts where a player has no rapid/blitz rating in
every edition (R&B §7.2.1 as in force from 2022, applied to the earlier ones too).
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from dataclasses import dataclass
from enum import Enum, StrEnum

from xl_fide._dates import parse_date_text
from xl_fide.errors import RuleError

CAP_DIFFERENCE = 400   # §8.3.1: a difference of more than 400 points counts as 400


class TimeControl(str, Enum):
    """The three FIDE rating lists (FIDE B.02 §1; Rapid & Blitz chapter §1)."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"

    @classmethod
    def parse(cls, value: object) -> "TimeControl":
        """Accept ``"standard"``/``"classical"``/``"std"``/``"s"``, ``"rapid"``/``"r"``,
        ``"blitz"``/``"b"`` (any case) or a :class:`TimeControl`; else :class:`RuleError`."""
        if isinstance(value, TimeControl):
            return value
        text = str(value).strip().lower() if value is not None else ""
        aliases = {"standard": cls.STANDARD, "classical": cls.STANDARD, "std": cls.STANDARD,
                   "s": cls.STANDARD, "": cls.STANDARD, "rapid": cls.RAPID, "r": cls.RAPID,
                   "blitz": cls.BLITZ, "b": cls.BLITZ}
        try:
            return aliases[text]
        except KeyError:
            raise RuleError(
                f"time_control must be standard, rapid or blitz, got {value!r}") from None


class Cap400(str, Enum):
    """How the 400-point rule of FIDE B.02 §8.3.1 applies."""

    EVERY_GAME = "every_game"          # 2017-07-01 .. 2021-12-31 and from 2024-03-01
    ONCE_PER_EVENT = "once_per_event"  # 2022-01-01 .. 2024-02-29: largest difference only


class InitialRule(str, Enum):
    """Method of the initial rating (FIDE B.02 §8.2)."""

    RULE_2022 = "2022"  # Ra = average; <= 50 %: Ra + dp(p); above: Ra + 20 per half point
    RULE_2024 = "2024"  # two hypothetical 1800 draws; Ra + dp(p); maximum 2200


@dataclass(frozen=True)
class RuleEdition:
    """The rules in force from ``in_force`` for one time control.

    Attributes are the rule switches, each documented by its article in the
    project reference; ``id`` is what results and reports show.
    """

    id: str
    in_force: _dt.date
    time_control: TimeControl
    cap400: Cap400
    exempt_2650: bool           # §8.3.1: player rated >= 2650 uses the real difference
    rapid_blitz_600: bool       # R&B: not rated when D >= 600 and one player > 2600
    k_fixed_20: bool            # R&B before 2022-10-01: K = 20 for everyone
    initial_rule: InitialRule
    rating_floor: int           # lowest published rating (below: unrated)
    initial_max: int | None     # highest initial rating (None: no maximum)
    initial_min_games: int      # §8.2: games against rated opponents for a first rating
    standard_counts_in_rb: bool  # R&B: unrated in R/B but standard-rated = rated with it
    note: str = ""

    @property
    def cap_difference(self) -> int:
        """The 400 of the 400-point rule (FIDE B.02 §8.3.1), the same in every edition."""
        return CAP_DIFFERENCE


def _editions() -> tuple[RuleEdition, ...]:
    # Each switch changes on a documented date; an edition exists per change date and
    # time control. Read as: (date, rules for standard, rules for rapid/blitz).
    out: list[RuleEdition] = []
    steps = [
        # date, cap400, exempt_2650 (standard), rb600, rb K fixed 20, initial, floor, max
        (_dt.date(2017, 7, 1), Cap400.EVERY_GAME, False, False, True,
         InitialRule.RULE_2022, 1000, None,
         "FIDE B.02 2017: 400-point rule in every game; initial rating by the "
         "average + dp / +20 per half point method, floor 1000"),
        (_dt.date(2022, 1, 1), Cap400.ONCE_PER_EVENT, False, False, True,
         InitialRule.RULE_2022, 1000, None,
         "FIDE B.02 2022: 400-point rule once per event (largest difference); "
         "2022 initial rating rule, floor 1000"),
        (_dt.date(2022, 10, 1), Cap400.ONCE_PER_EVENT, False, False, False,
         InitialRule.RULE_2022, 1000, None,
         "FIDE B.02 2022, rapid & blitz K by the standard rules from 1 Oct 2022"),
        (_dt.date(2024, 3, 1), Cap400.EVERY_GAME, False, False, False,
         InitialRule.RULE_2024, 1400, 2200,
         "FIDE B.02 2024: 400-point rule in every game; initial rating with two "
         "hypothetical 1800 draws, floor 1400, maximum 2200"),
        (_dt.date(2024, 12, 1), Cap400.EVERY_GAME, False, True, False,
         InitialRule.RULE_2024, 1400, 2200,
         "FIDE B.02 2024, rapid & blitz: games 600+ apart with a player above 2600 "
         "not rated (from 1 Dec 2024)"),
        (_dt.date(2025, 10, 1), Cap400.EVERY_GAME, True, True, False,
         InitialRule.RULE_2024, 1400, 2200,
         "FIDE B.02 2024 amended 1 Oct 2025: a standard player rated 2650+ uses the "
         "real difference"),
    ]
    last: dict[TimeControl, tuple] = {}
    for date, cap, exempt, rb600, kfixed, initial, floor, maximum, note in steps:
        for tc in TimeControl:
            rb = tc is not TimeControl.STANDARD
            switches = (cap, exempt and not rb, rb600 and rb, kfixed and rb, initial, floor, maximum)
            if last.get(tc) == switches:
                continue  # nothing changed for this time control on that date
            last[tc] = switches
            out.append(RuleEdition(
                id=f"FIDE-{date.isoformat()}-{tc.value}",
                in_force=date,
                time_control=tc,
                cap400=cap,
                exempt_2650=exempt and not rb,
                rapid_blitz_600=rb600 and rb,
                k_fixed_20=kfixed and rb,
                initial_rule=initial,
                rating_floor=floor,
                initial_max=maximum,
                initial_min_games=5,
                standard_counts_in_rb=rb,
                note=note,
            ))
    return tuple(out)


EDITIONS: tuple[RuleEdition, ...] = _editions()
_BY_ID = {e.id: e for e in EDITIONS}


def edition(edition_id: str) -> RuleEdition:
    """The edition with this id (e.g. ``"FIDE-2024-03-01-standard"``); else :class:`RuleError`."""
    try:
        return _BY_ID[edition_id]
    except KeyError:
        known = ", ".join(sorted(_BY_ID))
        raise RuleError(f"unknown rule edition {edition_id!r}; known: {known}") from None


def parse_date(value: object) -> _dt.date:
    """A date from a :class:`datetime.date`/``datetime`` or text ``YYYY-MM-DD`` (``/``
    and ``.`` accepted as separators; the other forms of
    :func:`~xl_fide._dates.parse_date_text` too). Raises :class:`RuleError` otherwise."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str) and len(value) <= 40:
        found, _ = parse_date_text(value)
        if found is not None:
            return found
    raise RuleError(f"event_date must be a date like 2025-10-01, got {value!r}")


def rules_for(event_date: object = None, time_control: object = TimeControl.STANDARD) -> RuleEdition:
    """The rule edition in force on ``event_date`` for ``time_control``.

    FIDE B.02 §8.3 (ratings and rules of the list in force when the event started).
    ``event_date``: a date or ISO text; ``None`` means the newest edition (today's
    rules). Dates before 2017-07-01 get the 2017 edition (check
    ``event_date < result.in_force`` to report the fallback).
    Raises :class:`RuleError` for a bad date or time control.
    """
    tc = TimeControl.parse(time_control)
    candidates = [e for e in EDITIONS if e.time_control is tc]
    if event_date is None:
        return max(candidates, key=lambda e: e.in_force)
    date = parse_date(event_date)
    in_force = [e for e in candidates if e.in_force <= date]
    if not in_force:
        return min(candidates, key=lambda e: e.in_force)
    return max(in_force, key=lambda e: e.in_force)


@functools.lru_cache(maxsize=256)       # a pure function of two texts, asked per event
def guess_time_control(text: str, coded: str = "") -> TimeControl | None:
    """The time control of a TRF 222 coded field (``5400+30``) or a 122 free text.

    FIDE B.02 §1 and the Rapid & Blitz rules §1, timed for 60 moves: base + 60 x
    increment. Standard from 60 minutes, rapid above 10 and below 60, blitz above 3
    up to 10. The coded field is seconds (``M/S+I`` periods joined by ``:``; unequal
    clocks ``W...-B...``): its first period decides. Returns ``None`` when nothing
    can be read.
    """
    minutes: float | None = None
    m = re.match(r"\s*W?(?:\d+/)?(\d+)(?:\+(\d+))?", coded or "")
    if coded and m:
        base, increment = int(m.group(1)), int(m.group(2) or 0)
        minutes = (base + 60 * increment) / 60
    else:
        low = (text or "").lower()
        if re.fullmatch(r"\s*(standard|classical|classic|std)\s*", low):
            return TimeControl.STANDARD
        if re.search(r"\bblitz\b", low):
            return TimeControl.BLITZ
        if re.search(r"\brapid\b|\brápid", low):
            return TimeControl.RAPID
        mm = re.search(r"(\d+)\s*(?:'|min|m\b|minutes|minutos)", low)
        hh = re.search(r"(\d+(?:[.,]\d+)?)\s*(?:h|hours?|horas?)\b", low)
        inc = re.search(r"\+\s*(\d+)\s*(?:\"|s|sec|seconds|segundos)?", low)
        if mm or hh:
            minutes = (int(mm.group(1)) if mm else 0) + (
                float(hh.group(1).replace(",", ".")) * 60 if hh else 0)
            if inc:
                minutes += int(inc.group(1))     # 60 moves x inc seconds = inc minutes
        else:
            m2 = re.match(r"\s*(\d+)\s*\+\s*(\d+)\s*$", low)
            if m2:
                minutes = int(m2.group(1)) + int(m2.group(2))
    if minutes is None:
        return None
    if minutes >= 60:
        return TimeControl.STANDARD
    if minutes > 10:
        return TimeControl.RAPID
    if minutes > 3:
        return TimeControl.BLITZ
    return None


# --- one event's options and the rules they resolve to ------------------------------


class TimeControlSource(StrEnum):
    """Where the event's time control came from."""

    GIVEN = "given"           # the caller's option
    CODED = "222"             # TRF-2026 coded time control (e.g. 5400+30)
    TEXT = "122"              # the free text of the 122 record
    DEFAULT = "default"       # nothing readable: standard


@dataclass(frozen=True)
class EventOptions:
    """What a caller asks of one event, before it is resolved (FIDE B.02 §8.3).

    ``event_date``: the rules and K as on this date (default: the file's start date);
    ``time_control``: overrides the file's 222/122 records; ``k``: one K for every
    rated player (FIDE B.02 §8.3.3 otherwise); ``today``: only the junior rule's year
    when the event has no date. Resolve with :func:`xl_fide.event_rules`.
    Raises :class:`~xl_fide.errors.RuleError` for a time control that is not one.
    """

    event_date: _dt.date | None = None
    time_control: TimeControl | None = None
    k: int | None = None
    today: _dt.date | None = None

    def __post_init__(self) -> None:
        if self.time_control is not None and not isinstance(self.time_control, TimeControl):
            object.__setattr__(self, "time_control", TimeControl.parse(self.time_control))
        if self.event_date is not None and not isinstance(self.event_date, _dt.date):
            object.__setattr__(self, "event_date", parse_date(self.event_date))


@dataclass(frozen=True)
class EventRules:
    """One event resolved: its rules date, time control and rule edition (FIDE B.02 §8.3).

    ``date`` is the rules date, the given event date else the file's start date
    (``None``: none known, the newest edition); ``end_date`` the event's last day (not
    before ``date``; the K list is the one before its rating period); ``period_year``
    the year the junior K rule counts from (``None`` when no date is known and no
    ``today`` was given); ``options`` what it was resolved from (``options.k``: a K
    given for everyone).
    """

    date: _dt.date | None
    time_control: TimeControl
    time_control_source: TimeControlSource
    edition: RuleEdition
    period_year: int | None
    notes: tuple[str, ...] = ()
    end_date: _dt.date | None = None
    options: EventOptions = EventOptions()

    @property
    def k(self) -> int | None:
        """The K given for every rated player (``None``: FIDE B.02 §8.3.3 decides)."""
        return self.options.k
