"""Evaluate Z3 terms on concrete values fast: compile a list of terms (integer and boolean
arithmetic only) into one straight-line Python function.

The refinement check evaluates the encoding of a turn on every turn of thousands of real
races; asking the solver each time would be a hundred times slower. Evaluation is exact
for the operators the encoding uses (``+ - * ite and or not = distinct <= < >= > =>
xor``); any other operator raises ``ValueError`` at compile time, so nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import z3
from z3 import z3core as C

Value = int | bool
Env = Mapping[str, Value]

_INFIX: dict[int, str] = {
    z3.Z3_OP_ADD: " + ", z3.Z3_OP_MUL: " * ", z3.Z3_OP_SUB: " - ",
    z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or ",
}
_COMPARE: dict[int, str] = {
    z3.Z3_OP_EQ: "==", z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=",
    z3.Z3_OP_GT: ">",
}


@dataclass(frozen=True)
class Node:
    """One node of a term DAG: its id, operator kind, children's ids, and the symbol name
    (constants) or the number (numerals)."""

    id: int
    kind: int
    children: tuple[int, ...]
    name: str = ""
    number: int = 0


def post_order(terms: Iterable[z3.ExprRef]) -> list[Node]:
    """Every node under ``terms`` once, each after its children (read through Z3's C API:
    the terms must stay alive meanwhile, which the caller's references ensure)."""
    terms = list(terms)
    if not terms:
        return []
    ctx = terms[0].ctx.ref()
    done: set[int] = set()
    started: set[int] = set()
    out: list[Node] = []
    stack: list[tuple[object, bool]] = [(t.as_ast(), False) for t in terms]
    while stack:
        ast, expanded = stack.pop()
        i = C.Z3_get_ast_id(ctx, ast)
        if i in done or (not expanded and i in started):
            continue
        app = C.Z3_to_app(ctx, ast)
        kids = [C.Z3_get_app_arg(ctx, app, j) for j in range(C.Z3_get_app_num_args(ctx, app))]
        if not expanded:
            started.add(i)
            stack.append((ast, True))
            stack.extend((k, False) for k in kids)
            continue
        done.add(i)
        decl = C.Z3_get_app_decl(ctx, app)
        kind = C.Z3_get_decl_kind(ctx, decl)
        name, number = "", 0
        if kind == z3.Z3_OP_UNINTERPRETED:
            name = C.Z3_get_symbol_string(ctx, C.Z3_get_decl_name(ctx, decl))
        elif kind == z3.Z3_OP_ANUM:
            number = int(C.Z3_get_numeral_string(ctx, ast))
        out.append(Node(i, kind, tuple(C.Z3_get_ast_id(ctx, k) for k in kids), name, number))
    return out


def symbols(terms: Iterable[z3.ExprRef]) -> set[str]:
    """Names of the uninterpreted constants the terms depend on."""
    return {n.name for n in post_order(terms)
            if n.kind == z3.Z3_OP_UNINTERPRETED and not n.children}


def _line(node: Node, names: dict[int, str]) -> str:
    """The Python expression of one node, its children already named."""
    kind = node.kind
    args = [names[c] for c in node.children]
    if kind == z3.Z3_OP_UNINTERPRETED and not args:
        return f"env[{node.name!r}]"
    if kind == z3.Z3_OP_ANUM:
        return str(node.number)
    if kind in (z3.Z3_OP_TRUE, z3.Z3_OP_FALSE):
        return str(kind == z3.Z3_OP_TRUE)
    if kind in _INFIX:
        if kind == z3.Z3_OP_AND and not args:
            return "True"
        if kind == z3.Z3_OP_OR and not args:
            return "False"
        return "(" + _INFIX[kind].join(args) + ")"
    if kind in _COMPARE and len(args) == 2:
        return f"({args[0]} {_COMPARE[kind]} {args[1]})"
    if kind == z3.Z3_OP_UMINUS:
        return f"(-{args[0]})"
    if kind == z3.Z3_OP_NOT:
        return f"(not {args[0]})"
    if kind == z3.Z3_OP_ITE:
        return f"({args[1]} if {args[0]} else {args[2]})"
    if kind == z3.Z3_OP_IMPLIES:
        return f"((not {args[0]}) or {args[1]})"
    if kind == z3.Z3_OP_XOR:
        return f"({args[0]} != {args[1]})"
    if kind == z3.Z3_OP_DISTINCT:
        return f"(len({{{', '.join(args)}}}) == {len(args)})"
    raise ValueError(f"z3eval cannot evaluate operator kind {kind}")


@dataclass(frozen=True)
class Compiled:
    """A compiled list of terms: ``run(env)`` returns their values in order; ``needs`` is
    every symbol they read (a missing one raises ``KeyError`` naming it)."""

    run: Callable[[Env], tuple[Value, ...]]
    needs: frozenset[str]
    size: int


class Dag:
    """The shared DAG of a set of terms, walked once; compiles any of its terms."""

    def __init__(self, terms: Iterable[z3.ExprRef]) -> None:
        self.nodes = post_order(terms)
        self.by_id = {n.id: n for n in self.nodes}
        self.rank = {n.id: i for i, n in enumerate(self.nodes)}
        deps: dict[int, frozenset[str]] = {}
        for n in self.nodes:
            if n.kind == z3.Z3_OP_UNINTERPRETED and not n.children:
                deps[n.id] = frozenset({n.name})
            else:
                deps[n.id] = frozenset().union(*(deps[c] for c in n.children))
        self.deps = deps

    def depends(self, term: z3.ExprRef) -> frozenset[str]:
        """The symbols a term of the DAG reads."""
        return self.deps[term.get_id()]

    def compile(self, terms: list[z3.ExprRef]) -> Compiled:
        """Compile terms of this DAG into one function of an environment."""
        roots = [t.get_id() for t in terms]
        wanted: set[int] = set()
        stack = list(roots)
        while stack:
            i = stack.pop()
            if i not in wanted:
                wanted.add(i)
                stack.extend(self.by_id[i].children)
        names: dict[int, str] = {}
        body: list[str] = []
        for i in sorted(wanted, key=self.rank.__getitem__):
            node = self.by_id[i]
            line = _line(node, names)
            names[i] = f"n{len(names)}"
            body.append(f"    {names[i]} = {line}")
        result = "".join(f"{names[i]}, " for i in roots)
        source = "def run(env):\n" + "\n".join(body) + f"\n    return ({result})\n"
        scope: dict[str, object] = {}
        exec(compile(source, "<z3eval>", "exec"), scope)
        run = scope["run"]
        assert callable(run)
        needs = frozenset().union(*(self.deps[i] for i in roots))
        return Compiled(run, needs, len(body))


def compile_terms(terms: list[z3.ExprRef]) -> Compiled:
    """Compile ``terms`` into one function of an environment of symbol values."""
    return Dag(terms).compile(terms)
