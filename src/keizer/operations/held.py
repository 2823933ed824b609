"""What a process holds of a database between calls (the kept standings, the kept careers): a
bounded number of values, the least recently asked for dropped first, each with a lock so that
one thread at a time works on it while the others wait for that value only."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Held(Generic[K, V]):
    """At most ``size`` values by key, each with its own lock.

    >>> held: Held[str, list[int]] = Held(2)
    >>> _, a = held.entry("a", list); _, b = held.entry("b", list); _, c = held.entry("c", list)
    >>> held.get("a") is None, held.get("c") is c
    (True, True)
    >>> held.adopt("c", [1]), held.adopt("d", [2]), held.get("d")
    (False, True, [2])
    """

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict[K, tuple[threading.Lock, V]] = OrderedDict()
        self._lock = threading.Lock()

    def entry(self, key: K, make: Callable[[], V]) -> tuple[threading.Lock, V]:
        """The value held for ``key`` (made now if there is none) and its lock; asked for last."""
        with self._lock:
            found = self._values.get(key)
            if found is None:
                found = self._values[key] = (threading.Lock(), make())
            self._values.move_to_end(key)
            self._trim()
            return found

    def adopt(self, key: K, value: V) -> bool:
        """Hold ``value`` for ``key`` unless something is held for it already (True: taken)."""
        with self._lock:
            if key in self._values:
                return False
            self._values[key] = (threading.Lock(), value)
            self._trim()
            return True

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._values.get(key)
        return None if found is None else found[1]

    def items(self) -> list[tuple[K, V]]:
        with self._lock:
            return [(key, found[1]) for key, found in self._values.items()]

    def drop(self, key: K) -> None:
        with self._lock:
            self._values.pop(key, None)

    def clear(self) -> None:
        """Forget every value (as a new process starts)."""
        with self._lock:
            self._values.clear()

    def _trim(self) -> None:
        while len(self._values) > self.size:
            self._values.popitem(last=False)
