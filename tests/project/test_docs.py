"""The documentation cannot rot: every example in README.md and docs/ runs here, and
every command-line option has help text (the CLI reference is generated from it).

* ```` ```python ```` blocks run with :mod:`doctest` when they hold ``>>>`` prompts
  (outputs compared, ``...`` matches anything), else they must run without error;
* ```` ```console ```` blocks: each ``$ command`` runs in bash in a scratch folder of
  the page, which holds the files its earlier commands wrote; it must exit 0 and print the lines shown under it (``...``
  stands for any lines). ``pip install`` and ``pytest`` lines are the set-up this test
  already runs in and are not run again;
* other languages (``bat``, ``powershell``, ``text``) are Windows steps or screens,
  shown, not run.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PAGES = [p for p in PAGES if "_build" not in p.parts and "_generated" not in p.parts]
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```",
                   re.M | re.S)
SKIPPED_COMMANDS = ("pip install", "python -m pip install", "pytest")


def blocks(page: Path, langs: tuple[str, ...]) -> list[tuple[int, str, str]]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        if m.group("lang") in langs:
            indent = len(m.group("indent"))
            body = "\n".join(line[indent:] for line in m.group("body").splitlines())
            out.append((text.count("\n", 0, m.start()) + 1, m.group("lang"), body))
    return out


#: every runnable example, page by page in the page's order (a later block may use the
#: files an earlier one wrote)
CASES = [pytest.param(page, line, lang, body, id=f"{page.relative_to(ROOT)}:{line}")
         for page in PAGES for line, lang, body in blocks(page, ("python", "console"))]


_FOLDERS: dict[Path, Path] = {}


@pytest.fixture
def scratch(page, tmp_path_factory, monkeypatch):
    """One folder per page, shared by its examples in order (a page's later commands use
    the files its earlier ones wrote)."""
    if page not in _FOLDERS:
        _FOLDERS[page] = tmp_path_factory.mktemp(page.stem)
    monkeypatch.chdir(_FOLDERS[page])
    monkeypatch.setenv("XL_FIDE_STORE", str(_FOLDERS[page] / "store"))
    return _FOLDERS[page]


@pytest.mark.parametrize("page, line, lang, body", CASES)
def test_examples(page, line, lang, body, scratch):
    if lang == "console":
        run_console(page, line, body)
    elif ">>>" in body:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(body, {}, f"{page.name}:{line}", str(page), line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
        assert runner.summarize(verbose=False).failed == 0
    else:
        exec(compile(body, f"{page.name}:{line}", "exec"), {"__name__": "__doc_example__"})


def _expected_matches(expected: list[str], got: list[str]) -> bool:
    """``expected`` lines in order within ``got``; ``...`` alone matches any lines, and
    ``...`` inside a line matches any text."""
    pattern = ""
    for line in expected:
        if line.strip() == "...":
            pattern += r"(?:.*\n)*?"
        else:
            pattern += ".*".join(re.escape(part) for part in line.split("...")) + r"\n"
    return re.fullmatch(pattern + r"(?:.*\n)*", "\n".join(got) + "\n") is not None \
        if expected and expected[0].strip() == "..." else \
        re.match(pattern, "\n".join(got) + "\n") is not None


def run_console(page: Path, line: int, body: str) -> None:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    commands: list[tuple[str, list[str]]] = []
    for text in body.splitlines():
        if text.startswith("$ "):
            commands.append((text[2:], []))
        elif commands:
            commands[-1][1].append(text)
    assert commands, f"{page.name}:{line}: a console block without a $ command"
    for command, expected in commands:
        if command.startswith(SKIPPED_COMMANDS):
            continue
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                              env=env, timeout=600)
        where = f"{page.name}:{line}: $ {command}"
        assert done.returncode == 0, f"{where}\nexit {done.returncode}\n{done.stderr}"
        got = (done.stdout + done.stderr).splitlines()
        expected = [e for e in expected if e.strip()]
        assert _expected_matches(expected, got), f"{where}\nexpected:\n" + "\n".join(
            expected) + "\ngot:\n" + "\n".join(got)


def _actions(parser, path=("xl-fide",)):
    import argparse
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), "(the command)", helps.get(name)
                yield from _actions(sub, (*path, name))
        elif not isinstance(action, argparse._HelpAction):
            yield path, "/".join(action.option_strings) or action.dest, action.help


def test_every_command_and_option_has_help_text():
    from xl_fide.cli import build_parser
    missing = [f"{' '.join(path)} {name}" for path, name, text in _actions(build_parser())
               if not text]
    assert missing == []
