"""The house named by its data (issue 31): the model in its own module, the event layer
in its folder, one error family, a report that carries what presenters need."""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
from pathlib import Path

import xl_fide

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "xl_fide"


def _modules():
    """Every module of the package but the extension's UNO component (pyuno only)."""
    for info in pkgutil.walk_packages(xl_fide.__path__, "xl_fide."):
        if info.name.startswith("xl_fide.libreoffice.data") or info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_model_lives_in_its_own_module_not_in_the_trf_format():
    from xl_fide import tournament
    for name in ("Tournament", "Game", "TrfPlayer", "TrfWarning", "Record", "TeamRecord",
                 "NationalRecord"):
        assert getattr(tournament, name).__module__ == "xl_fide.tournament", name
    # the model knows no format and no layer above it
    assert {m for m in _imports(PACKAGE / "tournament.py") if m.startswith("xl_fide")} <= {
        "xl_fide.errors", "xl_fide._dates", "xl_fide.rules.values"}


def test_the_reader_hands_the_model_its_lines_without_reaching_into_it():
    trf_source = (PACKAGE / "trf.py").read_text(encoding="utf-8")
    assert "_pending_records" not in trf_source
    assert "records_on_read" in trf_source
    from xl_fide.trf import parse_trf
    t = parse_trf("012 Open\n\n001    1      Alpha                            2000\n")
    assert [(r.kind, r.line) for r in t.records] == [("header", 1), ("blank", 2),
                                                     ("player", 3)]
    assert t.records[2].text == t.players[0].raw


def test_the_event_layer_is_one_folder():
    names = {p.stem for p in (PACKAGE / "event").glob("*.py")}
    assert {"resolve", "months", "report", "period", "player_period"} <= names
    loose = {p.stem for p in PACKAGE.glob("*.py")}
    assert not loose & {"_seam", "_interim", "_player_period", "report", "period"}


def test_every_exception_class_is_in_errors():
    outside = []
    for module in _modules():
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException)
                    and obj.__module__ == module.__name__ and module.__name__ != "xl_fide.errors"):
                outside.append(f"{module.__name__}.{name}")
    assert outside == []


def test_one_output_exists_error():
    from xl_fide import errors
    exists = [name for name, obj in vars(errors).items()
              if inspect.isclass(obj) and issubclass(obj, FileExistsError)]
    assert exists == ["OutputExistsError"]


def test_the_error_tree_in_the_docstring_names_every_class():
    from xl_fide import errors
    doc = errors.__doc__ or ""
    classes = [name for name, obj in vars(errors).items()
               if inspect.isclass(obj) and issubclass(obj, BaseException)
               and obj.__module__ == "xl_fide.errors"]
    assert len(classes) >= 15
    assert [c for c in classes if c not in doc] == []


def test_the_report_carries_its_tournament_and_rules():
    from xl_fide import EventOptions, build_report, event_rules
    from xl_fide.trf import parse_trf
    t = parse_trf("012 Open\n042 2024/05/04\n"
                  "001    1      Alpha                            2000"
                  "                                 1.0       2 w 1\n"
                  "001    2      Beta                             1900"
                  "                                 0.0       1 b 0\n")
    rules = event_rules(t, EventOptions(k=20))
    report = build_report(t, rules)
    assert report.tournament is t
    assert report.rules == rules
    fields = {f.name for f in dataclasses.fields(report)}
    assert {"tournament", "rules"} <= fields
