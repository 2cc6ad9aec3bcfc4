"""A stand-in home router on 127.0.0.1, started by a test: the UPnP IGD a real ``miniupnpc``
talks to (SSDP discovery on loopback, the root description and the WANIPConnection SOAP control
over HTTP: AddPortMapping, DeletePortMapping, GetExternalIPAddress, GetSpecificPortMappingEntry,
GetGenericPortMappingEntry, GetStatusInfo) and a NAT-PMP responder (RFC 6886, UDP).

It can misbehave on purpose (:attr:`StandInRouter.mode`): ``"refuse"`` (a SOAP fault 606, NAT-PMP
result 2), ``"slow"`` (the control connection held without a word, then closed; no NAT-PMP
answer), ``"garbage"`` (an answer nobody can read) and ``"private"`` (its outside address is a
carrier's, 100.64.x.x). :meth:`StandInRouter.mappings` is what it forwards now, both protocols
together; :meth:`StandInRouter.env` is the ``MOR_ROUTER`` value that points the game at it.

Across network namespaces (tests/portmap/test_across_namespaces.py) it listens on the router's
inside address (``bind``), reports its real ``outside`` address, and ``on_map(what, mapping)`` is
told of each mapping made (``"add"``) or gone (``"remove"``), to forward it for real."""
from __future__ import annotations

import re
import socket
import struct
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

OUTSIDE = "203.0.113.7"
"""The stand-in's outside address (an address for documentation, RFC 5737: nothing is ever sent there)."""
CARRIER_OUTSIDE = "100.64.12.34"
"""Its outside address as a carrier's NAT gives one (RFC 6598): mode ``"private"``."""
SERVICE = "urn:schemas-upnp-org:service:WANIPConnection:1"
SSDP_GROUP = ("239.255.255.250", 1900)

DESCRIPTION = f"""<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType>
<friendlyName>Stand-in router</friendlyName><manufacturer>tests</manufacturer><modelName>stand-in</modelName>
<UDN>uuid:{{uuid}}</UDN>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType>
<friendlyName>WAN</friendlyName><UDN>uuid:{{uuid}}-1</UDN>
<serviceList><service><serviceType>urn:schemas-upnp-org:service:WANCommonInterfaceConfig:1</serviceType>
<serviceId>urn:upnp-org:serviceId:WANCommonIFC1</serviceId><controlURL>/ctl/CmnIfCfg</controlURL>
<eventSubURL>/evt/CmnIfCfg</eventSubURL><SCPDURL>/WANCfg.xml</SCPDURL></service></serviceList>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:1</deviceType>
<friendlyName>WAN connection</friendlyName><UDN>uuid:{{uuid}}-2</UDN>
<serviceList><service><serviceType>{SERVICE}</serviceType>
<serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId><controlURL>/ctl/IPConn</controlURL>
<eventSubURL>/evt/IPConn</eventSubURL><SCPDURL>/WANIPCn.xml</SCPDURL></service></serviceList>
</device></deviceList></device></deviceList></device></root>
"""

ENVELOPE = ('<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>{body}</s:Body></s:Envelope>\r\n')
FAULT = ('<s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>'
         '<UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>{code}</errorCode>'
         '<errorDescription>{words}</errorDescription></UPnPError></detail></s:Fault>')
GARBAGE = b"\x00\xffthis is not a SOAP answer \x07<<<"


@dataclass
class Mapping:
    """One port forwarded: ``outside`` port (protocol ``proto``) to ``client``:``inside``."""
    via: str          # "upnp" or "natpmp"
    proto: str
    outside: int
    client: str
    inside: int
    description: str
    lease: int
    at: float


class StandInRouter:
    """The stand-in router; :meth:`close` ends every thread it started (use it as a context manager)."""

    def __init__(self, *, upnp: bool = True, natpmp: bool = True, ssdp: bool = False, mode: str = "ok",
                 hold: float = 1.0, bind: str = "127.0.0.1", outside: str = OUTSIDE,
                 on_map: Callable[[str, "Mapping"], None] | None = None) -> None:
        self.mode = mode
        self.bind = bind
        self.outside_address = outside
        self.on_map = on_map
        self.hold = hold
        self.lock = threading.Lock()
        self.table: dict[tuple[str, int], Mapping] = {}
        self.requests: list[str] = []        # every action asked, in order ("upnp AddPortMapping", "natpmp map"...)
        self.uuid = f"5e1f0000-0000-4000-8000-{int(time.time() * 1000) % 10**12:012d}"
        self._threads: list[threading.Thread] = []
        self._closing = threading.Event()
        self.http: ThreadingHTTPServer | None = None
        self.udp: socket.socket | None = None
        self.ssdp: socket.socket | None = None
        if upnp:
            self.http = ThreadingHTTPServer((bind, 0), self._handler())
            self.http.daemon_threads = True
            self._spawn(self.http.serve_forever, 0.05)
        if natpmp:
            self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.udp.bind((bind, 0))
            self.udp.settimeout(0.05)
            self._spawn(self._natpmp_loop)
        if ssdp:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("", SSDP_GROUP[1]))
            s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                         socket.inet_aton(SSDP_GROUP[0]) + socket.inet_aton("127.0.0.1"))
            s.settimeout(0.05)
            self.ssdp = s
            self._spawn(self._ssdp_loop)

    # ------------------------------------------------------------------ what the tests read
    @property
    def location(self) -> str:
        """The root description's URL (what SSDP answers with)."""
        assert self.http is not None
        return f"http://{self.bind}:{self.http.server_address[1]}/rootDesc.xml"

    @property
    def natpmp_address(self) -> str:
        assert self.udp is not None
        return f"{self.bind}:{self.udp.getsockname()[1]}"

    def env(self, *, timeout: float = 0.4, discover: bool = False) -> str:
        """``MOR_ROUTER`` for the game: this router's UPnP description (or SSDP discovery on loopback,
        ``discover``) and NAT-PMP port, with short waits."""
        parts = []            # (only what is named is asked: nothing goes to a real network)
        if self.http is not None:
            parts.append("upnp=ssdp" if discover else f"upnp={self.location}")
        if self.udp is not None:
            parts.append(f"natpmp={self.natpmp_address}")
        parts.append(f"timeout={timeout}")
        return ",".join(parts)

    def mappings(self) -> list[Mapping]:
        """What is forwarded now (leases that ran out are gone)."""
        now = time.monotonic()
        with self.lock:
            for key, m in list(self.table.items()):
                if m.lease and now > m.at + m.lease:
                    del self.table[key]
            return sorted(self.table.values(), key=lambda m: (m.via, m.outside))

    def asked(self, action: str) -> int:
        """How many times ``action`` was asked ("upnp AddPortMapping", "natpmp map", ...)."""
        with self.lock:
            return sum(1 for r in self.requests if r == action)

    def wait_for(self, test, what: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not test():
            if time.monotonic() > deadline:
                raise AssertionError(f"the stand-in router never saw {what}: {self.requests[-12:]}")
            time.sleep(0.02)

    # ------------------------------------------------------------------ life
    def _spawn(self, target, *args) -> None:
        t = threading.Thread(target=target, args=args, daemon=True, name="stand-in router")
        t.start()
        self._threads.append(t)

    def close(self) -> None:
        self._closing.set()
        if self.http is not None:
            self.http.shutdown()
            self.http.server_close()
        for t in self._threads:
            t.join(timeout=5)
        for s in (self.udp, self.ssdp):
            if s is not None:
                s.close()

    def __enter__(self) -> "StandInRouter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _note(self, what: str) -> None:
        with self.lock:
            self.requests.append(what)

    @property
    def outside(self) -> str:
        return CARRIER_OUTSIDE if self.mode == "private" else self.outside_address

    def _told(self, what: str, mapping: "Mapping | None") -> None:
        if mapping is not None and self.on_map is not None:
            self.on_map(what, mapping)

    # ------------------------------------------------------------------ SSDP
    def _ssdp_loop(self) -> None:
        assert self.ssdp is not None
        while not self._closing.is_set():
            try:
                data, sender = self.ssdp.recvfrom(4096)
            except (socket.timeout, OSError):
                continue
            text = data.decode("latin-1")
            if not text.startswith("M-SEARCH"):
                continue
            st = re.search(r"(?im)^ST:\s*(\S+)", text)
            target = st.group(1) if st else ""
            if not ("InternetGatewayDevice" in target or "WANIPConnection" in target or target == "ssdp:all"
                    or target == "upnp:rootdevice"):
                continue
            self._note("ssdp search")
            answer = (f"HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: {target}\r\n"
                      f"USN: uuid:{self.uuid}::{target}\r\nEXT:\r\nSERVER: stand-in UPnP/1.1 test/1\r\n"
                      f"LOCATION: {self.location}\r\n\r\n")
            try:
                self.ssdp.sendto(answer.encode(), sender)
            except OSError:
                pass

    # ------------------------------------------------------------------ UPnP control
    def _handler(self):
        router = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:   # (quiet)
                pass

            def _send(self, code: int, body: bytes, kind: str = 'text/xml; charset="utf-8"') -> None:
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)
                self.close_connection = True

            def do_GET(self) -> None:
                if self.path == "/rootDesc.xml":
                    router._note("upnp description")
                    self._send(200, DESCRIPTION.replace("{uuid}", router.uuid).encode())
                else:
                    self._send(404, b"")

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(min(size, 65536)).decode("utf-8", "replace")
                action = (self.headers.get("SOAPAction") or "").strip('"').rsplit("#", 1)[-1]
                router._note(f"upnp {action}")
                mode = router.mode
                if mode == "slow" and action not in ("GetStatusInfo",):
                    router._closing.wait(router.hold)     # nothing said, then the line dropped
                    self.close_connection = True
                    return
                if mode == "garbage":
                    self._send(200, GARBAGE)
                    return
                args = dict(re.findall(r"<(New\w+)>([^<]*)</\1>", body))
                code, out = router._control(action, args, self.client_address[0])
                if code:
                    words = {606: "Action not authorized", 714: "NoSuchEntryInArray", 718: "ConflictInMappingEntry",
                             401: "Invalid Action"}.get(code, "Action Failed")
                    self._send(500, ENVELOPE.format(body=FAULT.format(code=code, words=words)).encode())
                    return
                fields = "".join(f"<{k}>{v}</{k}>" for k, v in out.items())
                self._send(200, ENVELOPE.format(body=f'<u:{action}Response xmlns:u="{SERVICE}">{fields}'
                                                     f'</u:{action}Response>').encode())

        return Handler

    def _control(self, action: str, a: dict[str, str], peer: str) -> tuple[int, dict[str, Any]]:
        """(UPnP error code or 0, the answer's fields) for one SOAP action."""
        if action == "GetStatusInfo":
            return 0, {"NewConnectionStatus": "Connected", "NewLastConnectionError": "ERROR_NONE", "NewUptime": 100}
        if action == "GetExternalIPAddress":
            return 0, {"NewExternalIPAddress": self.outside}
        if action == "GetConnectionTypeInfo":
            return 0, {"NewConnectionType": "IP_Routed", "NewPossibleConnectionTypes": "IP_Routed"}
        if action == "AddPortMapping":
            if self.mode == "refuse":
                return 606, {}
            proto, outside = a.get("NewProtocol", "TCP"), int(a.get("NewExternalPort") or 0)
            client = a.get("NewInternalClient", "")
            with self.lock:
                held = self.table.get((proto, outside))
                if held is not None and held.client != client:
                    return 718, {}
                made = self.table[(proto, outside)] = Mapping("upnp", proto, outside, client,
                                                              int(a.get("NewInternalPort") or 0),
                                                              a.get("NewPortMappingDescription", ""),
                                                              int(a.get("NewLeaseDuration") or 0), time.monotonic())
            if held is None or held.inside != made.inside:
                self._told("remove", held)
                self._told("add", made)
            return 0, {}
        if action == "DeletePortMapping":
            key = (a.get("NewProtocol", "TCP"), int(a.get("NewExternalPort") or 0))
            with self.lock:
                if self.table.get(key) is None or self.table[key].via != "upnp":
                    return 714, {}
                gone = self.table.pop(key)
            self._told("remove", gone)
            return 0, {}
        if action == "GetSpecificPortMappingEntry":
            key = (a.get("NewProtocol", "TCP"), int(a.get("NewExternalPort") or 0))
            m = next((m for m in self.mappings() if (m.proto, m.outside) == key), None)
            if m is None:
                return 714, {}
            return 0, {"NewInternalPort": m.inside, "NewInternalClient": m.client, "NewEnabled": 1,
                       "NewPortMappingDescription": m.description, "NewLeaseDuration": m.lease}
        if action == "GetGenericPortMappingEntry":
            found = self.mappings()
            i = int(a.get("NewPortMappingIndex") or 0)
            if i >= len(found):
                return 713, {}
            m = found[i]
            return 0, {"NewRemoteHost": "", "NewExternalPort": m.outside, "NewProtocol": m.proto,
                       "NewInternalPort": m.inside, "NewInternalClient": m.client, "NewEnabled": 1,
                       "NewPortMappingDescription": m.description, "NewLeaseDuration": m.lease}
        return 401, {}

    # ------------------------------------------------------------------ NAT-PMP
    def _natpmp_loop(self) -> None:
        assert self.udp is not None
        epoch = 0
        while not self._closing.is_set():
            try:
                data, sender = self.udp.recvfrom(1100)
            except (socket.timeout, OSError):
                continue
            epoch += 1
            if len(data) < 2:
                continue
            op = data[1]
            self._note("natpmp " + ("address" if op == 0 else "map"))
            mode = self.mode
            if mode == "slow":
                continue
            if mode == "garbage":
                self.udp.sendto(GARBAGE[:7], sender)
                continue
            result = 2 if mode == "refuse" else 0
            if op == 0:
                ip = socket.inet_aton(self.outside)
                self.udp.sendto(struct.pack("!BBHI4s", 0, 128, result, epoch, ip), sender)
                continue
            if op not in (1, 2) or len(data) < 12:
                self.udp.sendto(struct.pack("!BBHI", 0, 128 + op, 5, epoch), sender)
                continue
            _v, _op, _r, inside, wanted, lifetime = struct.unpack("!BBHHHI", data[:12])
            proto = "UDP" if op == 1 else "TCP"
            outside = 0
            if result == 0:
                outside = self._natpmp_map(proto, sender[0], inside, wanted, lifetime)
            self.udp.sendto(struct.pack("!BBHIHHI", 0, 128 + op, result, epoch, inside, outside,
                                        lifetime if result == 0 else 0), sender)

    def _natpmp_map(self, proto: str, client: str, inside: int, wanted: int, lifetime: int) -> int:
        """A NAT-PMP mapping of ``client``:``inside`` made, renewed or (``lifetime`` 0) removed; its outside port."""
        with self.lock:
            mine = [k for k, m in self.table.items() if m.via == "natpmp" and m.client == client
                    and m.inside == inside and m.proto == proto]
            if lifetime == 0:
                gone = [self.table.pop(k) for k in mine]
                made = None
                outside = 0
            else:
                gone = []
                if mine:
                    outside = mine[0][1]
                else:
                    outside = wanted or inside
                    while (proto, outside) in self.table:
                        outside += 1
                made = None if mine else Mapping("natpmp", proto, outside, client, inside, "", lifetime,
                                                 time.monotonic())
                self.table[(proto, outside)] = made or Mapping("natpmp", proto, outside, client, inside, "",
                                                               lifetime, time.monotonic())
        for m in gone:
            self._told("remove", m)
        self._told("add", made)
        return outside
