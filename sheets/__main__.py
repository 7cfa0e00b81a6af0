"""The command's entry point: `python -m sheets` and the installed `sheets` script.

A Ctrl-C in the first few tenths of a second, while Python imports the CLI (Typer, the
models), would otherwise end in a KeyboardInterrupt traceback and a death by SIGINT, and a
SIGTERM in a death by SIGTERM (no line, no exit code): until the CLI's own handling takes
over (`sheets.cli.errors.run`), Ctrl-C and SIGTERM end the command as they end it later,
one line and exit code 130 or 143 (nothing has been written yet).
"""
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
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when the launcher ignores Ctrl-C
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupted_while_starting)
    # after the handler, so that a Ctrl-C while the CLI is imported ends cleanly
    from sheets.cli import main  # noqa: PLC0415
    try:
        main()
    except SystemExit as exc:
        if exc.code in (130, 143):
            # stopped by Ctrl-C or SIGTERM, cleaned up and said so: end now, with that code.
            # Left to the interpreter's own exit, a Ctrl-C in the first second of a command
            # sometimes ended as a death by SIGINT (-2) after the clean-up and the message
            # (seen 1 run in 10 on a loaded machine): nothing is left to finalize here.
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(exc.code)
        raise


if __name__ == "__main__":
    run()
