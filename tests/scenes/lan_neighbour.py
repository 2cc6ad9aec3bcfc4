"""Another test of another run on this machine, for ``test_join_lan.py::
test_the_list_shows_no_table_another_test_run_announces`` (not collected: no ``test_`` in its
name). Run as a script, it takes the service type a test gets from the test kit (tests/conftest.py,
as pytest would set it up, without pytest's start-up), announces a table under it on loopback,
prints ``announced PORT`` and stops once its stdin closes."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import conftest  # noqa: E402  (the environment every test starts with)

from game.netcode.server import Server  # noqa: E402
from game.netcode.server_options import ServerOptions  # noqa: E402
from game.rules.components import default_config  # noqa: E402


def main() -> None:
    own = getattr(conftest, "lan_service_type", None)      # what its own test is given, if anything
    if own is not None:
        os.environ["MOR_SERVICE_TYPE"] = own()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(default_config(), ServerOptions(host="127.0.0.1", port=0, data_dir=Path(folder),
                                                        announce=True, announce_name="Neighbour's table",
                                                        announce_host="Zed"))
        server.start()
        try:
            print(f"announced {server.address[1]}", flush=True)
            sys.stdin.read()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
