"""Player names as look-up keys (FIDE lists write ``"Lastname, Firstname"``).

Shared by the player-list reader and the rating period, which match players by
name when no FIDE id is known.
"""

from __future__ import annotations

import unicodedata

# Letters that Unicode does not decompose into a base letter plus an accent.
_FOLD = str.maketrans({
    "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D",
    "þ": "th", "Þ": "Th", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ı": "i",
})


def normalise_name(name: str) -> str:
    """Return the look-up key of a name: no accents, case folded, spaces collapsed.

    ``"Lastname, Firstname"`` as FIDE writes it; the comma counts, the spaces
    around it do not. ``normalise_name("  Dvořák ,JIŘÍ ") == "dvorak,jiri"``.
    """
    if name.isascii():
        text = " ".join(name.lower().split())
    else:
        text = unicodedata.normalize("NFKD", name.translate(_FOLD))
        text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
        text = " ".join(text.split())
    return text.replace(" ,", ",").replace(", ", ",")
