"""xl-fide: FIDE chess rating calculations (FIDE Handbook B.02 Rating Regulations).

The engine is pure Python and exact (ratings ``int``, scores in half points, PD and
ΔR in integer hundredths). Public surface:

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

from .adjustments import adjust_2024, adjust_rb_2022
from .batch import BatchResult, rate_period_batch
from .editions import EDITIONS, RuleEdition, TimeControl, rules_for
from .errors import InputError, RuleError, TrfError, WorkbookError, XlFideError
from .event import Entrant, PlayerResult, rate_crosstable
from .initial import InitialRating, initial_rating
from .performance import (
    norm_performance,
    perfect_tournament_performance,
    performance_rating,
    tournament_performance_rating,
)
from .rating import cap_k, expected_score, k_factor, rate_event, rate_period
from .results import GameResult, parse_result
from .rounding import round_half_away, round_half_up
from .tables import dp_for_p, p_hundredths, pd_for_difference

__version__ = "0.1.0"

__all__ = [
    "BatchResult", "EDITIONS", "Entrant", "GameResult", "InitialRating", "InputError", "PlayerResult",
    "RuleEdition", "RuleError", "TimeControl", "TrfError", "WorkbookError", "XlFideError",
    "__version__", "adjust_2024", "adjust_rb_2022", "cap_k", "dp_for_p", "expected_score", "initial_rating", "k_factor",
    "norm_performance", "p_hundredths", "parse_result", "pd_for_difference",
    "perfect_tournament_performance", "performance_rating", "rate_crosstable",
    "rate_event", "rate_period", "rate_period_batch", "round_half_away", "round_half_up", "rules_for",
    "tournament_performance_rating",
]
