"""Issue 35: the report's and the period's JSON are written without the standard
encoder's per-call nested functions (with ``indent`` each ``json.dumps`` call makes a
set of functions referring to each other: a cycle the command line, which pauses the
cyclic collector while it rates and writes, would hold once per player), the same text
``json.dumps(doc, ensure_ascii=False, indent=2)`` writes."""

import gc
import json

import pytest

from tests.event.test_period_streaming import first_event, second_event
from xl_fide.cli._presenters import json_text, period_json, to_json, to_json_parts
from xl_fide.event.period import build_period
from xl_fide.event.report import build_report

VALUES = [
    None, True, False, 0, -7, 2**70, 0.5, -0.0, 1e20, 1.5e-7, "", "Ünal, Çağrı ½",
    'quote " back \\ slash / tab \t line \n nul \x00 del \x7f', "\u2028\U0001f600",
    [], {}, (), [1, [2, [3, []]], {}], (1, "a"), {"a": {"b": [1, 2.5, None]}, "c": []},
    {"players": [{"name": "A", "k": 20, "games": [{"opponent_rating": 1600,
                                                   "score": 0.5}]}]},
    {1: "int key", "b": [True]},              # another key: json.dumps writes it
    [float("nan"), float("inf"), -float("inf")],
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_json_text_is_what_json_dumps_writes(value, depth):
    text = json.dumps(value, ensure_ascii=False, indent=2)
    assert json_text(value, depth) == text.replace("\n", "\n" + "  " * depth)


def report():
    return build_report(first_event())


def test_the_report_json_is_the_document_json_dumps_writes():
    rep = report()
    text = to_json(rep)
    assert "".join(to_json_parts(rep)) == text
    doc = json.loads(text)
    assert json.dumps(doc, ensure_ascii=False, indent=2) == text
    assert [p["name"] for p in doc["players"]][:2] == ["Junior", "Opp 2"]


def cyclic_garbage(write):
    """What the cyclic collector finds after ``write()`` with the collector paused."""
    gc.collect()
    gc.disable()
    try:
        write()
        return gc.collect()
    finally:
        gc.enable()


def test_writing_the_report_json_leaves_nothing_for_the_cyclic_collector():
    rep = report()
    assert cyclic_garbage(lambda: to_json(rep)) == 0


def test_writing_the_period_json_leaves_nothing_for_the_cyclic_collector():
    period = build_period([first_event(), second_event()])
    text = period_json(period)
    assert json.dumps(json.loads(text), ensure_ascii=False, indent=2) == text
    assert cyclic_garbage(lambda: period_json(period)) == 0
