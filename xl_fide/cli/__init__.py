"""The ``xl-fide`` command line: argparse, the command bodies, the text presenters and
``doctor``. It only parses arguments, calls the library and prints."""

from xl_fide.cli._main import build_parser, main, main_entry

__all__ = ["build_parser", "main", "main_entry"]
