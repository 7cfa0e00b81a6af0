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
    # after the handler, so that a Ctrl-C while the CLI is imported ends cleanly
    from sheets.cli import main  # noqa: PLC0415
    try:
        main()
        code: str | int | None = 0
    except SystemExit as exc:
        code = exc.code
    _end(code)


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
