"""The command's entry point: `python -m sheets` and the installed `sheets` script.

A Ctrl-C in the first few tenths of a second, while Python imports the CLI (Typer, the
models), would otherwise end in a KeyboardInterrupt traceback and a death by SIGINT, and a
SIGTERM in a death by SIGTERM (no line, no exit code): until the CLI's own handling takes
over (`sheets.cli.errors.run`), Ctrl-C and SIGTERM end the command as they end it later,
one line and exit code 130 or 143 (nothing has been written yet). The command's end (`_end`)
goes through the interpreter's own exit (its threads waited for, its exit functions run) up to
the last exit function, which is this module's (`_last`): a signal that comes once the command
is done is said in the same line and code, never a death by the signal.
"""
import atexit
import os
import sys

import _signal as signal  # the C module: `signal` builds its enums first, some 20 ms a Ctrl-C could fall in

#: the lines `sheets.cli.errors` prints for a Ctrl-C and a SIGTERM (not imported from there: that imports Typer)
INTERRUPTED_LINE = b"error: interrupted; nothing half-written was left behind\n"
TERMINATED_LINE = b"error: terminated; nothing half-written was left behind\n"


def _interrupted_while_starting(signum, frame) -> None:  # noqa: ARG001
    if signum == signal.SIGTERM:
        os.write(2, TERMINATED_LINE)
        os._exit(143)
    os.write(2, INTERRUPTED_LINE)
    os._exit(130)


def run() -> None:
    # registered first, so run last: after every exit function the command registered (the
    # workers', the temporary folders')
    atexit.register(_last)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when the launcher ignores Ctrl-C
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupted_while_starting)
    if sys.argv[1:] == ["--help"]:
        _end(_root_help())
    # after the handler, so that a Ctrl-C while the CLI is imported ends cleanly
    from sheets.cli import main  # noqa: PLC0415
    try:
        main()
        code: str | int | None = 0
    except SystemExit as exc:
        code = exc.code
    _end(code)


def _root_help() -> int | str | None:
    """`sheets --help`: the text the CLI printed for it last, from the cache, when nothing it is
    made of has changed (`_help_entry`); else the CLI's, printed and kept. Importing Typer alone
    takes several times a bare Python start, so the root's help is only worth its start-up
    figure (within 3x) when it needs no Typer."""
    # the package's modules only once run() has set the signal handlers (a Ctrl-C while they load ends cleanly)
    from sheets.base.cachedir import sealed, unsealed  # noqa: PLC0415

    entry = _help_entry()
    try:
        kept = unsealed(entry.read_bytes()) if entry is not None else None
    except OSError:
        kept = None
    if kept is not None:
        os.write(1, kept)
        return 0
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415

    # no help kept: Typer and the CLI after all, only now (their import is what the kept text saves)
    from sheets.cli import main  # noqa: PLC0415

    printed = io.StringIO()
    code: int | str | None = 0
    try:
        with contextlib.redirect_stdout(printed):
            main()
    except SystemExit as exc:
        code = exc.code
    text = printed.getvalue().encode()
    sys.stdout.buffer.write(text)
    if code == 0 and text and entry is not None:
        # only when the help is kept: a kept help's run never loads the writer
        from sheets.base import output  # noqa: PLC0415

        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            output.write_atomic(entry, sealed(text))
        except OSError:
            pass  # a cache we cannot write is only slower
    return code


def _columns() -> int:
    """The terminal's width as Click finds it (shutil.get_terminal_size, whose import, with the
    archive modules it loads, would cost a third of a bare Python start): $COLUMNS, else the
    terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _help_entry():
    """The cache entry of the root's help as these sources make it: named by a hash of what the
    text is made of (Python, the program's name, the terminal's width, and the size and time of
    every file that declares a command or a game: the CLI, the games' packages and `cli`
    modules, the kinds' declarations, Typer and Click); None when no cache can be named."""
    import hashlib  # noqa: PLC0415
    from importlib.machinery import PathFinder  # noqa: PLC0415 - loaded with Python already

    # after the signal handlers, like every module of the package here
    from sheets.base import cachedir  # noqa: PLC0415

    here = os.path.dirname(os.path.abspath(__file__))
    files = [os.path.join(here, name) for name in ("__init__.py", "__main__.py")]
    for folder, names in (("cli", None), ("games", ("__init__.py", "cli.py")), ("kinds", ("__init__.py",)),
                          ("library", ("plugins.py",))):
        root = os.path.join(here, folder)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            if dirpath != root and names is None:
                continue
            files += [os.path.join(dirpath, f) for f in sorted(filenames)
                      if f.endswith(".py") and (names is None or f in names)]
    for package in ("typer", "click"):
        spec = PathFinder.find_spec(package)
        if spec is not None and spec.origin:
            files.append(spec.origin)
    made_of = [sys.version, os.path.basename(sys.argv[0]), str(_columns())]
    for path in files:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        made_of.append(f"{path} {stat.st_size} {stat.st_mtime_ns}")
    try:
        folder = cachedir.root()
    except Exception:  # noqa: BLE001 - no cache folder: the help is made each time
        return None
    key = hashlib.sha256("\n".join(made_of).encode()).hexdigest()
    return folder / f"help-{key}.txt"


#: a Ctrl-C or SIGTERM that came once the command was done: the signal's number
_LATE: list[int] = []
#: the command's exit code, once it is done (`_end`)
_CODE: list[int] = []


def _late(signum, frame) -> None:  # noqa: ARG001
    if _LATE:  # a second one: the clean-up hangs, or the user means it; end now
        _interrupted_while_starting(_LATE[0], frame)
    _LATE.append(signum)


def _end(code) -> None:
    """End the command with its exit code, through the interpreter's exit, from here on with a
    Ctrl-C or SIGTERM only noted (`_late`), and said by `_last`.

    The interpreter waits for the threads that are not daemons and runs the exit functions,
    then gives SIGINT and SIGTERM back to their default action and takes its modules apart,
    which takes a while: a signal that came then killed the process (exit -2 / -15, no line),
    after the command had done everything (seen in the cold-kit sweep, a SIGTERM as the kit
    recorded its build). `_last` ends the process before that.
    """
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _late)
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): the message on stderr, exit code 1
        print(code, file=sys.stderr)
        code = 1
    _CODE.append(code)
    sys.exit(code)


def _last() -> None:
    """The last exit function: the process ends here, with the command's code, or with 130 / 143
    and its line if it was stopped once it was done (it had finished: nothing half-written either
    way), before the interpreter takes its modules apart. A command that ended in a traceback
    (no `_end`) ends as the interpreter ends it."""
    if not _CODE:
        return
    code = _CODE[0]
    if _LATE and code not in (130, 143):
        os.write(2, TERMINATED_LINE if _LATE[0] == signal.SIGTERM else INTERRUPTED_LINE)
        code = 143 if _LATE[0] == signal.SIGTERM else 130
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
