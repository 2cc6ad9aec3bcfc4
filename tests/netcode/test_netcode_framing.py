"""Framing without sockets: good frames, line ends, garbage and oversize lines through BytesIO."""
from __future__ import annotations

import io
import re
import threading
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.netcode.framing import (
    CHUNK,
    EMPTY_INPUT,
    INVALID_SYNTAX,
    LINE_TOO_LONG,
    MAX_LINE,
    TYPE_NOT_FOUND,
    LineReader,
    LineTooLong,
    LineWriter,
    ProtocolError,
    decode_line,
    encode,
)


class OneByteAtATime:
    """An rfile whose every read returns a single byte (the worst a socket can do)."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def read(self, n: int) -> bytes:
        b = self._data[self._pos:self._pos + 1]
        self._pos += len(b)
        return b


class ChunkedRFile:
    """An rfile that serves the given chunks one per read (a chunk may exceed n: served in parts)."""

    def __init__(self, chunks) -> None:
        self._chunks = iter(chunks)
        self._rest = b""

    def read(self, n: int) -> bytes:
        if not self._rest:
            self._rest = next(self._chunks, b"")
        out, self._rest = self._rest[:n], self._rest[n:]
        return out


def lines(data: bytes, **kw) -> list:
    return list(LineReader(io.BytesIO(data), **kw))


class TestLineEnds:
    def test_lf_cr_crlf_all_end_a_line(self):
        assert lines(b"a\nb\rc\r\nd\n") == [b"a", b"b", b"c", b"d"]

    def test_empty_lines_are_lines(self):
        assert lines(b"\n\r\n\r") == [b"", b"", b""]

    def test_cr_cr_is_two_line_ends(self):
        assert lines(b"a\r\rb\n") == [b"a", b"", b"b"]

    def test_lf_cr_is_two_line_ends(self):
        assert lines(b"a\n\rb\n") == [b"a", b"", b"b"]

    def test_unfinished_last_line_is_dropped(self):
        assert lines(b'{"type":"ReqQuit"}\n{"type":"Req') == [b'{"type":"ReqQuit"}']

    def test_eof_is_sticky(self):
        reader = LineReader(io.BytesIO(b"x\n"))
        assert reader.readline() == b"x"
        assert reader.readline() is None
        assert reader.readline() is None

    def test_crlf_split_across_reads_is_one_line_end(self):
        reader = LineReader(OneByteAtATime(b"ab\r\ncd\r\n\r\n"))
        assert list(reader) == [b"ab", b"cd", b""]

    def test_crlf_split_between_two_chunks(self):
        reader = LineReader(ChunkedRFile([b"one\r", b"\ntwo\r", b"three\n"]))
        assert list(reader) == [b"one", b"two", b"three"]

    def test_cr_at_eof_ends_the_line(self):
        assert list(LineReader(OneByteAtATime(b"last\r"))) == [b"last"]

    def test_reads_from_a_socket_like_object_with_recv(self):
        class Sock:
            def __init__(self):
                self.parts = [b"a\n", b"b\r", b"\n", b""]

            def recv(self, n):
                return self.parts.pop(0)

        assert list(LineReader(Sock())) == [b"a", b"b"]

    def test_timeout_from_the_stream_leaves_the_reader_usable(self):
        class Flaky:
            def __init__(self):
                self.parts = [b'{"a":', TimeoutError(), b"1}\r", TimeoutError(), b"\nnext\n", b""]

            def read(self, n):
                p = self.parts.pop(0)
                if isinstance(p, Exception):
                    raise p
                return p

        reader = LineReader(Flaky())
        with pytest.raises(TimeoutError):
            reader.readline()
        assert reader.readline() == b'{"a":1}'
        with pytest.raises(TimeoutError):
            reader.readline()
        assert reader.readline() == b"next"
        assert reader.readline() is None

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.sampled_from([b"a", b"{", b"\xc3\xab", b"\r", b"\n", b"\r\n", b" "]), max_size=60),
           st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=20))
    def test_any_split_gives_the_same_lines(self, pieces, sizes):
        data = b"".join(pieces)
        expected = re.split(rb"\r\n|\r|\n", data)[:-1]  # the part after the last line end is dropped
        chunks, pos, i = [], 0, 0
        while pos < len(data):
            n = sizes[i % len(sizes)]
            chunks.append(data[pos:pos + n])
            pos, i = pos + n, i + 1
        assert list(LineReader(ChunkedRFile(chunks))) == expected


class TestLineLength:
    def test_exactly_max_line_is_accepted(self):
        line = b"x" * MAX_LINE
        assert lines(line + b"\n" + b"ok\n") == [line, b"ok"]

    def test_exactly_max_line_then_crlf_split(self):
        line = b"y" * MAX_LINE
        reader = LineReader(ChunkedRFile([line + b"\r", b"\n", b"ok\n"]))
        assert list(reader) == [line, b"ok"]

    def test_one_byte_over_is_refused_and_the_next_line_still_read(self):
        out = lines(b"x" * (MAX_LINE + 1) + b"\n" + b"ok\n")
        assert len(out) == 2
        assert isinstance(out[0], LineTooLong) and out[0].msg == LINE_TOO_LONG
        assert out[1] == b"ok"

    def test_readline_raises_once_per_oversize_line(self):
        reader = LineReader(io.BytesIO(b"z" * (3 * MAX_LINE) + b"\r\n" + b"w" * (MAX_LINE + 5) + b"\nok\n"))
        with pytest.raises(LineTooLong):
            reader.readline()
        with pytest.raises(LineTooLong):
            reader.readline()
        assert reader.readline() == b"ok"
        assert reader.readline() is None

    def test_oversize_line_ended_by_cr_then_lf_in_a_later_read(self):
        big = b"q" * (MAX_LINE + 10)
        reader = LineReader(ChunkedRFile([big + b"\r", b"\n", b"ok\n"]))
        items = list(reader)
        assert isinstance(items[0], LineTooLong)
        assert items[1:] == [b"ok"]

    def test_oversize_line_at_eof(self):
        items = lines(b"a\n" + b"b" * (MAX_LINE * 2))
        assert items[0] == b"a"
        assert [type(i) for i in items[1:]] == [LineTooLong]

    def test_10_mb_line_uses_bounded_memory(self):
        size = 10 * 1024 * 1024
        piece = b"a" * 65536

        def chunks():
            for _ in range(size // len(piece)):
                yield piece
            yield b"\n"
            yield b'{"type":"ReqEndTurn"}\n'

        reader = LineReader(ChunkedRFile(chunks()))
        tracemalloc.start()
        try:
            items = list(reader)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(items) == 2
        assert isinstance(items[0], LineTooLong)
        assert decode_line(items[1]) == {"type": "ReqEndTurn"}
        assert reader.max_buffered <= MAX_LINE + CHUNK <= 2 * MAX_LINE
        assert peak < 1024 * 1024  # far below the 10 MB the line would take if it were buffered

    def test_many_short_lines_in_one_read_keep_the_buffer_small(self):
        data = b'{"type":"ResHeartbeat"}\n' * 20000  # ~460 KB
        reader = LineReader(io.BytesIO(data))
        assert sum(1 for _ in reader) == 20000
        assert reader.max_buffered <= MAX_LINE + CHUNK


class TestDecode:
    @pytest.mark.parametrize("line, expected", [
        (b'{"type":"ReqWelcome"}', {"type": "ReqWelcome"}),
        (b'  {"type": "ReqJoin", "nickname": "Zo\xc3\xab"}  ', {"type": "ReqJoin", "nickname": "Zoë"}),
        (b'{"type":"ReqJoin","nickname":"nohandshake"}\r', {"type": "ReqJoin", "nickname": "nohandshake"}),
        (b'{"shelf1":0,"type":"ReqSwapShelves","extra":[1,2]}',
         {"shelf1": 0, "type": "ReqSwapShelves", "extra": [1, 2]}),
    ])
    def test_good_frames(self, line, expected):
        assert decode_line(line) == expected

    @pytest.mark.parametrize("line, msg", [
        (b"", EMPTY_INPUT),
        (b"   ", EMPTY_INPUT),
        (b" \t ", EMPTY_INPUT),
        (b"this is not json", INVALID_SYNTAX),
        (b'{"type":"ReqWelcome"', INVALID_SYNTAX),
        (b"[1,2,3]", INVALID_SYNTAX),
        (b'[{"type":"ReqWelcome"}]', INVALID_SYNTAX),
        (b'{"type":"ReqEndTurn"} trailing', INVALID_SYNTAX),
        (b'{"type":"ReqEndTurn"}{"type":"ReqEndTurn"}', INVALID_SYNTAX),
        (b"42", INVALID_SYNTAX),
        (b"null", INVALID_SYNTAX),
        (b'"ReqWelcome"', INVALID_SYNTAX),
        (b"{type:ReqWelcome}", INVALID_SYNTAX),  # the reference's lenient Gson accepted this
        (b"{'type':'ReqHeartbeat'}", INVALID_SYNTAX),  # and this
        (b'{"type":"ReqJoin","nickname":"\xff\xfe"}', INVALID_SYNTAX),  # invalid UTF-8
        (b'{"type":"ReqJoin","nickname":"\xc3"}', INVALID_SYNTAX),  # truncated UTF-8 sequence
        (b'{"type":"ReqNewGame","playersCount":NaN}', INVALID_SYNTAX),
        (b"[" * 5000 + b"]" * 5000, INVALID_SYNTAX),
        (b'{"foo":1}', TYPE_NOT_FOUND),
        (b"{}", TYPE_NOT_FOUND),
        (b'{"type":null}', TYPE_NOT_FOUND),  # the reference dropped the connection
        (b'{"type":{}}', TYPE_NOT_FOUND),  # idem
        (b'{"type":42}', TYPE_NOT_FOUND),
        (b'{"type":["ReqWelcome"]}', TYPE_NOT_FOUND),
    ])
    def test_refusals_carry_the_fixed_texts(self, line, msg):
        with pytest.raises(ProtocolError) as info:
            decode_line(line)
        assert info.value.msg == msg
        assert info.value.to_dict() == {"msg": msg, "type": "ErrProtocol"}

    def test_a_stream_of_good_and_bad_lines(self):
        data = b'{"type":"ReqWelcome"}\r\ngarbage\n\n{"type":"ReqEndTurn"}\n'
        results = []
        for line in LineReader(io.BytesIO(data)):
            try:
                results.append(decode_line(line)["type"])
            except ProtocolError as e:
                results.append(e.msg)
                continue
        assert results == ["ReqWelcome", INVALID_SYNTAX, EMPTY_INPUT, "ReqEndTurn"]


class TestWrite:
    def test_encode_is_compact_json_plus_lf_keeping_key_order(self):
        assert encode({"bookedSeats": 1, "canPrepareNewGame": "Zoë", "type": "UpdateBookedSeats"}) == (
            '{"bookedSeats":1,"canPrepareNewGame":"Zoë","type":"UpdateBookedSeats"}\n'.encode())

    def test_encode_writes_int_keys_as_strings(self):
        assert encode({"shelves": {1: {"Coin": 1}}, "type": "X"}) == b'{"shelves":{"1":{"Coin":1}},"type":"X"}\n'

    def test_encode_refuses_non_dicts(self):
        with pytest.raises(TypeError):
            encode([1, 2])  # type: ignore[arg-type]

    def test_encoded_lines_read_back(self):
        msgs = [{"type": "ReqWelcome"}, {"msg": "a\nb\rc", "type": "ErrProtocol"}]
        data = b"".join(encode(m) for m in msgs)
        assert [decode_line(line) for line in LineReader(io.BytesIO(data))] == msgs

    def test_writer_flushes_and_threads_never_interleave(self):
        class SlowFile(io.BytesIO):
            flushes = 0

            def write(self, b):
                for i in range(0, len(b), 7):  # a write that goes out in small pieces
                    super().write(b[i:i + 7])
                return len(b)

            def flush(self):
                SlowFile.flushes += 1

        out = SlowFile()
        writer = LineWriter(out)
        msgs = [{"n": i, "pad": "x" * 50, "type": "T"} for i in range(200)]

        def work(part):
            for m in part:
                writer.write(m)

        threads = [threading.Thread(target=work, args=(msgs[i::4],)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        got = [decode_line(line) for line in LineReader(io.BytesIO(out.getvalue()))]
        assert sorted(got, key=lambda m: m["n"]) == msgs
        assert SlowFile.flushes == 200

    def test_writer_uses_sendall_on_sockets(self):
        sent = []

        class Sock:
            def sendall(self, data):
                sent.append(data)

        LineWriter(Sock()).write({"type": "ResWelcome"})
        assert sent == [b'{"type":"ResWelcome"}\n']
