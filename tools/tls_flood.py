"""A TLS handshake flood (issue 28, finding 10), run as a process of its own.

``python tools/tls_flood.py PORT SECONDS [FIRST]``: for SECONDS, open TLS connections to
127.0.0.1:PORT from 40 loopback addresses in turn (127.0.0.2-41, starting after FIRST), each
sending its ClientHello (the server's part of a handshake is the costly one), held while 20 more
are opened, then closed. Prints how many it opened. Used by ``bench/server_attacks.py`` (``tls_flood``)
and by ``tests/netcode/test_server_tls.py``.
"""
import socket
import ssl
import sys
import time


def main() -> None:
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    held, n, end = [], first, time.monotonic() + seconds
    while time.monotonic() < end:
        n += 1
        try:
            raw = socket.socket()
            raw.bind((f"127.0.0.{2 + n % 40}", 0))
            raw.connect(("127.0.0.1", port))
            tls = ctx.wrap_socket(raw, do_handshake_on_connect=False)
            tls.setblocking(False)
            try:
                tls.do_handshake()    # its ClientHello goes out; the rest is the server's work
            except ssl.SSLWantReadError:
                pass
            held.append(tls)
            if len(held) > 20:
                held.pop(0).close()
        except OSError:
            time.sleep(0.01)
    for tls in held:
        tls.close()
    print(n - first)


if __name__ == "__main__":
    main()
