"""The cached values of the player sheet (:mod:`xl_fide.excel._player`): every formula
cell of the Player and PlayerCalc sheets, as the sheet computes it from the cells
:func:`~xl_fide.excel._player._fill` types in.

One truth: every figure the engine computes is the engine's own
(:func:`xl_fide.event.player_period.rate_player`, what ``xl-fide rate`` prints): per game
Ro used, PD and ΔR; per event N, W, ΣΔR, K used and K×ΣΔR; the period's n, K used, change,
rounding, computed and new rating, publication and initial rating; K by rule
(:func:`xl_fide.rules.rating.k_factor`, or FIDE_K itself in the UDF variant). The helper
cells that no engine computes (edition lookups, keys, masks, the 400-point rule's
largest game, the readers of the typed cells) are worked out here once, from the same
typed values; tests/excel/test_player_cached.py compares every cell with LibreOffice's
and Gnumeric's recalculation.

Only clean inputs reach this module (the CLI's checked CSV and options): every typed
cell reads as itself, no problem message is shown.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from xl_fide.errors import XlFideError
from xl_fide.excel import _player as P
from xl_fide.rules.editions import TimeControl
from xl_fide.rules.rating import K_CAP_PRODUCT, k_factor
from xl_fide.rules.editions import rules_for

Cells = dict[str, dict[str, object]]
_EPOCH = _dt.date(1899, 12, 30)


def _serial(day: _dt.date | None) -> int | None:
    return None if day is None else (day - _EPOCH).days


def _num(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _or0(x: object) -> Any:
    return x if _num(x) else 0


class _Editions:
    """The edition switch table as PlayerCalc holds it (a blank cell reads as 0)."""

    def __init__(self) -> None:
        rows, _ = P._edition_table()
        self.rows: list[list[Any]] = [[0 if v == "" else v for v in row] for row in rows]

    def match(self, key: int) -> int:
        """MATCH(key, keys, 1): the 1-based row of the largest key <= ``key``."""
        return max(i for i, row in enumerate(self.rows, 1) if row[0] <= key)

    def at(self, row: int, col: int) -> Any:
        return self.rows[row - 1][col]


def _key(tcidx: int, serial: int | None) -> int:
    return tcidx * 100000 + (max(serial, P._OLDEST_SERIAL) if serial is not None
                             else P._TODAY_KEY)


def player_values(games: Any, player: Any, udf: bool, today: _dt.date | None = None) -> Cells:
    """{sheet: {A1: value}} of every formula cell of a player sheet filled with ``games``
    (a :class:`xl_fide._games.GamesFile` or ``None``) and ``player`` (a
    :class:`~xl_fide.event.player_period.PlayerInputs` or ``None``); ``udf``: the FIDE_*
    variant. ``today`` (default: today) gives the year of a sheet without an event."""
    return _Model(games, player, udf, today or _dt.date.today()).cells


class _Model:
    def __init__(self, games: Any, player: Any, udf: bool, today: _dt.date) -> None:
        self.udf = udf
        self.ed = _Editions()
        self.calc: dict[str, Any] = {}
        self.sheet: dict[str, Any] = {}
        self.cells: Cells = {P.PLAYER: self.sheet, P.PCALC: self.calc}
        self.g: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []
        self.games: list[dict[str, Any]] = []
        self.typed: dict[str, Any] = {}
        self.period: Any = None
        events = list(games.events) if games is not None else []
        tc = (getattr(player, "time_control", None)
              or (games.time_control if games is not None else None))
        self.tc = tc or TimeControl.STANDARD
        self.tcidx = P._TC_INDEX[self.tc.value]
        self.player = player
        self.events = events
        if events:
            from xl_fide.event.player_period import PlayerInputs, rate_player
            self.period = rate_player(games, player or PlayerInputs())
        self._inputs()
        self._events_first(today)
        self._games()
        self._events_then()
        self._globals_then()
        self._player_sheet()

    # ------------------------------------------------------------------ helpers
    def gset(self, key: str, value: object) -> None:
        self.g[key] = value
        self.calc[f"{P._L(P.GLOBAL_COL + 1)}{2 + P._GLOBALS.index(key)}"] = value

    def cset(self, col: int, row: int, value: object) -> None:
        self.calc[f"{P._L(col)}{row}"] = value

    def pset(self, col: int, row: int, value: object) -> None:
        self.sheet[f"{P._L(col)}{row}"] = value

    # ------------------------------------------------------------------ inputs
    def _inputs(self) -> None:
        p = self.player
        typed = {k: (getattr(p, attr, None) if p is not None else None) for k, attr in (
            ("ro", "Ro"), ("born", "birth_year"), ("games", "career_games"),
            ("peak", "peak_rating"), ("kgiven", "K"))}
        self.typed = typed
        for key, value in typed.items():
            self.gset(f"v_{key}", "" if value is None else value)
        self.gset("v_tc", 1)
        for key in ("inmsg", "problem"):
            self.gset(key, "")
        for key in ("evbad", "gbad", "below"):
            self.gset(key, 0)
        self.gset("tcidx", self.tcidx)

    def _events_first(self, today: _dt.date) -> None:
        """The event rows' typed values, edition lookups and the list after the period."""
        ed = self.ed
        for i in range(1, P.MAX_EVENTS + 1):
            r = P.EV_FIRST + i - 1
            ev = self.events[i - 1] if i <= len(self.events) else None
            start = _serial(ev.start) if ev else None
            key = _key(self.tcidx, start)
            row = ed.match(key)
            e: dict[str, Any] = {"r": r, "ev": ev, "used": 1 if ev else 0, "start": start,
                 "end": _serial(ev.end) if ev else None, "key": key, "row": row,
                 "ro_in": ev.Ro if ev and ev.Ro is not None else "",
                 "k_in": ev.K if ev and ev.K is not None else ""}
            for name, col in (("once", 2), ("exempt", 3), ("rb", 4), ("k20", 5), ("i24", 6),
                              ("floor", 7), ("max", 8), ("ming", 9), ("msg", 10)):
                e[name] = ed.at(row, col)
            self.rows.append(e)
        ends = [e["end"] for e in self.rows if e["end"] is not None]
        end = max(ends) if ends else 0
        self.gset("end", end)
        if end > 0:
            day = _EPOCH + _dt.timedelta(days=end)
            lkey = self.tcidx * 100000 + max(_serial(day.replace(day=1)) or 0, P._OLDEST_SERIAL)
        else:
            lkey = self.tcidx * 100000 + P._TODAY_KEY
        lrow = ed.match(lkey)
        self.gset("lkey", lkey)
        self.gset("lrow", lrow)
        self.gset("lid", ed.at(lrow, 1))
        self.gset("lfloor", ed.at(lrow, 7))
        self.gset("year", (_EPOCH + _dt.timedelta(days=end)).year if end > 0 else today.year)
        v_ro = self.g["v_ro"]
        self.ro = v_ro if _num(v_ro) and v_ro >= self.g["lfloor"] else 0
        self.gset("ro", self.ro)
        used = [e for e in self.rows if e["used"]]
        orders = {i: e["start"] * 100 + i for i, e in enumerate(self.rows, 1) if e["used"]}
        first = min(orders, key=orders.__getitem__) if orders else 0
        last = max(orders, key=orders.__getitem__) if orders else 0
        self.first, self.last, self.orders = first, last, orders
        self.gset("first", first)
        self.gset("last", last)
        at = (lambda i, k: self.rows[i - 1][k])
        self.gset("k20", at(first, "k20") if first else 0)
        self.gset("ifloor", at(last, "floor") if last else self.g["lfloor"])
        self.gset("i24", at(last, "i24") if last else 1)
        self.gset("imax", at(last, "max") if last else 0)
        self.gset("iming", at(last, "ming") if last else 5)
        self.gset("once", 1 if any(e["once"] == 1 for e in used) else 0)
        self.gset("used", len(used))
        for e in self.rows:
            ro_in = e["ro_in"]
            e["ro_used"] = ((ro_in if _num(ro_in) else self.ro)
                            if e["used"] and self.ro > 0 else 0)
            e["cap"] = 0 if e["exempt"] == 1 and e["ro_used"] >= 2650 else 1

    def _games(self) -> None:
        """The game rows, with the engine's calculation lines."""
        period = self.period
        lines: list[Any] = []
        for i, ev in enumerate(self.events):
            pev = period.events[i] if period is not None else None
            for j, g in enumerate(ev.games):
                lines.append((i + 1, g, pev.games[j] if pev is not None else None))
        for n in range(P.MAX_GAMES):
            r = P.G_FIRST + n
            ev_i, row, line = lines[n] if n < len(lines) else (0, None, None)
            x: dict[str, Any] = {"r": r, "ev": ev_i, "row": row, "line": line}
            if row is None:
                x.update(used=0, ropp_in="", ropp=0, rkey="", played=0, score=0)
            else:
                from xl_fide.excel._player import _sheet_result
                rkey = "".join(_sheet_result(row).split(" "))
                played = 1 if row.result.played else 0
                x.update(used=1, ropp_in=row.R_opp if row.R_opp is not None else "",
                         ropp=row.R_opp or 0, rkey=rkey, played=played,
                         score=row.result.half_points if played else 0)
            e = self.rows[ev_i - 1] if ev_i else None
            ro = e["ro_used"] if e else 0
            opp = x["ropp"]
            x["ro"] = ro
            x["floor"] = e["floor"] if e else 0
            x["rb"] = (0 if e["rb"] == 1 and abs(ro - opp) >= 600 and (ro > 2600 or opp > 2600)
                       else 1) if e else 0
            x["x"] = (opp if e and x["played"] == 1 and ro > 0 and opp > 0
                      and opp >= x["floor"] and x["rb"] == 1 else 0)
            over = x["x"] > 0 and abs(ro - x["x"]) > 400
            x["over"] = over
            x["key"] = abs(ro - x["x"]) * 1000 + 1000 - n if over else 0
            x["u"] = (opp if e and x["played"] == 1 and self.ro == 0 and opp > 0
                      and opp >= self.g["ifloor"] else 0)
            self.games.append(x)
        for x in self.games:
            e = self.rows[x["ev"] - 1] if x["ev"] else None
            if e is None:
                x["cap"] = 1
            elif e["once"] == 1:
                largest = not any(y["ev"] == x["ev"] and y["key"] > x["key"] for y in self.games)
                x["cap"] = 1 if x["over"] and largest else 0
            else:
                x["cap"] = e["cap"]
            if x["x"] > 0:
                calc = x["line"].calc
                x["pd"], x["dr"] = calc.PD, calc.delta_R      # the engine's
            else:
                x["pd"] = x["dr"] = 0

    def _events_then(self) -> None:
        n = 0
        for i, e in enumerate(self.rows, 1):
            mine = [x for x in self.games if x["ev"] == i]
            e["N"] = sum(1 for x in mine if x["x"] > 0)
            e["W"] = sum(x["score"] for x in mine if x["x"] > 0)
            e["SDR"] = sum(x["dr"] for x in mine)
            e["NU"] = sum(1 for x in mine if x["u"] > 0)
            e["WU"] = sum(x["score"] for x in mine if x["u"] > 0)
            e["SRU"] = sum(x["u"] for x in mine)
            n += e["N"]
        self.n = n if self.ro > 0 else 0
        self.gset("n", self.n)
        period = self.period
        K = self._k_cell()
        for i, e in enumerate(self.rows, 1):
            e["K"] = e["k_in"] if _num(e["k_in"]) else K
            if e["ro_used"] > 0:
                pe = period.events[i - 1]                       # the engine's
                assert (pe.N, pe.sum_delta_R, pe.W_half) == (e["N"], e["SDR"], e["W"])
                e["KU"], e["CHG"] = pe.K, pe.change
            else:
                e["KU"] = e["CHG"] = 0

    def _k_rule(self) -> object:
        """K by rule as :func:`~xl_fide.rules.rating.k_factor` decides it (what FIDE_K
        returns; the native formula is its copy); a birth year it refuses: the native
        formula's #N/A, FIDE_K's error (#VALUE!)."""
        if self.ro == 0:
            return ""
        t = self.typed
        first = self.rows[self.first - 1]["start"] if self.first else None
        edition = rules_for(_EPOCH + _dt.timedelta(days=first) if first else None, self.tc)
        try:
            return k_factor(self.ro, birth_year=t["born"], career_games=t["games"],
                            peak_rating=t["peak"], period_year=self.g["year"], edition=edition)
        except XlFideError:
            return "#VALUE!" if self.udf else "#N/A"

    def _k_cell(self) -> object:
        self.krule = self._k_rule()
        kg = self.g["v_kgiven"]
        self.K = "" if self.ro == 0 else (kg if _num(kg) else self.krule)
        return self.K

    def _globals_then(self) -> None:
        f = self.first
        at = (lambda k: self.rows[f - 1][k] if f else 0)
        ex = 1 if f and at("NU") > 0 and at("WU") == 0 else 0
        ni = sum(e["NU"] for e in self.rows) - ex * at("NU")
        wi = sum(e["WU"] for e in self.rows)
        sri = sum(e["SRU"] for e in self.rows) - ex * at("SRU")
        self.gset("ex", ex)
        self.gset("ni", ni)
        self.gset("wi", wi)
        self.gset("sri", sri)
        init = self.period.initial if self.period is not None else None
        if ni > 0:
            assert init is not None and init.N == ni and init.W_half == wi
            ival: Any = init.value                       # the engine's
        else:
            ival = ""
        self.gset("ival", ival)
        no = "not published: "
        if ni == 0:
            shown: object = no + ("zero score against rated opponents: a first event without "
                                  "a point is ignored (FIDE B.02 §8.2)" if ex == 1
                                  else "no games against rated opponents")
        elif ni < self.g["iming"]:
            shown = (f"{no}only {ni} game{'' if ni == 1 else 's'} against rated opponents; "
                     f"at least {self.g['iming']} are needed")
        elif ival < self.g["ifloor"]:
            shown = f"{no}{ival} is below the rating floor {self.g['ifloor']}"
        elif self.g["imax"] > 0 and ival > self.g["imax"]:
            shown = self.g["imax"]
        else:
            shown = ival
        self.gset("ishown", shown)
        self.gset("total", sum(e["CHG"] for e in self.rows))

    # ------------------------------------------------------------------ cells
    def _player_sheet(self) -> None:
        g, ro, period = self.g, self.ro, self.period
        E, X = self.rows, self.games
        for i, e in enumerate(E, 1):
            r = e["r"]
            for col, key in ((P.E_USED, "used"), (P.E_KEY, "key"), (P.E_ED, "row"),
                             (P.E_ONCE, "once"), (P.E_EXEMPT, "exempt"), (P.E_RB, "rb"),
                             (P.E_K20, "k20"), (P.E_FLOOR, "floor"), (P.E_I24, "i24"),
                             (P.E_MAX, "max"), (P.E_MING, "ming"), (P.E_MSG, "msg"),
                             (P.E_RO, "ro_used"), (P.E_CAP, "cap"), (P.E_N, "N"),
                             (P.E_W, "W"), (P.E_SDR, "SDR"), (P.E_K, "K"), (P.E_KU, "KU"),
                             (P.E_CHG, "CHG"), (P.E_NU, "NU"), (P.E_WU, "WU"),
                             (P.E_SRU, "SRU"), (P.E_ROIN, "ro_in"), (P.E_KIN, "k_in")):
                self.cset(col, r, e[key])
            self.cset(P.E_START, r, "" if e["start"] is None else e["start"])
            self.cset(P.E_END, r, "" if e["end"] is None else e["end"])
            ev = e["ev"]
            self.cset(P.E_NAME, r, _name_key(ev.name) if ev else "")
            self.cset(P.E_WHY, r, "")
            self.cset(P.E_BAD, r, 0)
            self.cset(P.E_ORDER, r, self.orders.get(i, ""))
            live = e["used"] and ro > 0
            self.pset(7, r, (e["N"] if ro > 0 else e["NU"]) if e["used"] else "")
            self.pset(8, r, (e["W"] if ro > 0 else e["WU"]) / 2 if e["used"] else "")
            self.pset(9, r, e["SDR"] / 100 if live else "")
            self.pset(10, r, e["KU"] if live else "")
            self.pset(11, r, e["CHG"] / 100 if live else "")
        for x in X:
            r = x["r"]
            for col, key in ((P.X_EV, "ev"), (P.X_PLAYED, "played"), (P.X_SCORE, "score"),
                             (P.X_ROPP, "ropp"), (P.X_RO, "ro"), (P.X_FLOOR, "floor"),
                             (P.X_RB, "rb"), (P.X_X, "x"), (P.X_CAP, "cap"), (P.X_PD, "pd"),
                             (P.X_DR, "dr"), (P.X_U, "u"), (P.X_KEY, "key"),
                             (P.X_USED, "used"), (P.X_ROIN, "ropp_in"), (P.X_RKEY, "rkey")):
                self.cset(col, r, x[key])
            self.cset(P.X_WHY, r, "")
            self.cset(P.X_BAD, r, 0)
            rated = x["x"] > 0
            self.pset(7, r, x["ro"] if rated else "")
            self.pset(8, r, x["pd"] / 100 if rated else "")
            self.pset(9, r, x["dr"] / 100 if rated else "")
            self.pset(10, r, self._note(x))
        self._results()

    def _note(self, x: dict[str, Any]) -> object:
        if not x["used"]:
            return ""
        if x["played"] == 0:
            return "not rated: not played over the board"
        if x["ropp"] == 0:
            return "not rated: unrated opponent"
        if self.ro > 0:
            if x["x"] > 0:
                return ""
            return ("not rated: opponent below the floor" if x["ropp"] < x["floor"]
                    else "not rated: 600+ apart, one above 2600")
        return "" if x["u"] > 0 else "not rated: opponent below the floor"

    def _results(self) -> None:
        g, ro, p = self.g, self.ro, self.period
        row = P._ROW
        rated = ro > 0
        self.pset(4, row["krule"], self.krule)
        self.pset(4, row["k"], self.K)
        n = self.n
        K: Any = self.K
        kused: object = ""
        if rated and _num(K):
            kused = K_CAP_PRODUCT // n if K * n > K_CAP_PRODUCT else K
            if p is not None:
                assert kused == p.K                            # the engine's
        total = g["total"]
        rounded: Any = p.rating_change if rated and p is not None else (0 if rated else "")
        computed: Any = ro + rounded if rated else g["ival"]
        if rated and p is not None:
            assert computed == p.computed_rating
        used = g["used"]
        if used == 0:
            new: object = ""
        elif rated:
            new = computed if computed >= g["lfloor"] else f"not published: below {g['lfloor']}"
        else:
            new = g["ishown"]
        if p is not None:
            assert (new if isinstance(new, int) else None) == p.new_rating
        res = {
            "n": n if rated else g["ni"],
            "kused": kused,
            "change": total / 100 if rated else "",
            "rounded": rounded,
            "computed": "" if used == 0 else computed,
            "new": new,
            "published": "" if used == 0 else ("yes" if isinstance(new, int) else f"no: {new}"),
            "initial": "" if rated or used == 0 else g["ishown"],
            "rules": g["lid"],
        }
        for key, value in res.items():
            self.pset(11, row[key], value)
        self.pset(1, 13, P.ONCE_NOTE if g["once"] == 1 else "")


def _blank(value: object) -> object:
    return "" if value is None else value


def _name_key(name: str) -> str:
    """UPPER(TRIM(name)): TRIM drops spaces at the ends and keeps one between words."""
    return " ".join(part for part in str(name).split(" ") if part).upper()
