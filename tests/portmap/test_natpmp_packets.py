"""NAT-PMP's packets (RFC 6886) as the game writes and reads them, without a socket: the requests'
bytes, the answers read back, a refusal's result code and an answer that is not one."""
import struct

import pytest

from game.portmap import natpmp


def test_the_requests_are_the_rfcs_bytes():
    assert natpmp.address_request() == b"\x00\x00"
    assert natpmp.map_request(51015, 51015, 7200) == struct.pack("!BBHHHI", 0, 2, 0, 51015, 51015, 7200)
    assert natpmp.map_request(51015, 0, 0)[-6:] == b"\x00\x00\x00\x00\x00\x00"      # removal


def test_answers_are_read_and_a_refusal_says_its_code():
    assert natpmp.read_address(struct.pack("!BBHI4s", 0, 128, 0, 9, bytes([203, 0, 113, 7]))) == \
        natpmp.AddressAnswer(9, "203.0.113.7")
    assert natpmp.read_map(struct.pack("!BBHIHHI", 0, 130, 0, 9, 51015, 51016, 3600)) == \
        natpmp.MapAnswer(9, 51015, 51016, 3600)
    with pytest.raises(natpmp.NatPmpError, match="Not Authorized/Refused") as refused:
        natpmp.read_map(struct.pack("!BBHIHHI", 0, 130, 2, 9, 51015, 0, 0))
    assert refused.value.code == 2


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x00\x81\x00\x00", struct.pack("!BBHI", 0, 128, 0, 1),
                                  b"HTTP/1.1 200 OK\r\n\r\n", struct.pack("!BBHIHH", 0, 130, 0, 1, 1, 1)])
def test_what_is_not_an_answer_is_unreadable(data):
    with pytest.raises(natpmp.Unreadable):
        natpmp.read_address(data) if len(data) != 14 else natpmp.read_map(data)
    with pytest.raises(natpmp.Unreadable):
        natpmp.read_map(data)
