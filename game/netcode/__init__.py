"""The wire layer: JSON lines over TCP, speaking the AM49 reference server's protocol.

- :mod:`.framing`: lines in and out (``LineReader``, ``LineFeeder``, ``LineWriter``, ``decode_line``,
  ``encode``).
- :mod:`.protocol`: the message catalogue (types, reason codes, refusal texts, limits);
  :mod:`.client_messages` parses and checks what a client sends, :mod:`.server_messages` builds
  what a server sends and says who may see each update.
- :mod:`.client`: the client side: ``ClientProtocol`` (no I/O) and ``Connection`` (one socket, a
  reader thread, automatic keep-alive).
- :mod:`.server`: the server, in parts: :mod:`.transport` (with :mod:`.door`, :mod:`.connection`,
  :mod:`.clocks`, :mod:`.tls`: the only part that touches a socket), :mod:`.lobby` (with
  :mod:`.table_lobby`, :mod:`.tables`), :mod:`.games` (with :mod:`.room`, :mod:`.room_players`,
  :mod:`.store`, :mod:`.history`) and :mod:`.bot_scheduler`; :mod:`.heap` and :mod:`.stall_log`
  for a long-running process.
- :mod:`.poller`: epoll (or a portable selector) for the server (and the benchmarks' load generator).
- :mod:`.cli`: ``server.py`` / ``mor-server``.

``docs/server.md`` describes how these fit together.

The wire format is described in ``shared/protocol/reference-notes.md`` (as observed on the reference
server); where we deliberately differ, the module docstrings say so.
"""
