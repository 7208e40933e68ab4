"""`lists download` against a misbehaving server on 127.0.0.1 (issue 22, #11).

A raw TCP server answers every request with canned bytes: broken status lines and
headers, cut bodies, zip bombs. Each must be one line, exit 2, and leave neither a zip
nor a ``.part`` in the downloads folder (a break in a body of announced size is kept
to resume: tests/lists/test_lists.py).
"""

from __future__ import annotations

import io
import socket
import threading
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "players"


class _Canned:
    """A TCP server on 127.0.0.1 answering each connection with ``self.answer``."""

    def __init__(self) -> None:
        self.answer = b""
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/download/"

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    data = b""
                    while b"\r\n\r\n" not in data:
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        data += chunk
                    conn.sendall(self.answer)
                except OSError:
                    pass

    def close(self) -> None:
        self.stop = True
        self.thread.join(timeout=5)
        self.sock.close()


@pytest.fixture
def canned(tmp_path, monkeypatch):
    monkeypatch.setenv("XL_FIDE_STORE", str(tmp_path / "store" / "lists.sqlite"))
    server = _Canned()
    yield server
    server.close()


def _download(server, capsys):
    code = main(["lists", "-q", "download", "--month", "2024-01", "--time-control",
                 "standard", "--base-url", server.url])
    out, err = capsys.readouterr()
    return code, out, err


def _left_behind(tmp_path):
    folder = tmp_path / "store" / "downloads"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def _zip(member: str, data: bytes, level: int = 6) -> bytes:
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        z.writestr(member, data)
    return raw.getvalue()


def _ok(body: bytes, extra: bytes = b"") -> bytes:
    return (b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n" % len(body) + extra
            + b"Connection: close\r\n\r\n" + body)


BROKEN = {
    "a status line of garbage": b"garbage\r\n\r\n",
    "a status code of letters": b"HTTP/1.1 2OO OK\r\n\r\n",
    "a header line over 64 KiB": b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n",
    "more than 100 headers": b"HTTP/1.1 200 OK\r\n"
                             + b"".join(b"X-H%d: v\r\n" % i for i in range(101)) + b"\r\n",
    "a chunked body cut short": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                b"400\r\n" + b"x" * 100,
    "a chunk size of letters": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "headers, then nothing": b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\n",
    "no answer at all": b"",
    "a body that is not a zip": _ok(b"PK\x03\x04" + b"\x00" * 200),
    "a content length of letters": b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n0123",
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_a_broken_server_is_one_line_and_leaves_nothing(canned, tmp_path, capsys, what):
    canned.answer = BROKEN[what]
    code, out, err = _download(canned, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "standard_jan24frl.zip" in err and "internal error" not in err
    assert _left_behind(tmp_path) == []


def test_a_zip_bomb_is_refused_before_it_is_inflated(canned, tmp_path, capsys, monkeypatch):
    # 64 MiB of zeros deflate to about 64 KiB: a ratio near 1000:1, above 100:1
    bomb = _zip("standard_jan24frl.txt", bytes(64 << 20), level=9)
    canned.answer = _ok(bomb)
    opened = []
    real_open = zipfile.ZipFile.open

    def spy(self, name, *args, **kwargs):
        opened.append(name)
        return real_open(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    code, out, err = _download(canned, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "zip bomb" in err and "standard_jan24frl" in err
    assert opened == []                     # not a byte inflated
    assert _left_behind(tmp_path) == []


def test_a_zip_with_a_bomb_beside_the_list_is_refused_too(canned, tmp_path, capsys):
    good = (DATA / "standard_may25.txt").read_bytes().replace(b"MAY25", b"JAN24")
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("standard_jan24frl.txt", good)
        z.writestr("readme.bin", bytes(64 << 20))
    canned.answer = _ok(raw.getvalue())
    code, out, err = _download(canned, capsys)
    assert code == 2 and "zip bomb" in err and "readme.bin" in err, err
    assert _left_behind(tmp_path) == []


def test_a_list_that_cannot_be_imported_leaves_no_zip(canned, tmp_path, capsys):
    canned.answer = _ok(_zip("standard_jan24frl.txt", b"not a list at all\r\n"))
    code, out, err = _download(canned, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert _left_behind(tmp_path) == []


# --- fuzz: any answer ------------------------------------------------------------------

_GOOD = _ok(_zip("standard_jan24frl.txt",
                 (DATA / "standard_may25.txt").read_bytes().replace(b"MAY25", b"JAN24")))


@pytest.fixture(scope="module")
def shared_server():
    server = _Canned()
    yield server
    server.close()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, len(_GOOD)), st.binary(max_size=40), st.integers(0, len(_GOOD)))
def test_fuzz_any_answer_is_imported_or_one_line(shared_server, tmp_path_factory, cut, junk,
                                                 at):
    """The good answer cut anywhere, with bytes spliced in: imported, or one line and
    exit 2 (never a traceback); nothing but a resumable ``.part`` is left."""
    tmp = tmp_path_factory.mktemp("fuzz")
    shared_server.answer = (_GOOD[:at] + junk + _GOOD[at:])[:cut + len(junk)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XL_FIDE_STORE", str(tmp / "store" / "lists.sqlite"))
        import contextlib
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["lists", "-q", "download", "--month", "2024-01", "--time-control",
                         "standard", "--base-url", shared_server.url])
    assert code in (0, 2), err.getvalue()
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1
    left = _left_behind(tmp)
    assert all(name.endswith(".part") for name in left), left
