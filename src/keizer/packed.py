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
>>> w
16
>>> v = pack([3, 0, 7], w) + 2 * pack([1, 1, 1], w)
>>> v == 5 + (2 << 16) + (9 << 32)
True
>>> unpack(v, 3, w)
[5, 2, 9]
>>> [unpack(pack([0, 1, 2**w - 1], w), 3, w) == [0, 1, 2**w - 1] for w in (8, 24, 40, 72)]
[True, True, True, True]
>>> unpack(widen(pack([5, 2, 9], 16), 3, 16, 32) * 10, 3, 32)
[50, 20, 90]
>>> pack([-1, 1], 8) == -1 + (1 << 8) and pack([256], 8) == 256
True
"""

from __future__ import annotations

import sys
from array import array
from typing import Sequence

#: array typecodes of unsigned machine integers of 4 and 8 bytes (when the platform has them)
_TYPECODES = {array(code).itemsize: code for code in ("Q", "L", "I") if array(code).itemsize in (4, 8)}
_BIG_ENDIAN = sys.byteorder == "big"


def slot_width(bound: int) -> int:
    """The bits of a slot that holds every integer in [0, ``bound``], in whole bytes (the
    narrower the slots, the cheaper an addition of packed vectors)."""
    return (max(bound, 1).bit_length() + 7) // 8 * 8


def _machine(size: int) -> tuple[int, str] | None:
    """The size and typecode of the narrowest machine integer of at least ``size`` bytes."""
    for machine in sorted(_TYPECODES):
        if size <= machine:
            return machine, _TYPECODES[machine]
    return None


def pack(numbers: Sequence[int], width: int) -> int:
    """Σ numbers[i]·2^(width·i): by the machine when every number is in [0, 2^width), else
    one by one (any integers: a slot out of that range carries into the next)."""
    size, n = width // 8, len(numbers)
    machine = _machine(size)
    if machine is None or min(numbers, default=0) < 0 or max(numbers, default=0) >> width:
        packed = 0
        for i, x in enumerate(numbers):
            packed += x << (width * i)
        return packed
    wide, code = machine
    slots = array(code, numbers)
    if _BIG_ENDIAN:
        slots.byteswap()
    raw = slots.tobytes()
    if size < wide:  # each slot's low ``size`` bytes (the rest are 0)
        narrow = bytearray(n * size)
        for b in range(size):
            narrow[b::size] = raw[b::wide]
        raw = bytes(narrow)
    return int.from_bytes(raw, "little")


def widen(packed: int, n: int, width: int, wider: int) -> int:
    """``packed``'s n slots of ``width`` bits in slots of ``wider`` bits (whole bytes both)."""
    size, wide = width // 8, wider // 8
    raw = packed.to_bytes(n * size, "little")
    widened = bytearray(n * wide)
    for b in range(size):
        widened[b::wide] = raw[b::size]
    return int.from_bytes(widened, "little")


def unpack(packed: int, n: int, width: int) -> list[int]:
    """The n slots of ``packed``, each in [0, 2^width)."""
    size = width // 8
    raw = packed.to_bytes(n * size, "little")
    machine = _machine(size)
    if machine is None:
        return [int.from_bytes(raw[k:k + size], "little") for k in range(0, n * size, size)]
    wide, code = machine
    if size < wide:  # each slot widened to a machine integer
        widened = bytearray(n * wide)
        for b in range(size):
            widened[b::wide] = raw[b::size]
        raw = bytes(widened)
    slots = array(code, raw)
    if _BIG_ENDIAN:
        slots.byteswap()
    return slots.tolist()
