"""The shipped TRF test files are regular: every column where FIDE C.04 Annex 2
(TRF16) puts it, so no test silently reads a shifted line."""

from pathlib import Path

import pytest

from xl_fide.trf import read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"

# files meant to be irregular (none today: every file in tests/data/trf is a real or a
# made-up event in the published layout; an irregular one would be named here with why)
IRREGULAR: frozenset[str] = frozenset()


@pytest.mark.parametrize("path", sorted(DATA.glob("*.trf")), ids=lambda p: p.name)
def test_every_shipped_trf_reads_without_warnings(path):
    if path.name in IRREGULAR:
        pytest.skip("irregular on purpose")
    assert read_trf(path).warnings == ()


@pytest.mark.parametrize("name", ["mini_trf2026_blitz_222.trf", "mini_trf2026_rapid_222.trf"])
def test_gamma_is_read_from_the_right_columns(name):
    # H10 #4: 001 line of Gamma, Carl: federation at columns 54-56, FIDE id 58-68
    # (3000003), birth 70-79 (1970), points 81-84 (0.5), rank 86-89 (3), a H bye in round 1
    gamma = read_trf(DATA / name).players[2]
    assert (gamma.name, gamma.federation, gamma.fide_id, gamma.birth_year) == \
        ("Gamma, Carl", "SUI", 3000003, 1970)
    assert gamma.rating is None and gamma.games[0].code == "H"
