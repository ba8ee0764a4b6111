"""The JSON-lines protocol (versions ``conform/2`` and ``conform/1``): both ends.

One request per line on the engine's stdin, one response per line on its stdout. Requests:
``start``, ``setup``, ``load``, ``legal``, ``apply``, ``stop``; each has a schema in
``spec/schemas``.
``EngineProcess`` drives a foreign engine and never hangs: every read has a timeout, lines
are capped in size, and any failure (crash, hang, garbage, huge line, closed pipe, a reply
that breaks its schema) is raised as ``EngineFailure`` with a stable ``kind``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import resource
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from typing import IO, Any

from heatcore.framework.conformance import CORE_PROTOCOL, PROTOCOLS
from heatcore.framework.conformance.binding import JSON, Binding, Rejected, modules_of
from heatcore.framework.conformance.jsontext import compact, compact_line
from heatcore.framework.conformance.schema import SchemaError, check

OPS = ("start", "setup", "load", "legal", "apply", "stop", "championship")
#: Longest response line accepted (bytes).
MAX_LINE = 4 * 1024 * 1024
_EOF = b""


class EngineFailure(Exception):
    """The engine broke the protocol. ``kind``: crashed, closed-pipe, timeout, garbage,
    huge-line, bad-message, not-started."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class EngineProcess:
    """A foreign engine run as a subprocess (no shell) and spoken to over JSON lines."""

    def __init__(self, argv: list[str], timeout: float = 10.0, max_line: int = MAX_LINE,
                 validate: bool = True, memory_mb: int | None = None) -> None:
        self.argv = argv
        self.timeout = timeout
        self.max_line = max_line
        self.validate = validate
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the engine)
        self.exchanged = 0
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, bufsize=0,
                                         preexec_fn=_memory_cap(memory_mb))
        except OSError as error:
            self._stderr.close()
            raise EngineFailure("not-started", f"cannot run {argv!r}: {error}") from None
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.dead: EngineFailure | None = None

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        buffered = _Lines(io.BufferedReader(out, 1 << 16), self.max_line)  # type: ignore[type-var]
        while True:
            try:
                line = buffered.next()
            except (OSError, ValueError):
                line = _EOF
            self._lines.put(line)
            if line in (_EOF, b"\0HUGE"):
                return

    def stderr_tail(self, limit: int = 2000) -> str:
        """The last bytes the engine wrote to stderr."""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - limit))
            return self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    def stderr_excerpt(self, head: int = 5, tail: int = 10) -> str:
        """The first ``head`` and last ``tail`` lines the engine wrote to stderr ('' if none)."""
        try:
            self._stderr.seek(0)
            lines = self._stderr.read(1 << 20).decode("utf-8", "replace").splitlines()
        except (OSError, ValueError):
            return ""
        lines = [line[:300] for line in lines if line.strip()]
        if len(lines) <= head + tail:
            return "\n".join(lines)
        skipped = len(lines) - head - tail
        return "\n".join([*lines[:head], f"... ({skipped} lines) ...", *lines[-tail:]])

    def _fail(self, kind: str, detail: str) -> EngineFailure:
        self.dead = EngineFailure(kind, detail)
        self.close()
        return self.dead

    def request(self, message: JSON) -> JSON:
        """Send one request and return the engine's reply (checked against its schema)."""
        self.send(message)
        return self.receive(str(message["op"]))

    def send(self, message: JSON) -> None:
        """Write one request without waiting (replies come back in order; see ``receive``)."""
        if self.dead is not None:
            raise self.dead
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.flush()
        except (OSError, ValueError):
            code = self.proc.poll()
            if code is not None:
                raise self._fail("crashed", exit_text(code)) from None
            raise self._fail("closed-pipe", "stdin closed") from None

    def receive(self, op: str) -> JSON:
        """The next reply, expected to answer a request ``op``."""
        if self.dead is not None:
            raise self.dead
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail("timeout", f"no reply to {op!r} within {self.timeout:g} s") from None
        if line == b"\0HUGE":
            raise self._fail("huge-line", f"reply to {op!r} longer than {self.max_line} bytes")
        if line == _EOF:
            try:
                code = self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                raise self._fail("closed-pipe",
                                 f"stdout closed before replying to {op!r}") from None
            raise self._fail("crashed", f"{exit_text(code)} before replying to {op!r}")
        try:
            reply = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            shown = line[:120].decode("utf-8", "replace")
            raise self._fail("garbage", f"reply to {op!r} is not JSON: {shown!r}") from None
        if self.validate and not _plain_reply(op, reply):
            try:
                check(f"response.{op}", reply)
            except SchemaError as error:
                raise self._fail("bad-message", str(error)) from None
        self.exchanged += 1
        return reply

    def close(self) -> None:
        """Stop the process (politely if it is healthy, else by killing it)."""
        proc = self.proc
        if proc.poll() is None:
            try:
                if self.dead is None and proc.stdin is not None:
                    proc.stdin.write(b'{"op":"stop"}\n')
                    proc.stdin.flush()
                    proc.wait(timeout=1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
            if proc.poll() is None:
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5.0)
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def exit_text(code: int) -> str:
    """How a process ended: ``exited with code 3`` or ``killed by SIGABRT``."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def _memory_cap(memory_mb: int | None) -> Any:
    """A ``preexec_fn`` limiting the child's address space to ``memory_mb`` MiB (or None)."""
    if memory_mb is None:
        return None
    limit = memory_mb * 1024 * 1024

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return cap


class _Lines:
    """Lines from a binary pipe, capped at ``limit`` bytes (then ``b"\\0HUGE"``)."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream, self.limit = stream, limit

    def next(self) -> bytes:
        line = self.stream.readline(self.limit + 1)
        if len(line) > self.limit:
            return b"\0HUGE"
        return line


def _plain_reply(op: str, reply: Any) -> bool:
    """A fast exact test for the common successful replies to ``legal`` and ``apply`` (the
    same constraints as their schemas); anything else goes through the full schema check."""
    if not isinstance(reply, dict) or reply.get("ok") is not True:
        return False
    if op == "legal":
        actions = reply.get("actions")
        return (len(reply) == 2 and isinstance(actions, list)
                and all(isinstance(a, str) for a in actions))
    if op == "apply":
        events = reply.get("events")
        return (len(reply) == 3 and isinstance(reply.get("state"), dict)
                and isinstance(events, list) and all(isinstance(e, dict) for e in events))
    return False


def _plain_request(request: dict[str, Any]) -> bool:
    """A fast exact test for well-formed ``legal`` and ``apply`` requests."""
    if request.get("op") == "legal":
        return len(request) == 1
    if request.get("op") == "apply":
        action = request.get("action")
        return len(request) == 2 and isinstance(action, str) and bool(action)
    return False


# ---------------------------------------------------------------- the serving end

def _error(kind: str, message: str, rule: str | None = None) -> JSON:
    err: dict[str, Any] = {"kind": kind, "message": message}
    if rule:
        err["rule"] = rule
    return {"ok": False, "error": err}


def handle(binding: Binding, session: dict[str, Any], request: Any) -> JSON:
    """The reply to one request; ``session`` keeps the current state."""
    if not isinstance(request, dict) or request.get("op") not in OPS:
        return _error("protocol", "a request is an object whose op is one of " + ", ".join(OPS))
    op = request["op"]
    if not _plain_request(request):
        try:
            check(f"request.{op}", request)
        except SchemaError as error:
            return _error("protocol", str(error))
    if op == "start":
        version = request["protocol"]
        if version not in PROTOCOLS:
            return _error("unsupported", f"this engine speaks {' and '.join(PROTOCOLS)}")
        if request["ruleset"] != binding.ruleset:
            return _error("unsupported", f"this engine plays {binding.ruleset!r}")
        if "rulings" in request:  # the alternatives the session plays (spec/rulings.toml)
            use = getattr(binding, "use_rulings", None)
            try:
                if use is None:
                    raise Rejected("unsupported", "round.sequence",
                                   "this engine plays only its own rulings")
                use(request["rulings"])
            except Rejected as rejected:
                return _error(rejected.kind, rejected.message, rejected.rule)
        session["protocol"] = version
        return {"ok": True, "protocol": version,
                "implementation": {"name": binding.name, "version": binding.version},
                "ruleset": binding.ruleset, "rulings": binding.rulings(),
                "tracks": binding.tracks(),
                "modules": [] if version == CORE_PROTOCOL else binding.modules(),
                "compare": ["state", "legal", "events"],
                "rule_ids": True}
    if op == "stop":
        return {"ok": True}
    if op == "championship":
        return _championship(binding, session, request)
    if session.get("protocol") == CORE_PROTOCOL:
        given = request.get("setup", request.get("state"))
        if getattr(binding, "modules_of", modules_of)(given):
            return _error("unsupported", f"{CORE_PROTOCOL} plays the core race only; start "
                          "with a later protocol for the modules",
                          getattr(binding, "modules_rule", None))
    try:
        if op == "setup":
            session["state"] = binding.setup(request["setup"])
            return {"ok": True, "state": session["state"]}
        if op == "load":
            session["state"] = binding.load(request["state"])
            return {"ok": True}
    except Rejected as rejected:
        return _error(rejected.kind, rejected.message, rejected.rule)
    if "state" not in session:
        return _error("protocol", "no state loaded")
    return _legal_or_apply(binding, session, op, request)


def _championship(binding: Binding, session: dict[str, Any], request: dict[str, Any]) -> JSON:
    """The reply to a ``championship`` request: only in a ``conform/3`` session, from a
    binding that answers them (its ``championship`` method)."""
    from heatcore.framework.conformance import CHAMPIONSHIP_PROTOCOL

    if session.get("protocol") != CHAMPIONSHIP_PROTOCOL:
        return _error("unsupported", f"championship requests need {CHAMPIONSHIP_PROTOCOL}")
    ask = getattr(binding, "championship", None)
    if ask is None:
        return _error("unsupported", f"this engine plays no championship of {binding.ruleset}")
    try:
        return {"ok": True, **ask(request)}
    except Rejected as rejected:
        return _error(rejected.kind, rejected.message, rejected.rule)


def _legal_or_apply(binding: Binding, session: dict[str, Any], op: str,
                    request: dict[str, Any]) -> JSON:
    """The reply to a well-formed ``legal`` or ``apply`` request on the session's state."""
    try:
        if op == "legal":
            return {"ok": True, "actions": binding.legal(session["state"])}
        state, events = binding.apply(session["state"], request["action"])
        session["state"] = state
        return {"ok": True, "state": state, "events": events}
    except Rejected as rejected:
        return _error(rejected.kind, rejected.message, rejected.rule)


#: The most replies, and reply bytes, kept before they are written: a client that sends many
#: requests at once gets its first replies while the server works on the rest.
_PENDING_REPLIES, _PENDING_BYTES = 16, 1 << 16


def serve(binding: Binding, stdin: IO[bytes], stdout: IO[bytes],
          choose: Callable[[str], Binding | None] | None = None) -> int:
    """Answer requests line by line until ``stop`` or end of input; ``choose`` (if given)
    picks the binding of the ruleset a ``start`` request names (None: keep ``binding``).
    The replies to the requests that came in one read are written and flushed together (16
    or 64 KiB at most at a time), before the next read: a client that waits for a reply gets
    it at once, and the server makes one write for many replies, not one each."""
    server = _Server(binding, choose)
    for lines in request_batches(stdin):
        out: list[bytes] = []
        pending = 0
        for raw in lines:
            out.append(server.answer(raw))
            pending += len(out[-1])
            if server.stopped or pending > _PENDING_BYTES or len(out) >= _PENDING_REPLIES:
                _write(stdout, out)
                pending = 0
            if server.stopped:
                return 0
        _write(stdout, out)
    return 0


class _Server:
    """One session: its binding and state, and whether ``stop`` came."""

    def __init__(self, binding: Binding, choose: Callable[[str], Binding | None] | None,
                 ) -> None:
        self.binding, self.choose = binding, choose
        self.session: dict[str, Any] = {}
        self.stopped = False

    def answer(self, raw: bytes) -> bytes:
        """The reply line to the request line ``raw`` (empty for a blank line)."""
        request = _string_object(raw)
        if request is not None and "state" in self.session:
            reply = self.step(request)
            if reply is not None:
                self.stopped = False
                return self.line(reply)
        if request is None:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return self.line(_error("malformed", f"not UTF-8: {error}"))
            if not line.strip():
                return b""
            try:
                request = json.loads(line)
            except json.JSONDecodeError as error:
                return self.line(_error("malformed", f"not JSON: {error}"))
            except ValueError:  # an integer of over 4,300 digits (sys.int_info)
                return self.line(_error("malformed", "not JSON this server reads: an "
                                                     "integer of over 4,300 digits"))
            except RecursionError:
                return self.line(_error("malformed", "not JSON this server reads: nested "
                                                     "too deeply"))
        if not isinstance(request, dict):
            return self.line(handle(self.binding, self.session, request))
        if self.choose is not None and request.get("op") == "start" and \
                isinstance(request.get("ruleset"), str):
            self.binding = self.choose(request["ruleset"]) or self.binding
        self.stopped = request.get("op") == "stop"
        return self.line(handle(self.binding, self.session, request))

    def step(self, request: dict[str, Any]) -> JSON | None:
        """The reply to a well-formed ``legal`` or ``apply`` request (``request``'s values are
        strings) once a state is loaded: what ``handle`` replies, without its tests that such
        a request passes. None for any other request."""
        if _plain_request(request):
            return _legal_or_apply(self.binding, self.session, request["op"], request)
        return None

    def line(self, reply: JSON) -> bytes:
        """``reply`` as a line of compact JSON. A reply holds only strings, integers and the
        binding's JSON: written by ``compact_line`` when that holds no float (the binding's
        ``integer_json``)."""
        if getattr(self.binding, "integer_json", False):
            return compact_line(reply)
        return (compact(reply) + "\n").encode()


_LEGAL_LINE = b'{"op":"legal"}\n'


def _loads() -> Callable[[bytes], Any] | None:
    """``orjson.loads``, or None where orjson is not installed."""
    try:
        import orjson
    except ImportError:
        return None
    loads: Callable[[bytes], Any] = orjson.loads
    return loads


_orjson_loads = _loads()


def _string_object(raw: bytes) -> dict[str, Any] | None:
    """The request on the line ``raw`` when it is a JSON object whose values are all strings
    (``legal``, ``apply``, ``stop``: read by orjson, faster than ``json``); None for any other
    line, which ``json`` reads. The two read such an object alike: orjson differs from json
    only on numbers (it reads an integer past 64 bits as a float, refuses ``NaN`` and
    ``1e400``) and refuses what json reads as a lone surrogate (then None)."""
    if raw == _LEGAL_LINE:
        return {"op": "legal"}
    if _orjson_loads is None:
        return None
    try:
        value = _orjson_loads(raw)
    except ValueError:  # orjson.JSONDecodeError
        return None
    if type(value) is not dict:
        return None
    for item in value.values():
        if type(item) is not str:
            return None
    return value


def _write(stdout: IO[bytes], out: list[bytes]) -> None:
    """Write the replies in ``out`` (then empty it) and flush."""
    if out:
        stdout.write(b"".join(out))
        stdout.flush()
        out.clear()


def request_batches(stdin: IO[bytes]) -> Iterator[list[bytes]]:
    """The lines of ``stdin``, in lists of those that came in one read (``read1``: what is
    there, waiting only when nothing is); line ends as in text mode (``\\n``, ``\\r\\n``,
    ``\\r``), the last line with or without one."""
    parts: list[bytes] = []  # the line begun and not yet ended
    while True:
        chunk = stdin.read1(1 << 16)  # type: ignore[attr-defined]
        if not chunk:
            if parts:
                yield [b"".join(parts)]
            return
        if b"\n" not in chunk and b"\r" not in chunk:
            parts.append(chunk)
            continue
        lines = b"".join([*parts, chunk]).splitlines(keepends=True)
        parts = [] if lines[-1].endswith((b"\n", b"\r")) else [lines.pop()]
        yield lines
