"""The terminal around the text client: ``mor-text`` and ``mor --text``.

Lines typed are read on a thread of their own and handed to the one loop, which also wakes when
the game has news (:attr:`Match.on_message`), so what others do is said as it happens, even while
the player is typing; a waiting game sleeps. On a terminal, prompt_toolkit gives history, line
editing and completion of the commands; otherwise (a pipe, a script, ``--plain``, ``NO_COLOR``,
or no prompt_toolkit) lines are read with ``input()`` and written one per line, with no cursor
movement and no colour, so a screen reader or a script follows them.
"""
from __future__ import annotations

import argparse
import codecs
import logging
import os
import queue
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

from game import i18n, runtime
from game.i18n import LANGUAGES
from game.i18n.cli import speak_argparse
from game.client.words import LEAVING_ON_SIGNAL, validate_nickname

from .client import Options, TextClient

EOF = object()
INTERRUPT = object()
WAKE = object()
TICK = 1.0
"""Seconds the loop sleeps at most with nothing typed and no news (a dropped connection is noticed then)."""
TERMINATE_SIGNALS = ("SIGTERM", "SIGHUP")
"""Signals on which the text client leaves as Ctrl-C does (a ``kill``, a shutdown, a closed terminal)."""


class Terminated(BaseException):
    """A terminate signal came (:data:`TERMINATE_SIGNALS`): leave now, saying why (raised by its handler)."""


def _terminated(signum: int, frame: object) -> None:
    signal.signal(signum, signal.SIG_IGN)    # once is enough: the client is on its way out
    raise Terminated(signal.Signals(signum).name)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    speak_argparse()
    parser = argparse.ArgumentParser(prog="mor-text", description=i18n._(
        "Play Masters of Renaissance in a terminal, by typed commands (for screen readers, SSH and scripts)."))
    parser.add_argument("--plain", action="store_true",
                        help=i18n._("one line per event, no colour, no line editor (also when NO_COLOR is set or "
                                    "the output is not a terminal)"))
    parser.add_argument("--name", metavar="NICKNAME", help=i18n._("play under this name (default: the saved one)"))
    parser.add_argument("--data-dir", metavar="DIR", type=Path,
                        help=i18n._("where games are saved (default: the game's data folder)"))
    parser.add_argument("--bot-pace", metavar="SECONDS", type=float,
                        help=i18n._("seconds between the computer players' moves (default: the saved setting)"))
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                        help=i18n._("the language the game speaks (default: the saved setting, else the system's)"))
    parser.add_argument("command", nargs="?", metavar="key|LINK",
                        help=i18n._("key: print your player key (who you are on servers: your rating follows it), "
                                    "where it is kept and how to copy it to another machine, then exit; a game link "
                                    "a host sent (mor://203.0.113.7:51015, or .../CODE for a private table): join it"))
    return parser.parse_args(argv)


def plain_wanted(plain_flag: bool, stdin: Any = None, stdout: Any = None) -> bool:
    """Plain output: asked for, NO_COLOR set (to anything), or not a terminal both ways."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    return bool(plain_flag or "NO_COLOR" in os.environ or not stdout.isatty() or not stdin.isatty())


def plain_lines(stdin: Any) -> Iterator[str]:
    """The lines typed or piped in, without the line editor. Read from the descriptor itself, not
    through ``input()``: a thread waiting in ``input()`` holds the stream's lock, and a program that
    ends meanwhile (the player said quit while more input was on its way) dies of it at shutdown."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):   # not a real stream (a test's): input() it is
        while True:
            yield input()
    decoder = codecs.getincrementaldecoder(getattr(stdin, "encoding", None) or "utf-8")(errors="replace")
    pending = ""
    while True:
        chunk = os.read(fd, 4096)
        pending += decoder.decode(chunk, final=not chunk)
        *done, pending = pending.split("\n")
        for line in done:
            yield line.removesuffix("\r")
        if not chunk:
            if pending:
                yield pending.removesuffix("\r")
            return


class Terminal:
    """Reads lines on a thread, writes the client's lines, and runs the loop."""

    def __init__(self, plain: bool) -> None:
        self.plain = plain
        self.inbox: queue.Queue = queue.Queue()
        self.prompt_session: Any = None
        self.client: TextClient | None = None
        if not plain:
            try:
                from prompt_toolkit import PromptSession
                from prompt_toolkit.completion import Completer, Completion

                terminal = self

                class Words(Completer):
                    def get_completions(self, document: Any, complete_event: Any) -> Any:
                        word = document.get_word_before_cursor()
                        if " " in document.text_before_cursor.strip():
                            return
                        for w in terminal.client.words() if terminal.client else []:
                            if w.startswith(word.lower()):
                                yield Completion(w, start_position=-len(word))

                # completion on Tab only, and no room kept under the line for a menu: nothing pops
                # up or moves while the player types (a screen reader follows the line). So the
                # cursor's position is never needed: not asked, a terminal that would not answer
                # is never told "WARNING: your terminal doesn't support cursor position requests"
                os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")
                self.prompt_session = PromptSession(completer=Words(), complete_while_typing=False,
                                                    reserve_space_for_menu=0)
            except Exception:   # no prompt_toolkit, or a terminal it cannot drive: plain input()
                logging.getLogger("mor.text").info("no line editor: plain input()", exc_info=True)
                self.prompt_session = None

    def say(self, line: str) -> None:
        try:
            print(line, flush=True)
        except OSError:         # the terminal is gone (closed with the game in it): nobody to tell
            pass

    def wake(self) -> None:
        self.inbox.put(WAKE)

    def _read(self) -> None:
        lines = None if self.prompt_session is not None else plain_lines(sys.stdin)
        while True:
            try:
                if lines is None:
                    text = self.prompt_session.prompt("> ")
                else:
                    text = next(lines)
            except (EOFError, StopIteration):
                self.inbox.put(EOF)
                return
            except KeyboardInterrupt:      # Ctrl-C in the line editor
                self.inbox.put(INTERRUPT)
                return
            except Exception:
                logging.getLogger("mor.text").exception("the terminal cannot be read")
                self.inbox.put(EOF)
                return
            self.inbox.put(text)

    def run(self, make: Callable[[Callable[[str], None], Callable[[], None]], TextClient]) -> int:
        self.client = client = make(self.say, self.wake)
        patch: Any = None
        if self.prompt_session is not None:
            from prompt_toolkit.patch_stdout import patch_stdout
            patch = patch_stdout(raw=False)
            patch.__enter__()
        reader = threading.Thread(target=self._read, name="text-input", daemon=True)
        try:
            client.start()
            reader.start()
            while not client.done:
                try:
                    item = self.inbox.get(timeout=TICK)
                except queue.Empty:
                    item = WAKE
                if item is EOF or item is INTERRUPT:
                    client.hang_up(i18n._("Ctrl-C: leaving.") if item is INTERRUPT
                                   else i18n._("The end of the input: leaving."))
                    break
                if item is not WAKE:
                    client.line(item)
                client.tick()
        except KeyboardInterrupt:          # Ctrl-C without the line editor
            client.hang_up(i18n._("Ctrl-C: leaving."))
        except Terminated:
            client.hang_up(i18n._(LEAVING_ON_SIGNAL))
        finally:
            client.close()
            self._stop_prompt(reader)
            if patch is not None:
                patch.__exit__(None, None, None)
        return 0

    def _stop_prompt(self, reader: threading.Thread) -> None:
        """End the line editor's prompt from its own loop, so that the terminal is given back as
        it was (raw mode off) before the program ends."""
        app = self.prompt_session.app if self.prompt_session is not None else None
        loop = getattr(app, "loop", None)
        if app is None or loop is None or not app.is_running:
            return

        def stop() -> None:
            if app.is_running:
                app.exit(exception=EOFError())
        try:
            loop.call_soon_threadsafe(stop)
        except RuntimeError:     # its loop has just ended
            return
        reader.join(timeout=2)


def main(argv: list[str] | None = None) -> int:
    from game.settings import Settings
    i18n.use(Settings.load().language)     # the saved choice, else the system's (--help is said in it)
    args = parse_args(argv)
    if args.lang:
        i18n.use(args.lang)                # --lang overrides it
    if args.name is not None:
        name = validate_nickname(args.name)
        if name is None:
            print("mor-text: " + i18n._("--name {name} cannot be a name: 1 to 24 letters, digits, spaces or "
                                        "punctuation, with no control characters.").format(name=repr(args.name)),
                  file=sys.stderr)
            return 2
        args.name = name
    link = None
    if args.command not in (None, "key"):
        from game.client.links import LinkError, is_link, parse_link
        if not is_link(args.command):
            print("mor-text: " + i18n._("{word} is neither key nor a game link (mor://HOST:PORT).").format(
                word=repr(args.command[:40])), file=sys.stderr)
            return 2
        try:
            link = parse_link(args.command)
        except LinkError as e:
            print("mor-text: " + i18n._("this link cannot be opened.") + f" {e}", file=sys.stderr)
            return 2
    if args.command == "key":
        from game.client.keys import key_file, key_lines
        print("\n".join(key_lines(key_file(args.data_dir))))
        return 0
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    # Ctrl-C leaves the game (see Terminal.run) even when whatever started us ignored it (a
    # launcher, a test runner's worker): an ignored SIGINT is inherited, and the player would be stuck
    signal.signal(signal.SIGINT, signal.default_int_handler)
    plain = plain_wanted(args.plain)
    options = Options(nickname=args.name, data_dir=args.data_dir, bot_pace=args.bot_pace, link=link)
    caught = {}
    for name in TERMINATE_SIGNALS:     # ... and so do a kill, a shutdown and a closed terminal
        if hasattr(signal, name):
            caught[getattr(signal, name)] = signal.signal(getattr(signal, name), _terminated)
    try:
        return Terminal(plain).run(lambda say, wake: _settled(TextClient(say, options, wake)))
    except Terminated:                 # before the game was up: nothing to leave
        return 0
    finally:
        for sig, handler in caught.items():
            signal.signal(sig, handler)


def _settled(client: TextClient) -> TextClient:
    """The client, built (the rules loaded): the collector's policy applies from here on."""
    runtime.settle_collector()
    return client


if __name__ == "__main__":
    import multiprocessing
    multiprocessing.freeze_support()
    sys.exit(main())
