"""Property test (issue 11): mutated bundled content never ends in a traceback.

Hypothesis breaks one bundled content file at a time — a value of the wrong type,
a key removed or added, a list where a mapping was, strings carrying HTML, CSS,
Jinja and YAML syntax, raw text spliced into the file — then runs `sheets
validate` and, when that passes, builds what the file feeds. Whatever happens:
exit 0 or 1, never a traceback, nothing written outside the output folder, no
network connection attempted. SHEETS_PROPERTY_EXAMPLES=300 explores further.
"""
from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sheets.base import paths
from sheets.cli import app

CONTENT = paths.content_dir()
FILES = sorted(p.relative_to(CONTENT).as_posix() for p in CONTENT.rglob("*.yaml"))

NASTY = [
    "<script>alert(1)</script>", "</div></body><h1>x", "<img src='http://example.com/x.png'>",
    "</style><style>* { display: none }</style>", "@import url(http://example.com/x.css);",
    "url(file:///etc/passwd)", "background: url(http://example.com/t.png)",
    "{{ 9 ** 9 ** 9 }}", "{% for i in range(10**9) %}x{% endfor %}", "{{ ''.__class__.__mro__ }}",
    "{{ units * 'x' * 10**6 }}", "{{", "{%", "}}", "{# unclosed",
    "*alias", "&anchor", "!!python/object/apply:os.system ['echo hi']", "--- ", "...", "? key", "- - -",
    "[", "{", "'", '"', "%YAML 1.1", "\t", "\u202e\u200b", "\x00", "a" * 3000, "**bold *italic", "-1", "0",
    "1d3+", "99999999d3", "9" * 400, ".nan", "-.inf", "2000-13-45", "0x1F", "1e999", "null", "~", "yes",
]

scalars = st.one_of(
    st.integers(min_value=-10**40, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(), st.none(),
    st.sampled_from(NASTY),
    st.text(max_size=40),
)
values = st.one_of(scalars, st.lists(scalars, max_size=4),
                   st.dictionaries(st.text(min_size=1, max_size=8), scalars, max_size=3))


def _paths(data, here=()):
    yield here
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, here + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, here + (i,))


def _mutate(data, draw):
    """One structural mutation somewhere in `data` (returns the new document)."""
    where = draw(st.sampled_from(list(_paths(data))))
    kind = draw(st.sampled_from(["replace", "replace", "delete", "add-key", "wrap", "unwrap"]))
    if not where:
        return draw(values) if kind == "replace" else [data]
    parent = data
    for part in where[:-1]:
        parent = parent[part]
    last = where[-1]
    if kind == "replace":
        parent[last] = draw(values)
    elif kind == "delete":
        del parent[last]
    elif kind == "add-key" and isinstance(parent[last], dict):
        parent[last][draw(st.sampled_from(["id", "title", "extra", "{{ x }}", "<b>", "units", "size"]))] = draw(values)
    elif kind == "wrap":
        parent[last] = [parent[last]]
    else:
        value = parent[last]
        if isinstance(value, (list, dict)) and value:
            parent[last] = next(iter(value.values())) if isinstance(value, dict) else value[0]
        else:
            parent[last] = {"value": value}
    return data


def _command(rel: str) -> list[str]:
    """A build that reads the mutated file."""
    parts = rel.split("/")
    game = parts[0]
    name = parts[-1]
    if game == "_print":
        return ["cards", "platoon"]
    if name == "trackers.yaml":
        return ["trackers", game]
    if name == "tokens.yaml":
        return ["tokens", game]
    if parts[1] == "cards":
        return ["cards", game, "--set", Path(name).stem]
    if game == "regiment" and parts[1] == "characters":
        return ["playbook", "--character", str(CONTENT / rel)]  # replaced by the copy below
    if game == "regiment" and parts[1] == "playbooks":
        return ["playbook", Path(name).stem]
    if game == "wotw":
        return ["mission", "--seed", "7"]
    return ["reference", game]


def _snapshot(folder: Path, skip: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for p in folder.rglob("*"):
        if p.is_file() and skip not in p.parents:
            st_ = p.stat()
            out[str(p)] = (st_.st_size, st_.st_mtime_ns)
    return out


@pytest.fixture
def no_network(monkeypatch):
    attempts: list = []

    def refuse(self, address, *args, **kwargs):
        attempts.append(address)
        raise OSError("network connections are not allowed in tests")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", lambda address, *a, **k: refuse(None, address))
    return attempts


@settings(max_examples=int(os.environ.get("SHEETS_PROPERTY_EXAMPLES", "30")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(rel=st.sampled_from(FILES), data=st.data())
def test_mutated_content_never_ends_in_a_traceback(no_network, rel, data):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        content = tmp / "content"
        shutil.copytree(CONTENT, content)
        work = tmp / "work"
        out = work / "out"
        out.mkdir(parents=True)
        target = content / rel
        text = target.read_text(encoding="utf-8")
        if data.draw(st.booleans(), label="raw text"):
            lines = text.splitlines(keepends=True)
            at = data.draw(st.integers(0, len(lines)), label="line")
            snippet = data.draw(st.sampled_from(NASTY), label="snippet")
            prefix = data.draw(st.sampled_from(["", "  ", "key: ", "- ", "title: "]), label="prefix")
            lines.insert(at, prefix + snippet + "\n")
            target.write_text("".join(lines), encoding="utf-8")
        else:
            doc = yaml.safe_load(text)
            doc = _mutate(doc, data.draw)
            target.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
        before = _snapshot(tmp, out)
        runner = CliRunner()
        old = os.getcwd()
        os.chdir(work)
        try:
            runs = [["validate", "--content", str(content)]]
            result = runner.invoke(app, runs[0], catch_exceptions=True)
            results = [result]
            if result.exit_code == 0:
                command = _command(rel)
                if command[:2] == ["playbook", "--character"]:
                    command[2] = str(target)
                runs.append([*command, "-o", str(out), "--content", str(content)])
                results.append(runner.invoke(app, runs[1], catch_exceptions=True))
        finally:
            os.chdir(old)
        for args, res in zip(runs, results):
            if res.exception is not None and not isinstance(res.exception, SystemExit):
                raise AssertionError(f"sheets {' '.join(args)} raised {res.exception!r} after mutating {rel}") \
                    from res.exception
            assert res.exit_code in (0, 1), (args, res.exit_code, res.stdout, res.stderr)
            assert "Traceback" not in (res.stderr or "") + res.stdout
        assert _snapshot(tmp, out) == before, "something was written outside the output folder"
        assert not no_network, f"a network connection was attempted: {no_network}"
