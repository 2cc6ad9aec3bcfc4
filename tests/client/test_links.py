"""A game link (``mor://HOST:PORT[/CODE]``) read strictly: good ones give the address, hostile
ones are refused in words a player reads (never a traceback)."""
from __future__ import annotations

import pytest

from game.client.links import LINK_MAX, Link, LinkError, is_link, make_link, parse_link


@pytest.mark.parametrize("text, link", [
    ("mor://203.0.113.7:51015", Link("203.0.113.7", 51015)),
    ("  mor://203.0.113.7:51015/  ", Link("203.0.113.7", 51015)),
    ("MOR://host.lan:4000/k7qx2m", Link("host.lan", 4000, "K7QX2M")),
    ("mor://[::1]:4000/ABC234", Link("::1", 4000, "ABC234")),
    ("mor://203.0.113.7:51015/k7qf-m2xd", Link("203.0.113.7", 51015, "K7QF-M2XD")),
    ("mor://[2001:db8::7]:65535", Link("2001:db8::7", 65535)),
    ("mor://a-b.example.org:1", Link("a-b.example.org", 1)),
])
def test_good_links_give_the_address_and_code(text, link):
    assert parse_link(text) == link


@pytest.mark.parametrize("link", [Link("203.0.113.7", 51015), Link("::1", 4000, "ABC234"), Link("h.lan", 9, "Z")])
def test_a_made_link_reads_back(link):
    assert parse_link(make_link(link.host, link.port, link.code)) == link
    assert parse_link(str(link)) == link


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("mor://203.0.113.7:0", "from 1 to 65535"),
    ("mor://203.0.113.7:65536", "from 1 to 65535"),
    ("mor://203.0.113.7:99999999999999999999", "from 1 to 65535"),
    ("mor://203.0.113.7:-1", "from 1 to 65535"),
    ("mor://203.0.113.7:port", "from 1 to 65535"),
    ("mor://203.0.113.7", "no port"),
    ("mor://[::1]", "no port"),
    ("mor://", "no address"),
    ("mor://:51015", "not the address"),
    ("mor://" + "a" * 10_000 + ":51015", "too long"),
    ("http://203.0.113.7:51015", "\u201chttp:\u201d links are not game links"),
    ("file:///etc/passwd", "\u201cfile:\u201d links are not game links"),
    ("javascript:alert(1)", "not game links"),
    ("203.0.113.7:51015", "not a game link"),
    ("mor:203.0.113.7:51015", "two slashes"),
    ("mor://203.0.113.7:51015;rm -rf ~", "no spaces"),
    ("mor://203.0.113.7:51015/$(reboot)", "no \u201c$()\u201d"),
    ("mor://203.0.113.7:51015`id`", "no \u201c`\u201d"),
    ("mor://host;ls:51015", "no \u201c;\u201d"),
    ("mor://203.0.113.7:51015/AB|sh", "no \u201c|\u201d"),
    ("mor://203.0.113.7 :51015", "no spaces"),
    ("mor://203.0.113.7:51015\n", None),          # a trailing newline is only whitespace: read
    ("mor://203.0.113.7:\n51015", "no spaces"),
    ("mor://203.0.113.7:51015/\x1b[2J", "no spaces or invisible"),
    ("mor://a@b:51015", "no user name"),
    ("mor://user:pw@203.0.113.7:51015", "no user name"),
    ("mor://203.0.113.7%3A51015", "percent signs"),
    ("mor://%32%30%33.0.113.7:51015", "percent signs"),
    ("mor://[fe80::1%25eth0]:51015", "percent signs"),
    ("mor://203.0.113.7:51015/?code=ABC", "nothing after ? or #"),
    ("mor://203.0.113.7:51015#top", "nothing after ? or #"),
    ("mor://203.0.113.7:51015/ABC/DEF", "not an invite code"),
    ("mor://203.0.113.7:51015/-ABC", "not an invite code"),
    ("mor://203.0.113.7:51015/" + "A" * 40, "not an invite code"),
    ("mor://[::1:51015", "no port"),
    ("mor://[nothost]:51015", "not the address"),
    ("mor://-bad-.lan:51015", "not the address"),
    ("mor://h\u00e9.lan:51015", "no \u201c\u00e9\u201d"),
    ("mor://203.0.113.7:\uff15\uff11", "no \u201c"),   # full-width digits are not a port
])
def test_hostile_links_are_refused_in_words(text, words):
    if words is None:
        assert parse_link(text).port == 51015
        return
    with pytest.raises(LinkError) as caught:
        parse_link(text)
    said = str(caught.value)
    assert words in said, said
    assert len(said) < 300, "a refusal is short enough to read, the hostile text cut"
    assert "\n" not in said and "\x1b" not in said and "Traceback" not in said


def test_a_link_is_told_from_an_address():
    assert is_link(" mor://x:1") and is_link("MOR:bad")
    assert not is_link("192.168.1.23:51015") and not is_link("host.lan")


def test_link_max_is_a_host_name_and_more():
    assert parse_link("mor://" + "a" * 63 + ".lan:1").port == 1
    assert LINK_MAX < 1000


def test_an_address_field_takes_a_link_or_an_address():
    from game.client.links import read_address
    assert read_address("mor://h.lan:4000/k7qf-m2xd", 51015) == Link("h.lan", 4000, "K7QF-M2XD")
    assert read_address("h.lan", 51015) == Link("h.lan", 51015)
    assert read_address("h.lan:7", 51015) == Link("h.lan", 7)
    with pytest.raises(LinkError):
        read_address("mor://h.lan:0", 51015)
    with pytest.raises(ValueError):
        read_address("h.lan:0", 51015)
