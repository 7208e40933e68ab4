"""A user trial: ``rate`` printed a change of zero as ``+0`` (and ``D +0``). As the report's
``Chg`` writes it (FIDE's pages show a gain with its sign): a zero change reads ``0``
(``0.00`` where decimals are shown), a gain ``+N``, a loss ``-N``; in ``rate``, ``period``,
``report --player`` and ``whatif``."""
from __future__ import annotations

import csv
import io

from xl_fide.cli._main import main
from xl_fide.rules.editions import rules_for
from xl_fide.rules.whatif import needed_for_change


def run(capsys, *argv):
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out


def test_rate_writes_a_zero_change_without_a_sign(capsys):
    # 20 draws against 1800 at Ro 1800: D 0, PD 0.50, ΔR 0.00 each; K 40 capped to 35
    # (40 x 20 > 700, B.02 §8.3.3); K×ΣΔR 0.00 -> 0
    out = run(capsys, "rate", "--rating", "1800", "--k", "40", "--date", "2025-03-01",
              *["--game=1800:½"] * 20)
    assert out.count(": D 0, PD 0.50, ΔR 0.00") == 20
    assert "total K×ΣΔR 0.00 -> 0 (rounded once, §8.3.4): new rating 1800" in out
    assert "+0" not in out


def test_rate_writes_a_gain_with_its_sign(capsys):
    # Ro 1800 beats 1700: D 100, PD 0.64 (B.02 §8.1.2 table), ΔR 0.36, K 40: 14.40 -> +14
    out = run(capsys, "rate", "--rating", "1800", "--k", "40", "--date", "2025-03-01",
              "--game", "1700:1")
    assert ": D +100, PD 0.64, ΔR 0.36" in out
    assert "total K×ΣΔR +14.40 -> +14 (rounded once, §8.3.4): new rating 1814" in out


def _draws(folder):
    files = []
    for name, day in (("Draw A", 1), ("Draw B", 8)):
        path = folder / f"{name[-1]}.trf"
        path.write_text("\n".join([
            f"012 {name}", f"042 2025/03/{day:02d}", f"052 2025/03/{day:02d}",
            "001    1 m    Alpha, A                          1800 SUI     1000001 1990/01/01"
            "  0.5    1     2 w =",
            "001    2 m    Beta, B                           1800 SUI     1000002 1991/01/01"
            "  0.5    2     1 b =",
        ]) + "\n", encoding="ascii")
        files.append(path)
    return files


def test_period_writes_a_zero_change_as_the_report_does(capsys, tmp_path):
    # a draw between two 1800s in each event: ΣΔR 0.00, change 0 for both (as report's Chg)
    files = _draws(tmp_path)
    out = run(capsys, "period", *files, "-q")
    assert out.count("  total: K×ΣΔR 0.00 -> 0, new rating 1800") == 2 and "+0" not in out
    rows = list(csv.DictReader(io.StringIO(run(capsys, "period", *files, "-q", "--format",
                                               "csv"))))
    assert [r["Chg"] for r in rows if not r["Event"]] == ["0", "0"]
    report = list(csv.DictReader(io.StringIO(run(capsys, "report", files[0], "-q", "--format",
                                                 "csv"))))
    assert [r["Chg"] for r in report] == ["0", "0"]


def test_report_player_month_by_month_writes_zero_without_a_sign(capsys):
    # the example's player 68 has no rated game in either month: 0 and 0, in all 0
    out = run(capsys, "report", "--example", "--player", "68", "-q")
    assert "Month by month: 0 0 = 0, each rounded in its month" in out


def test_whatif_writes_zero_without_a_sign():
    # Ro 1800, K 20, one game left against 1800: a loss gives -10, a draw 0 (ΔR 0.00)
    need = needed_for_change(1800, [], [1800], 20, 0, rules_for("2025-03-01"))
    assert need.points == 0.5
    assert need.detail == "0.5/1 gives 0 (K x ΣΔR 0.00, K 20)"


def test_period_csv_signs_a_gain_as_the_report_csv(capsys, tmp_path):
    # Alpha (1800) beats Beta (1800): D 0, PD 0.50, ΔR ±0.50, K 20: K×ΣΔR ±10.00 -> ±10
    path = tmp_path / "w.trf"
    path.write_text("\n".join([
        "012 Win Open", "042 2025/03/01", "052 2025/03/01",
        "001    1 m    Alpha, A                          1800 SUI     1000001 1990/01/01"
        "  1.0    1     2 w 1",
        "001    2 m    Beta, B                           1800 SUI     1000002 1991/01/01"
        "  0.0    2     1 b 0",
    ]) + "\n", encoding="ascii")
    period = list(csv.DictReader(io.StringIO(run(capsys, "period", path, "-q", "--format",
                                                 "csv"))))
    report = list(csv.DictReader(io.StringIO(run(capsys, "report", path, "-q", "--format",
                                                 "csv"))))
    expected = [("+10.00", "+10"), ("-10.00", "-10")]
    assert [(r["K×ΣΔR"], r["Chg"]) for r in report] == expected
    assert [(r["K×ΣΔR"], r["Chg"]) for r in period if not r["Event"]] == expected
    assert [r["K×ΣΔR"] for r in period if r["Event"]] == ["+10.00", "-10.00"]
