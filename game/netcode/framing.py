"""Newline-delimited UTF-8 JSON: one JSON object per line.

Reading
    :class:`LineReader` splits a byte stream into lines (:class:`LineFeeder` does the same for
    bytes pushed in as they arrive, for non-blocking sockets). LF, CR and CRLF all end a line, as with the
    reference server's ``BufferedReader.readLine`` (a CR followed by LF is one line end, even when the
    LF arrives in a later read). A line may hold at most :data:`MAX_LINE` bytes (its terminator not
    counted). A longer line is reported once as :class:`LineTooLong` and the rest of it is read and
    thrown away chunk by chunk, never held in memory, so a 10 MB line costs no more than a short one.
    Bytes after the last line end at EOF are dropped (EOF mid-line is EOF).

Decoding
    :func:`decode_line` turns one line into a ``dict`` or raises :class:`ProtocolError` whose ``msg``
    is one of the fixed ``ErrProtocol`` texts the reference server answers:

    ====================================================================  ===========================
    input                                                                 ``msg``
    ====================================================================  ===========================
    empty or blank line                                                   ``Empty input.``
    not JSON, truncated, array, trailing garbage, ``42``, ``null``        ``Invalid syntax.``
    invalid UTF-8                                                         ``Invalid syntax.``
    object without ``type``                                               ``Field "type" not found.``
    ====================================================================  ===========================

Where we deliberately differ from the reference (it is Java + lenient Gson):

* ``{"type": null}``, ``{"type": {}}`` or any non-string ``type``: the reference drops the connection
  without a word; we answer ``Field "type" not found.`` (no *string* type field) and keep it open.
* A line longer than 64 KiB: the reference has no limit; we answer ``Line too long.``.
* Only strict JSON is accepted (orjson). The reference also took ``{type:ReqWelcome}`` (unquoted) and
  ``{'type':'ReqHeartbeat'}`` (single quotes); we refuse both with ``Invalid syntax.``.

Writing
    :func:`encode` gives ``orjson.dumps(msg) + b"\\n"``; :class:`LineWriter` writes whole messages
    under a lock so that threads never interleave two messages on one connection.

>>> decode_line(b'{"type":"ReqEndTurn"}')
{'type': 'ReqEndTurn'}
>>> encode({"msg": "Empty input.", "type": "ErrProtocol"})
b'{"msg":"Empty input.","type":"ErrProtocol"}\\n'
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Iterator

import orjson

MAX_LINE = 64 * 1024
"""Longest accepted line in bytes, line terminator not included."""

CHUNK = 16 * 1024
"""Bytes asked of the underlying stream per read; the reader's buffer stays under MAX_LINE + CHUNK."""

LINE_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE
"""``orjson.dumps(msg, option=LINE_OPTIONS)`` is :func:`encode` in one call: one wire line."""

EMPTY_INPUT = "Empty input."
INVALID_SYNTAX = "Invalid syntax."
TYPE_NOT_FOUND = 'Field "type" not found.'
LINE_TOO_LONG = "Line too long."

_LF = 0x0A
_CR = 0x0D


class ProtocolError(ValueError):
    """A line that is not a valid message. ``msg`` is the fixed text sent back in ``ErrProtocol``.

    ``detail`` is free text for logs only; it is never put on the wire.
    """

    TYPE = "ErrProtocol"

    def __init__(self, msg: str, detail: str = "") -> None:
        self.msg = msg
        self.detail = detail
        super().__init__(f"{msg} ({detail})" if detail else msg)

    def to_dict(self) -> dict[str, Any]:
        """The wire reply: ``{"msg": ..., "type": "ErrProtocol"}``."""
        return {"msg": self.msg, "type": self.TYPE}


class LineTooLong(ProtocolError):
    """A line longer than :data:`MAX_LINE`. The reader discards the rest of it by itself."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(LINE_TOO_LONG, detail)


def decode_line(line: bytes) -> dict[str, Any]:
    """Decode one line (with or without its terminator) into a message dict.

    The returned dict has a ``type`` whose value is a string; nothing else is checked here.

    :raises ProtocolError: with ``msg`` ``Empty input.``, ``Invalid syntax.`` or
        ``Field "type" not found.`` (see the module docstring).
    """
    if not line.strip():
        raise ProtocolError(EMPTY_INPUT)
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError as e:
        raise ProtocolError(INVALID_SYNTAX, str(e)) from None
    if type(value) is not dict:
        raise ProtocolError(INVALID_SYNTAX, f"top-level {type(value).__name__}, not an object")
    if type(value.get("type")) is not str:
        detail = "missing" if "type" not in value else f"type is {type(value['type']).__name__}"
        raise ProtocolError(TYPE_NOT_FOUND, detail)
    return value


def encode(msg: dict[str, Any]) -> bytes:
    """One wire line: compact JSON plus LF. Non-string keys (e.g. int ids) are written as strings.

    :raises TypeError: if ``msg`` is not a dict or holds something JSON cannot represent.
    """
    if not isinstance(msg, dict):
        raise TypeError(f"a message must be a dict, not {type(msg).__name__}")
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS) + b"\n"


def _reader_of(rfile: Any) -> Callable[[int], bytes]:
    # A socket is read with recv (stays usable after a timeout, unlike socket.makefile objects);
    # a buffered file with read1 (returns what is there instead of waiting for n bytes).
    for name in ("recv", "read1", "read"):
        fn = getattr(rfile, name, None)
        if fn is not None:
            return fn
    raise TypeError(f"cannot read from {type(rfile).__name__}")


class LineReader:
    """Split a binary stream into lines of at most :data:`MAX_LINE` bytes.

    ``rfile`` is a socket (read with ``recv``), a binary file such as ``sock.makefile("rb")`` or
    ``io.BytesIO`` (read with ``read1``), or anything with ``read(n)`` returning ``b""`` at EOF.

    Not thread-safe: one thread reads. An exception from the underlying read (e.g. ``TimeoutError``
    on a socket with a timeout) propagates and leaves the reader consistent, so it can be called again.

    ``max_buffered`` is the largest number of bytes the reader ever held at once (a test hook: it
    stays below ``MAX_LINE + CHUNK`` whatever comes in).

    >>> import io
    >>> list(LineReader(io.BytesIO(b'a\\r\\nb\\rc\\nunfinished')))
    [b'a', b'b', b'c']
    """

    def __init__(self, rfile: Any, max_line: int = MAX_LINE, chunk: int = CHUNK) -> None:
        self._read = _reader_of(rfile)
        self.max_line = max_line
        self.chunk = chunk
        self._buf = bytearray()
        self._scanned = 0  # bytes at the start of _buf known to hold no CR/LF
        self._skip_lf = False  # the last line ended with CR: a LF right after it belongs to it
        self._discarding = False  # inside an oversize line: drop bytes up to its end
        self._eof = False
        self.max_buffered = 0

    def readline(self) -> bytes | None:
        """Return the next line without its terminator, or ``None`` at end of stream.

        :raises LineTooLong: once per line longer than ``max_line``. The reader then skips the rest
            of that line by itself; call ``readline`` again to get the line after it.
        :raises OSError: whatever the underlying read raises.
        """
        buf = self._buf
        while True:
            if self._skip_lf and buf:
                if buf[0] == _LF:
                    del buf[0]
                self._skip_lf = False
            end = self._find_end()
            if self._discarding:
                if end < 0:
                    buf.clear()
                    self._scanned = 0
                else:
                    self._consume(end)
                    self._discarding = False
                    continue
            elif end >= 0:
                line = bytes(buf[:end]) if end <= self.max_line else None
                self._consume(end)
                if line is None:
                    raise LineTooLong(f"{end} bytes")
                return line
            elif len(buf) > self.max_line:
                buf.clear()
                self._scanned = 0
                self._discarding = True
                raise LineTooLong(f"more than {self.max_line} bytes")
            if self._eof:
                return None
            data = self._read(self.chunk)
            if not data:
                self._eof = True
                buf.clear()  # an unfinished last line is dropped
                self._scanned = 0
                return None
            buf += data
            if len(buf) > self.max_buffered:
                self.max_buffered = len(buf)

    def __iter__(self) -> Iterator[bytes | LineTooLong]:
        """Yield each line, or a :class:`LineTooLong` instance (not raised) for an oversize line."""
        while True:
            try:
                line = self.readline()
            except LineTooLong as e:
                yield e
                continue
            if line is None:
                return
            yield line

    def _find_end(self) -> int:
        """Index of the first CR or LF in the buffer, or -1."""
        buf = self._buf
        start = self._scanned
        lf = buf.find(b"\n", start)
        cr = buf.find(b"\r", start, lf if lf >= 0 else len(buf))
        end = cr if cr >= 0 else lf
        if end < 0:
            self._scanned = len(buf)
        return end

    def _consume(self, end: int) -> None:
        """Drop the line that ends at ``end`` and its terminator from the buffer."""
        buf = self._buf
        n = end + 1
        if buf[end] == _CR:
            if n < len(buf):
                if buf[n] == _LF:
                    n += 1
            else:
                self._skip_lf = True  # the LF of a CRLF may still be on its way
        del buf[:n]
        self._scanned = 0


class LineFeeder:
    """Non-blocking counterpart of :class:`LineReader`: bytes are pushed in
    with :meth:`feed` as they arrive, complete lines come out.

    The same rules: LF, CR and CRLF end a line (a CRLF split across two feeds is one line end); a
    line holds at most ``max_line`` bytes, terminator not counted; a longer one comes out once as a
    :class:`LineTooLong` instance and the rest of it is dropped as it arrives, never buffered. Bytes
    after the last line end are kept for the next feed (at EOF the caller simply drops them).

    ``max_buffered`` is the largest number of bytes held at once (never more than ``max_line``).

    >>> LineFeeder().feed(b'a\\r\\nb\\rc\\nunfin')
    [b'a', b'b', b'c']
    """

    __slots__ = ("max_line", "_buf", "_skip_lf", "_discarding", "max_buffered")

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._skip_lf = False      # the last line ended with CR: a LF right after it belongs to it
        self._discarding = False   # inside an oversize line: drop bytes up to its end
        self.max_buffered = 0

    def feed(self, data: bytes) -> list[bytes | LineTooLong]:
        """The lines that ``data`` completes, in order (oversize ones as :class:`LineTooLong`)."""
        # Fast path: nothing pending, whole LF-terminated lines without CR (what clients send).
        if (not self._buf and not self._skip_lf and not self._discarding and data
                and data[-1] == _LF and len(data) <= self.max_line + 1 and b"\r" not in data):
            out: list[bytes | LineTooLong] = data.split(b"\n")
            out.pop()
            return out
        return self._feed(data)

    def _feed(self, data: bytes) -> list[bytes | LineTooLong]:
        out: list[bytes | LineTooLong] = []
        buf = self._buf
        size = len(data)
        pos = 0
        if self._skip_lf and size:
            self._skip_lf = False
            if data[0] == _LF:
                pos = 1
        max_line = self.max_line
        while pos < size:
            lf = data.find(b"\n", pos)
            cr = data.find(b"\r", pos, lf if lf >= 0 else size)
            end = cr if cr >= 0 else lf
            if end < 0:                                   # no line end in the rest
                if self._discarding:
                    return out
                if len(buf) + size - pos > max_line:
                    buf.clear()
                    self._discarding = True
                    out.append(LineTooLong(f"more than {max_line} bytes"))
                    return out
                buf += data[pos:] if pos else data
                if len(buf) > self.max_buffered:
                    self.max_buffered = len(buf)
                return out
            if self._discarding:
                self._discarding = False
            elif len(buf) + end - pos > max_line:
                out.append(LineTooLong(f"{len(buf) + end - pos} bytes"))
                buf.clear()
            elif buf:
                buf += data[pos:end]
                out.append(bytes(buf))
                buf.clear()
            else:
                out.append(data[pos:end])
            pos = end + 1
            if data[end] == _CR:
                if pos < size:
                    if data[pos] == _LF:
                        pos += 1
                else:
                    self._skip_lf = True   # the LF of a CRLF may still be on its way
        return out


class LineWriter:
    """Write messages as lines; a lock keeps concurrent writers from interleaving.

    ``wfile`` is a socket (written with ``sendall``) or a binary file (``write`` then ``flush``).
    """

    def __init__(self, wfile: Any) -> None:
        self._lock = threading.Lock()
        self._sendall = getattr(wfile, "sendall", None)
        self._wfile = wfile

    def write(self, msg: dict[str, Any]) -> None:
        """Encode ``msg`` and write it as one line.

        :raises TypeError: if ``msg`` cannot be encoded (nothing is written).
        :raises OSError: if the stream fails.
        """
        self.write_bytes(encode(msg))

    def write_bytes(self, data: bytes) -> None:
        """Write lines already encoded (whole lines), as one piece.

        :raises OSError: if the stream fails.
        """
        with self._lock:
            if self._sendall is not None:
                self._sendall(data)
            else:
                self._wfile.write(data)
                flush = getattr(self._wfile, "flush", None)
                if flush is not None:
                    flush()
