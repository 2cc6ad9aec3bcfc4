"""The wire layer: JSON lines over TCP, speaking the AM49 reference server's protocol.

- :mod:`.framing`: lines in and out (``LineReader``, ``LineWriter``, ``decode_line``, ``encode``).
- :mod:`.protocol`: the message catalogue, client-message parsing and server-message builders.
- :mod:`.client`: ``Connection``, a client socket with a reader thread and automatic keep-alive.

The wire format is described in ``shared/protocol/reference-notes.md`` (as observed on the reference
server); where we deliberately differ, the module docstrings say so.
"""
