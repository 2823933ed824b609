"""The app's templates compiled once: kept in memory for every app a process makes, and on
disk for the next process.

Compiling a page's templates took longer than rendering it (the 55 templates: some 430 ms of
CPU compiled, 11 ms loaded). A process makes one app (``keizer serve``) or hundreds (the
tests); each app's Jinja environment compiles a template the first time it renders it. So
the compiled code is kept in memory, shared by the apps of a process, and in Jinja's cache
folder (the temporary folder, private to the user, as the site's templates are:
:mod:`keizer.publish`), so that a server started again, or another test process, loads each
template instead of compiling it.

Jinja checks what it loads against the source's checksum (an edited template is compiled
again) and its own bytecode version and Python's; the key of each template also holds
Jinja's version and the environment's options that shape the compiled code (its delimiters,
whitespace handling, extensions), so an environment set up otherwise compiles its own. The
app's templates compile alike for every app: they translate when rendered, not when compiled.
"""

from __future__ import annotations

import hashlib

import jinja2
from jinja2 import BytecodeCache, Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket

#: The cache files' names in Jinja's cache folder.
PATTERN = "keizer-app-%s.cache"


def compiled_as(environment: Environment) -> str:
    """What the compiled code of a template depends on beside its source: Jinja's version and
    the environment's options that its lexer and code generator read."""
    e = environment
    options = (jinja2.__version__, e.block_start_string, e.block_end_string, e.variable_start_string,
               e.variable_end_string, e.comment_start_string, e.comment_end_string, e.line_statement_prefix,
               e.line_comment_prefix, e.trim_blocks, e.lstrip_blocks, e.newline_sequence, e.keep_trailing_newline,
               e.optimized, sorted(e.extensions), e.is_async)
    return hashlib.sha256(repr(options).encode()).hexdigest()[:16]


class Compiled(BytecodeCache):
    """Compiled templates in memory and, where it can, in ``directory`` (default: Jinja's own
    cache folder; none where the system has no private temporary folder)."""

    def __init__(self, directory: str | None = None) -> None:
        self._kept: dict[str, bytes] = {}
        self._directory = directory
        self._files: FileSystemBytecodeCache | None = None
        self._opened = False

    def _disk(self) -> FileSystemBytecodeCache | None:
        if not self._opened:  # at the first template, not when the app is made
            self._opened = True
            try:
                self._files = FileSystemBytecodeCache(self._directory, pattern=PATTERN)
            except (OSError, RuntimeError):  # no private temporary folder: memory only
                self._files = None
        return self._files

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        return super().get_bucket(environment, f"{compiled_as(environment)}:{name}", filename, source)

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self._kept.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)
            return
        disk = self._disk()
        if disk is not None:
            try:
                disk.load_bytecode(bucket)
            except Exception:  # noqa: BLE001 - a cut or garbled file (pickle's, marshal's errors): compiled again
                bucket.reset()
            if bucket.code is not None:
                self._kept[bucket.key] = bucket.bytecode_to_string()

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._kept[bucket.key] = bucket.bytecode_to_string()
        disk = self._disk()
        if disk is not None:
            try:
                disk.dump_bytecode(bucket)
            except OSError:  # a full or read-only disk: the next process compiles it again
                pass


#: The compiled templates of every app of this process.
COMPILED = Compiled()
