"""NAT-PMP (RFC 6886): the few UDP packets that ask a gateway for its outside address and for a
port mapping, their encoding (pure functions) and one exchange with retries (:func:`exchange`).

A request is sent again after 250 ms, then twice as long each time (section 3.1), until the
time given is spent; an answer must come from the gateway's port 5351 and match the request.
"""
from __future__ import annotations

import socket
import struct
import time
from dataclasses import dataclass

__all__ = ["NatPmpError", "NoAnswer", "Unreadable", "AddressAnswer", "MapAnswer", "address_request", "map_request",
           "read_address", "read_map", "exchange", "RESULTS"]

TCP = 2
RESULTS = {1: "Unsupported Version", 2: "Not Authorized/Refused", 3: "Network Failure", 4: "Out of resources",
           5: "Unsupported opcode"}
"""The result codes a gateway may answer with (section 3.5), in the RFC's words."""


class NatPmpError(Exception):
    """The gateway answered with a result code other than 0 (:data:`RESULTS`)."""

    def __init__(self, code: int) -> None:
        super().__init__(RESULTS.get(code, f"result code {code}"))
        self.code = code


class NoAnswer(Exception):
    """Nothing came back in the time given."""


class Unreadable(Exception):
    """Something came back that is not a NAT-PMP answer to the request."""


@dataclass(frozen=True)
class AddressAnswer:
    epoch: int
    outside: str


@dataclass(frozen=True)
class MapAnswer:
    epoch: int
    inside: int
    outside: int
    lifetime: int


def address_request() -> bytes:
    """Version 0, opcode 0: the gateway's outside address."""
    return b"\x00\x00"


def map_request(inside: int, outside: int, lifetime: int, opcode: int = TCP) -> bytes:
    """A mapping of this computer's ``inside`` port (``outside``: the port wished for, 0: any),
    for ``lifetime`` seconds; lifetime 0 and outside 0 removes it."""
    return struct.pack("!BBHHHI", 0, opcode, 0, inside, outside, lifetime)


def _head(data: bytes, opcode: int, size: int) -> tuple[int, int]:
    if len(data) < 8 or data[0] != 0 or data[1] != 128 + opcode:
        raise Unreadable(f"not an answer to opcode {opcode}: {data[:16]!r}")
    result, epoch = struct.unpack("!HI", data[2:8])
    if result:
        raise NatPmpError(result)
    if len(data) < size:
        raise Unreadable(f"an answer of {len(data)} bytes, {size} expected")
    return result, epoch


def read_address(data: bytes) -> AddressAnswer:
    """:raises Unreadable: not such an answer; :raises NatPmpError: the gateway refused."""
    _r, epoch = _head(data, 0, 12)
    return AddressAnswer(epoch, socket.inet_ntoa(data[8:12]))


def read_map(data: bytes, opcode: int = TCP) -> MapAnswer:
    """:raises Unreadable: not such an answer; :raises NatPmpError: the gateway refused."""
    _r, epoch = _head(data, opcode, 16)
    inside, outside, lifetime = struct.unpack("!HHI", data[8:16])
    return MapAnswer(epoch, inside, outside, lifetime)


def exchange(gateway: tuple[str, int], request: bytes, wait: float) -> bytes:
    """Send ``request`` to ``gateway`` and return the first answer from it, sending again after
    250 ms, 500 ms... until ``wait`` seconds are spent.

    :raises NoAnswer: nothing came back in time (or the gateway cannot be reached).
    """
    deadline = time.monotonic() + wait
    delay = 0.25
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(gateway)          # (answers from anyone else are not read)
        except OSError as e:
            raise NoAnswer(str(e)) from e
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NoAnswer(f"no answer from {gateway[0]}:{gateway[1]}")
            try:
                s.send(request)
            except OSError:
                pass                    # (a refusal comes back as an error on send or recv: wait on)
            until = min(deadline, time.monotonic() + delay)
            while (left := until - time.monotonic()) > 0:
                s.settimeout(left)
                try:
                    return s.recv(1100)
                except socket.timeout:
                    break
                except OSError:         # port unreachable: nobody listens there
                    time.sleep(min(left, 0.05))
            delay *= 2
