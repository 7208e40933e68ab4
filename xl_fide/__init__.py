"""xl-fide: FIDE chess rating calculations (FIDE Handbook B.02 Rating Regulations).

The engine is pure Python and exact (ratings ``int``, scores in half points, PD and
ΔR in integer hundredths). The main job::

    from xl_fide import EventOptions, build_report, read_trf
    report = build_report(read_trf("event.trf"), EventOptions(k=20))

Public surface (imported on first use, so ``import xl_fide`` stays cheap):

* the main job: :func:`read_trf` (a :class:`Tournament`), :func:`event_rules`
  (:class:`EventOptions` in, :class:`EventRules` out), :func:`build_report`
  (:class:`Report` of :class:`ReportRow`), :func:`build_period` (:class:`PeriodBuilder`: one
  event at a time)
* tables: :func:`pd_for_difference`, :func:`dp_for_p` (B.02 §8.1)
* rule editions: :func:`rules_for`, :class:`TimeControl` (B.02 §8.3)
* ratings: :func:`expected_score`, :func:`rate_event`, :func:`rate_period`,
  :func:`k_factor`, :func:`cap_k` (B.02 §8.3)
* unrated players: :func:`initial_rating` (B.02 §8.2)
* performances: :func:`performance_rating`, :func:`norm_performance`,
  :func:`tournament_performance_rating`, :func:`perfect_tournament_performance`
* whole events: :func:`rate_crosstable`; many players at once: :func:`rate_period_batch`
* one-off list adjustments: :func:`adjust_2024` (1 Mar 2024), :func:`adjust_rb_2022` (1 Oct 2022)
"""

from __future__ import annotations

from xl_fide._lazy import lazy_attribute

from xl_fide._version import __version__

TYPE_CHECKING = False     # not typing's: ``import xl_fide`` does not import typing

#: The module that defines each public name.
_BY_MODULE: dict[str, tuple[str, ...]] = {
    "xl_fide.trf": ("read_trf",),
    "xl_fide.tournament": ("Tournament",),
    "xl_fide.event.resolve": ("event_rules",),
    "xl_fide.rules.editions": (
        "EventOptions", "EventRules", "EDITIONS", "RuleEdition", "TimeControl",
        "rules_for",
    ),
    "xl_fide.event.report": ("build_report", "Report", "ReportRow"),
    "xl_fide.event.period": ("build_period", "PeriodBuilder", "PeriodReport"),
    "xl_fide.rules.adjustments": ("adjust_2024", "adjust_rb_2022"),
    "xl_fide.rules.batch": ("BatchResult", "rate_period_batch"),
    "xl_fide.errors": ("InputError", "RuleError", "TrfError", "WorkbookError", "XlFideError"),
    "xl_fide.rules.event": ("Entrant", "PlayerResult", "rate_crosstable"),
    "xl_fide.rules.initial": ("InitialRating", "initial_rating"),
    "xl_fide.rules.performance": (
        "norm_performance", "perfect_tournament_performance", "performance_rating",
        "tournament_performance_rating",
    ),
    "xl_fide.rules.rating": ("cap_k", "expected_score", "k_factor", "rate_event", "rate_period"),
    "xl_fide.rules.results": ("GameResult", "parse_result"),
    "xl_fide.rules.rounding": ("round_half_away", "round_half_up"),
    "xl_fide.rules.tables": ("dp_for_p", "p_hundredths", "pd_for_difference"),
}
_EXPORTS = {name: module for module, names in _BY_MODULE.items() for name in names}

__all__ = sorted([*_EXPORTS, "__version__"])


def __getattr__(name: str) -> Any:
    return lazy_attribute(globals(), _EXPORTS, name)


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from typing import Any

    from xl_fide.event.resolve import event_rules
    from xl_fide.errors import InputError, RuleError, TrfError, WorkbookError, XlFideError
    from xl_fide.event.period import PeriodBuilder, PeriodReport, build_period
    from xl_fide.event.report import Report, ReportRow, build_report
    from xl_fide.rules.adjustments import adjust_2024, adjust_rb_2022
    from xl_fide.rules.batch import BatchResult, rate_period_batch
    from xl_fide.rules.editions import (
        EDITIONS,
        EventOptions,
        EventRules,
        RuleEdition,
        TimeControl,
        rules_for,
    )
    from xl_fide.rules.event import Entrant, PlayerResult, rate_crosstable
    from xl_fide.rules.initial import InitialRating, initial_rating
    from xl_fide.rules.performance import (
        norm_performance,
        perfect_tournament_performance,
        performance_rating,
        tournament_performance_rating,
    )
    from xl_fide.rules.rating import cap_k, expected_score, k_factor, rate_event, rate_period
    from xl_fide.rules.results import GameResult, parse_result
    from xl_fide.rules.rounding import round_half_away, round_half_up
    from xl_fide.rules.tables import dp_for_p, p_hundredths, pd_for_difference
    from xl_fide.trf import read_trf
    from xl_fide.tournament import Tournament
