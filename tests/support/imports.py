"""One import scanner and one import policy for every test that reads how ``game/`` is put together.

The scanner sees every import statement in a module's text: at its top, deferred inside a
function, and under ``if TYPE_CHECKING:`` alike. The policy counts them all: a type-only import
still means one module needs the other (moved under ``TYPE_CHECKING`` or into a function, a
circle is only hidden from Python, not broken). ``from package import module`` depends on the
module, not on the package's ``__init__``.

The policy (the developers' guide): no import circle; the layers point one way,
``rules`` -> ``bots``, ``replays`` -> ``netcode`` -> ``match`` -> ``client`` -> ``scenes`` / ``text``
(each layer imports only those below it, never a neighbour of its own rank); the scenes and the
text client draw and read input, and import none of :data:`FRONT_ENDS_NEVER_IMPORT`.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# ---- the policy -----------------------------------------------------------------------------

#: The layers from the bottom up; a module may import its own group and any group of a lower rank.
#: Groups of one rank are neighbours that never import each other. Modules of ``game`` in no
#: group (settings, resources, runtime, bootstrap, launcher) are left out of the layer check.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("game.i18n",),
    ("game.rules",),
    ("game.bots", "game.replays"),
    ("game.netcode", "game.portmap"),
    ("game.match",),
    ("game.client",),
    ("game.scenes", "game.text"),
)

#: What the scenes (pygame) and the text client leave to ``game.client``: they import none of these
#: (the matches, the kept seats and the replays' files are reached through its flow and replay model).
FRONT_ENDS = ("game.scenes", "game.text")
FRONT_ENDS_NEVER_IMPORT = ("game.rules", "game.netcode", "game.match", "game.replays", "game.portmap")

#: Circles there today, each to be broken by the helper named beside it (issue 27); the test
#: fails on any other circle, and on a known one that grew or is gone (so the list shrinks).
KNOWN_CIRCLES: tuple[frozenset[str], ...] = (
)


# ---- the scanner ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Import:
    """One imported name: ``module`` is what the statement names (relative ones resolved),
    ``target`` the module or attribute it takes (``module.name`` for ``from module import
    name``; the module itself for ``import module``)."""
    module: str
    target: str
    line: int
    type_only: bool      # under ``if TYPE_CHECKING:``
    deferred: bool       # inside a function


def _walk(node: ast.AST, type_only: bool = False, deferred: bool = False):
    """Every import statement under ``node`` with how it stands, in one pass over the tree."""
    for child in ast.iter_child_nodes(node):
        yield from _visit(child, type_only, deferred)


def _visit(node: ast.AST, type_only: bool, deferred: bool):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node, type_only, deferred
    elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        for sub in node.body:
            yield from _visit(sub, True, deferred)
        for sub in node.orelse:
            yield from _visit(sub, type_only, deferred)
    else:
        inner = deferred or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        yield from _walk(node, type_only, inner)


def imports_in(source: str | ast.AST, package: str = "") -> list[Import]:
    """Every import in ``source`` (text or a parsed tree), wherever its statement stands;
    relative ones resolved against ``package`` (the package the module is in: for a package's
    ``__init__``, the package itself).

    >>> [i.target for i in imports_in("def f():\\n    from .. import rules\\n", "game.scenes")]
    ['game.rules']
    """
    tree = ast.parse(source) if isinstance(source, str) else source
    out: list[Import] = []
    for node, type_only, deferred in _walk(tree):
        flags = {"line": node.lineno, "type_only": type_only, "deferred": deferred}
        if isinstance(node, ast.Import):
            out += [Import(a.name, a.name, **flags) for a in node.names]
        else:
            if node.level:
                parts = package.split(".") if package else []
                base = parts[:len(parts) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out += [Import(module, f"{module}.{a.name}" if a.name != "*" else module, **flags) for a in node.names]
    return sorted(out, key=lambda i: (i.line, i.target))


def modules(root: Path = ROOT, top: str = "game") -> dict[str, Path]:
    """Every module under ``root/top`` by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


@functools.lru_cache(maxsize=None)
def module_imports(name: str, path: Path) -> tuple[Import, ...]:
    """The imports of one module's file (read once per test process)."""
    return tuple(imports_in(ast.parse(path.read_text(encoding="utf-8"), str(path)), package_of(name, path)))


def depends_on(imp: Import, known: dict[str, Path] | set[str]) -> str | None:
    """The module of ``known`` an import makes its module depend on: the imported module itself
    when ``from package import module`` names one, else the module the statement names."""
    if imp.target in known:
        return imp.target
    return imp.module if imp.module in known else None


def import_graph(root: Path = ROOT, top: str = "game") -> dict[str, set[str]]:
    """Each module -> the modules it imports (every import counts, type-only and deferred ones too).
    Read once per test process (a few seconds of parsing), a fresh copy for each caller."""
    return {name: set(deps) for name, deps in _import_graph(root, top).items()}


@functools.lru_cache(maxsize=4)
def _import_graph(root: Path, top: str) -> dict[str, frozenset[str]]:
    mods = modules(root, top)
    graph: dict[str, frozenset[str]] = {}
    for name, path in mods.items():
        deps = {depends_on(i, mods) for i in module_imports(name, path)}
        graph[name] = frozenset(d for d in deps if d is not None and d != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def within(name: str, prefixes: tuple[str, ...] | str) -> bool:
    """Whether module ``name`` is one of ``prefixes`` or inside one of them."""
    prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def layer_of(name: str) -> tuple[int, str] | None:
    """(rank, group) of a module under :data:`LAYERS`, or None when it is in no layer."""
    for rank, groups in enumerate(LAYERS):
        for group in groups:
            if within(name, group):
                return rank, group
    return None


def arrows_up(graph: dict[str, set[str]]) -> list[str]:
    """Every import that breaks the layer order: into a higher layer, or into a neighbour of the same rank."""
    found = []
    for name in sorted(graph):
        mine = layer_of(name)
        for dep in sorted(graph[name]):
            theirs = layer_of(dep)
            if mine and theirs and (theirs[0] > mine[0] or (theirs[0] == mine[0] and theirs[1] != mine[1])):
                found.append(f"{name} -> {dep}")
    return found


def forbidden_imports(root: Path = ROOT, importers: tuple[str, ...] = FRONT_ENDS,
                      forbidden: tuple[str, ...] = FRONT_ENDS_NEVER_IMPORT) -> list[str]:
    """Each import by a module inside ``importers`` of anything inside ``forbidden``, as
    ``module:line: target``."""
    found = []
    for name, path in modules(root).items():
        if within(name, importers):
            found += [f"{name}:{i.line}: {i.target}" for i in module_imports(name, path)
                      if within(i.target, forbidden) or within(i.module, forbidden)]
    return found
