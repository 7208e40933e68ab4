"""The one whole-number validator (xl_fide.rules.values.as_int): budgets on number text
(issue 11: "1e999999999" hung a cell, "1e100000" gave Python's raw 4300-digit error,
messages reached 300 KB) and ASCII digits only (a superscript digit in a cell)."""

import subprocess
import sys
from pathlib import Path

import pytest

from xl_fide.cli._main import main
from xl_fide.errors import InputError
from xl_fide.rules.values import as_half_points, as_int, as_k, as_rating

ROOT = Path(__file__).parents[2]


def test_udf_with_a_huge_exponent_answers_at_once():
    # Decimal("1e999999999") is finite; turning it into an exact fraction never ends
    code = ("from xl_fide.udfs import FIDE_K\n"
            "try:\n    FIDE_K('1e999999999')\nexcept ValueError as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0
    message = proc.stdout.strip()
    assert message.startswith("rating ") and len(message) < 120 and "4300" not in message


@pytest.mark.parametrize("text", ["1e100000", "1" * 5000, "-1e100000"])
def test_huge_numbers_are_out_of_range_not_a_python_error(text):
    with pytest.raises(InputError) as err:
        as_rating(text)
    assert "4300" not in str(err.value) and len(str(err.value)) < 120
    with pytest.raises(InputError) as err:
        as_k(10 ** 100000)
    assert str(err.value) == "k must be at most 100, got a number of more than 30 digits"
    from xl_fide.udfs import FIDE_K
    with pytest.raises(InputError) as err:
        FIDE_K(text)
    assert len(str(err.value)) < 120


def test_messages_quote_a_value_briefly():
    with pytest.raises(InputError) as err:
        as_int("x" * 300_000, "rating")
    assert len(str(err.value)) < 120 and "at most 40" in str(err.value)   # MAX_NUMBER_TEXT
    with pytest.raises(InputError) as err:
        as_half_points("y" * 30, "score")
    assert len(str(err.value)) < 120


@pytest.mark.parametrize("text", ["²", "¹2", "١٢", "1_000", "0x10", " 2000 1"])
def test_only_ascii_digits(text):
    with pytest.raises(InputError):
        as_int(text, "n")


@pytest.mark.parametrize("text,value", [("2000", 2000), (" 2000.0 ", 2000), ("2e3", 2000),
                                        ("-5", -5), ("+7", 7)])
def test_number_text(text, value):
    assert as_int(text, "n") == value


def test_superscript_digit_in_a_workbook_cell_is_one_line(tmp_path, capsys):
    from openpyxl import load_workbook
    book = tmp_path / "book.xlsx"
    assert main(["crosstable", "--example", "-o", str(book), "-q"]) == 0
    wb = load_workbook(book)
    ws = wb["Cross-table"] if "Cross-table" in wb.sheetnames else wb.worksheets[0]
    cell = next(c for row in ws.iter_rows() for c in row if c.value == 1750)   # player 1's Ro
    cell.value = "17²0"
    wb.save(book)
    capsys.readouterr()
    code = main(["report", str(book)])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert cell.coordinate in err and "17²0" in err
