"""Many small integers in one: a vector of n integers as one Python ``int``, slot i at bit
``width·i``, so that adding a multiple of one vector to another is one C-level operation.

The Keizer fixed point (:mod:`keizer.scoring`) keeps every player's score this way: a
column per player j holds, in slot i, how many times player i earns j's value; a pass whose
ranking moved k players adds k columns (grouped by how much the value changed) instead of
summing every player's score again.  The arithmetic is exact integer arithmetic: a packed
vector *is* Σ xᵢ·2^(width·i), so sums and multiples of packed vectors are the packed sums
and multiples, whatever the signs in between; only :func:`unpack` needs every slot in
[0, 2^width), which the caller ensures with a bias.

>>> w = slot_width(1000)
>>> v = pack([3, 0, 7], w) + 2 * pack([1, 1, 1], w)
>>> unpack(v, 3, w)
[5, 2, 9]
"""

from __future__ import annotations

import sys
from array import array
from typing import Sequence

#: array typecodes of unsigned machine integers by size in bytes (when the platform has them)
_TYPECODES = {array(code).itemsize: code for code in ("Q", "L", "I") if array(code).itemsize in (4, 8)}


def slot_width(bound: int) -> int:
    """The bits of a slot that holds every integer in [0, ``bound``]: 32 or 64 when they
    suffice (unpacked by the machine), else whole bytes."""
    bits = max(bound, 1).bit_length()
    for size in sorted(_TYPECODES):
        if bits <= size * 8:
            return size * 8
    return (bits + 7) // 8 * 8


def pack(numbers: Sequence[int], width: int) -> int:
    """Σ numbers[i]·2^(width·i), each number in [0, 2^width)."""
    code = _TYPECODES.get(width // 8)
    if code is not None:
        return int.from_bytes(array(code, numbers).tobytes(), sys.byteorder)
    packed = 0
    for i, x in enumerate(numbers):
        packed += x << (width * i)
    return packed


def unpack(packed: int, n: int, width: int) -> list[int]:
    """The n slots of ``packed``, each in [0, 2^width)."""
    size = width // 8
    raw = packed.to_bytes(n * size, sys.byteorder)
    code = _TYPECODES.get(size)
    if code is not None:
        return array(code, raw).tolist()
    order = sys.byteorder
    return [int.from_bytes(raw[k:k + size], order) for k in range(0, n * size, size)]
