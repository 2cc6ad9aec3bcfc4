"""A double-click on ``main.py`` with a Python that lacks the libraries sets up ``.venv`` and
restarts inside it; a too-old Python gets a clear message (``main.py`` stays readable by it).

Nothing here creates a real virtual environment (that takes a network and a minute); the
decision, the installer's progress and failure handling, and the restart are tested with fakes.
"""
from __future__ import annotations

import ast
import importlib.util
import io
import sys
import tokenize
from pathlib import Path

import pytest

from game import bootstrap as B

ROOT = Path(__file__).resolve().parents[1]


def load_main():
    spec = importlib.util.spec_from_file_location("mor_main_under_test", ROOT / "main.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)        # defines functions only; runs nothing
    return mod


def test_main_py_parses_with_old_grammar():
    src = (ROOT / "main.py").read_text(encoding="utf-8")
    tree = ast.parse(src, feature_version=(3, 4))     # no f-strings, walrus, match...
    for node in ast.walk(tree):
        assert not isinstance(node, ast.AnnAssign), "no annotations in main.py"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args)
        assert not isinstance(node, (ast.AsyncFunctionDef, ast.Await)), "no async in main.py"
    assert not any(t.type == tokenize.OP and t.string == "->"
                   for t in tokenize.generate_tokens(io.StringIO(src).readline))
    names = {n.names[0].name for n in ast.walk(tree) if isinstance(n, ast.Import)}
    assert names <= {"os", "sys", "tkinter", "Tkinter", "tkMessageBox", "multiprocessing"}   # stdlib only


def test_main_py_calls_freeze_support_before_anything_else():
    """In the one-file executable a bot's worker process is the program started again: it must
    become the worker before the game's start-up runs (a second window otherwise)."""
    tree = ast.parse((ROOT / "main.py").read_text(encoding="utf-8"))
    guard = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    calls = [ast.unparse(n) for n in guard.body if isinstance(n, ast.Expr)]
    assert calls and calls[0] == "multiprocessing.freeze_support()", calls


def test_a_too_old_python_is_told_why():
    main = load_main()
    msg = main.too_old((3, 8, 10, "final", 0))
    assert "needs Python 3.11 or newer" in msg and "this is Python 3.8" in msg and "python.org" in msg
    assert main.too_old((2, 7, 18)) .startswith("Masters of Renaissance needs Python 3.11")
    assert main.too_old(sys.version_info) is None and main.too_old((3, 12, 0)) is None


def test_missing_modules_are_found_without_importing():
    assert B.missing_modules(["json", "surely_not_a_module_mor", "os.path"]) == ["surely_not_a_module_mor"]
    assert B.missing_modules() == []                  # the test environment has them all


@pytest.mark.parametrize("kw,action", [
    (dict(missing=[]), "run"),
    (dict(missing=["pygame"], frozen=True), "run"),
    (dict(missing=["pygame"], skip=True), "run"),
    (dict(missing=["pygame"]), "install"),
    (dict(missing=["pygame"], ready=True), "enter"),
    (dict(missing=["pygame"], in_venv=True), "fail"),
    (dict(missing=["pygame"], ready=True, reexecuted=True), "fail"),
])
def test_the_plan(tmp_path, kw, action):
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    args = dict(root=tmp_path, in_venv=False, ready=False)
    args.update(kw)
    missing = args.pop("missing")
    p = B.plan(missing, **args)
    assert p.action == action
    if action == "fail":
        assert "pygame" in p.reason and ".venv" in p.reason


def test_no_pyproject_no_install(tmp_path):
    p = B.plan(["pygame"], root=tmp_path, in_venv=False, ready=False)
    assert p.action == "fail" and "pyproject.toml" in p.reason


def fake_venv(root: Path, stamp: bool = True) -> None:
    py = B.venv_python(root / ".venv")
    py.parent.mkdir(parents=True)
    py.write_text("")
    if stamp:
        (root / ".venv" / B.STAMP).write_text("ok")


def test_first_start_installs_then_restarts_and_a_second_start_goes_straight_in(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    calls = []
    monkeypatch.setattr(B, "missing_modules", lambda names=B.REQUIRED: ["pygame"])
    monkeypatch.delenv(B.REEXEC_ENV, raising=False)
    monkeypatch.delenv(B.SKIP_ENV, raising=False)

    def install(root):
        calls.append("install")
        fake_venv(root)
        return True, ""

    monkeypatch.setattr(B, "install", install)
    monkeypatch.setattr(B, "restart_in_venv", lambda root, argv: calls.append(("restart", list(argv))))
    B.ensure_environment(tmp_path, ["main.py", "--size", "1024x640"])
    assert calls == ["install", ("restart", ["main.py", "--size", "1024x640"])]
    assert B.venv_ready(tmp_path)
    calls.clear()
    B.ensure_environment(tmp_path, ["main.py"])
    assert calls == [("restart", ["main.py"])]        # no second install
    # pyproject.toml changed since: install again
    stamp = tmp_path / ".venv" / B.STAMP
    import os
    os.utime(stamp, (1, 1))
    assert not B.venv_ready(tmp_path)


def test_a_failed_install_is_told_and_stops(tmp_path, monkeypatch, capsys):
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    monkeypatch.setattr(B, "missing_modules", lambda names=B.REQUIRED: ["pygame"])
    monkeypatch.delenv(B.REEXEC_ENV, raising=False)
    monkeypatch.setattr(B, "install", lambda root: (False, "pip: no network"))
    monkeypatch.setattr(B, "restart_in_venv", lambda root, argv: pytest.fail("must not restart"))
    monkeypatch.setitem(sys.modules, "tkinter", None)     # no dialog in a test
    with pytest.raises(SystemExit) as e:
        B.ensure_environment(tmp_path, ["main.py"])
    assert e.value.code == 1
    assert "could not set itself up" in capsys.readouterr().err


def test_the_installer_reports_progress_writes_its_stamp_and_keeps_the_output_of_a_failure(tmp_path, monkeypatch):
    (tmp_path / ".venv").mkdir()
    ok_cmds = [[sys.executable, "-c", "print('making the venv')"],
               [sys.executable, "-c", "print('Collecting pygame-ce'); print('Successfully installed')"]]
    monkeypatch.setattr(B, "install_commands", lambda root: ok_cmds)
    shown: list[str] = []
    ok, detail = B.install(tmp_path, show=shown.append)
    assert ok and detail == ""
    assert "Collecting pygame-ce" in shown and any(s.endswith("\u2026") for s in shown)
    assert (tmp_path / ".venv" / B.STAMP).exists()
    bad = [[sys.executable, "-c", "import sys; print('ERROR: no matching distribution'); sys.exit(1)"]]
    monkeypatch.setattr(B, "install_commands", lambda root: bad)
    (tmp_path / ".venv" / B.STAMP).unlink()
    ok, detail = B.install(tmp_path, show=shown.append)
    assert not ok and "no matching distribution" in detail and "python3-venv" in detail
    assert not (tmp_path / ".venv" / B.STAMP).exists()


def test_the_real_commands_make_the_venv_beside_main_py(tmp_path):
    cmds = B.install_commands(tmp_path)
    assert cmds[0][1:] == ["-m", "venv", str(tmp_path / ".venv")]
    assert cmds[1][-2:] == ["-e", str(tmp_path)] and "pip" in cmds[1]


def test_the_bootstrap_looks_for_every_dependency_of_pyproject():
    import re
    import tomllib
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {re.split(r"[<>=!~ \[]", d, maxsplit=1)[0].lower().replace("-", "_") for d in deps}
    import_names = {"pygame_ce": "pygame"}
    assert {import_names.get(n, n) for n in names} == set(B.REQUIRED)
