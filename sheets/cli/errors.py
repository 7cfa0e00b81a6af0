"""How a command ends: the exit codes, and no traceback for anything the user can fix.

A SheetsError is one readable message and exit code 1; so is Click's usage error (a bad
option value, a missing argument: 2 in Click). Ctrl-C exits with 130 and SIGTERM with
143, after the same clean-up (workers stopped, temporary files removed).
"""
from __future__ import annotations

import _thread
import functools
import os
import signal
import sys
import time

import typer

from sheets.base import fonts, scratch
from sheets.base.dice import forget_scripted, unused_dice
from sheets.base.errors import SheetsError, os_error_message, shown_path

USER_ERROR = 1
CLICK_USAGE_ERROR = 2
INTERRUPTED = 130
TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C so that the same clean-up runs."""


#: what stopped the run, and whether that was said: Typer turns a KeyboardInterrupt (and so a
#: Terminated) outside a command (while it parses the options, say) into a silent exit 130
_STOP = {"terminated": False, "interrupted": False, "said": False}


def _on_sigterm(signum, frame) -> None:  # noqa: ARG001
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough; finish cleaning up
    _STOP["terminated"] = True
    raise Terminated()


def _on_sigint(signum, frame) -> None:  # noqa: ARG001
    _STOP["interrupted"] = True
    raise KeyboardInterrupt()


def _signalled() -> KeyboardInterrupt | None:
    """The stop a signal asked for, if one came: a library may turn the KeyboardInterrupt raised
    inside it into an error of its own (pydantic's schema builder does, as a SchemaError or a
    RuntimeError, when Ctrl-C falls while a model class is made), which is that stop all the same."""
    if _STOP["terminated"]:
        return Terminated()
    return KeyboardInterrupt() if _STOP["interrupted"] else None


def _err(message: str) -> None:
    typer.echo(f"error: {message}", err=True)


def _stopped(exc: KeyboardInterrupt) -> int:
    """Say why the run stopped; the exit code for it."""
    terminated = isinstance(exc, Terminated)
    _STOP["said"] = True
    _err(f"{'terminated' if terminated else 'interrupted'}; nothing half-written was left behind")
    return TERMINATED if terminated else INTERRUPTED


def user_errors(func):
    """Map SheetsError to a one-paragraph message and exit code 1 (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        forget_scripted()
        fonts.forget_missing()
        try:
            result = func(*args, **kwargs)
            stop = _signalled()
            if stop is not None and not _STOP["said"]:
                # a signal's KeyboardInterrupt that some code caught and dropped, and the command
                # ran on to its end: it is still the stop asked for (what was written is whole)
                raise typer.Exit(_stopped(stop))
            left = unused_dice()
            if left:
                typer.echo(f"warning: {left} of the dice given with --dice {'was' if left == 1 else 'were'} "
                           f"not used (the rolls needed fewer)", err=True)
            if fonts.missing():  # the sheets are written; say once what printed as boxes
                typer.echo(fonts.missing_line(fonts.missing()), err=True)
            return result
        except KeyboardInterrupt as exc:
            # Ctrl-C (130) or SIGTERM (143): workers are stopped and temporary files
            # removed on the way out (sheets.pipeline.workers, sheets.base.output)
            raise typer.Exit(_stopped(exc)) from None
        except Exception as exc:
            stop = _signalled()
            if stop is not None and not _STOP["said"] and not isinstance(exc, typer.Exit):
                # the signal's KeyboardInterrupt, turned into another error
                raise typer.Exit(_stopped(stop)) from None
            if isinstance(exc, SheetsError):
                _err(str(exc))
                raise typer.Exit(USER_ERROR) from None
            said = os_error_message(exc) if isinstance(exc, OSError) else None
            if said:  # the environment's (a full disk, a name too long): what and where, in one line
                _err(said)
                raise typer.Exit(USER_ERROR) from None
            raise

    return wrapper


_BOUNDS = {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}


def range_message(exc: Exception) -> str | None:
    """'0 is not in the range 1 to 10000' for a number outside its option's range; else None.

    Typer checks `min`/`max` with pydantic, whose message leaves out the value given and the
    other bound ("Input should be greater than or equal to 1"); the parameter knows both.
    """
    param = getattr(exc, "param", None)
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    errors = getattr(exc.__cause__, "errors", None)
    if param is None or (low is None and high is None) or not callable(errors):
        return None
    found = errors()
    if not found or found[0].get("type") not in _BOUNDS:
        return None
    given = found[0].get("input")
    if low is not None and high is not None:
        return f"{given} is not in the range {low} to {high}"
    if low is not None:
        return f"{given} is less than {low}, the smallest value it takes"
    return f"{given} is more than {high}, the largest value it takes"


def _stop_again_if_swallowed(unraisable) -> None:
    """sys.unraisablehook: a Ctrl-C or SIGTERM that fell in code whose exceptions Python ignores.

    A signal's handler runs between two bytecodes of the main thread, and that may be inside a
    weakref callback or a __del__ (the import machinery's module locks have one), where the
    KeyboardInterrupt (or Terminated) is printed as "Exception ignored in ..." and dropped: the
    command then ran on and exited 0. Here the signal is sent again, so that it is raised at
    the next bytecode of ordinary code and the command stops with its clean-up and exit code.
    """
    if not issubclass(unraisable.exc_type, KeyboardInterrupt) or _STOP["said"]:
        sys.__unraisablehook__(unraisable)
        return
    sig = signal.SIGTERM if issubclass(unraisable.exc_type, Terminated) else signal.SIGINT
    if sig == signal.SIGTERM:
        signal.signal(signal.SIGTERM, _on_sigterm)  # its handler set SIG_IGN: "once is enough"
    # from another thread, a moment later: a signal sent from here would be handled at once,
    # inside this hook, whose own exceptions are ignored too (if it lands in such code again,
    # this hook sends it again)
    try:
        _thread.start_new_thread(_send_later, (sig,))
    except RuntimeError:  # the interpreter is shutting down: nothing is left to stop
        pass


def _send_later(sig: int) -> None:
    time.sleep(0.01)
    os.kill(os.getpid(), sig)


def _can_be_a_folder(path: str) -> bool:
    """A folder, or a path not made yet below a folder: a fresh HOME (a new user's, a container's,
    a clean test's) is fine, the cache's folders are made when first written; only a HOME that is, or
    lies below, something other than a folder (a file, /dev/null) can never hold them."""
    here = os.path.abspath(path)
    while not os.path.lexists(here):
        parent = os.path.dirname(here)
        if parent == here:
            return True
        here = parent
    return os.path.isdir(here)


def run(app: typer.Typer) -> None:
    """Run the command line: SIGTERM stops like Ctrl-C; Click's usage error exits with 1."""
    _STOP.update(terminated=False, said=False)
    sys.unraisablehook = _stop_again_if_swallowed
    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            # from here on Ctrl-C is a KeyboardInterrupt, which the commands clean up after
            # (sheets.__main__ ended the process at once while the CLI was being imported)
            signal.signal(signal.SIGINT, _on_sigint)
    except ValueError:  # not the main thread (embedded use): leave the signals alone
        pass
    home = os.environ.get("HOME")
    if home and not _can_be_a_folder(home):
        # the libraries read their settings from it on import (reportlab's ~/.reportlab_mods ends in
        # a NotADirectoryError), the cache and the user's sheets.toml live below it
        _err(f"HOME is {shown_path(home)}, which is not a folder: the tool keeps its cache and your "
             "settings in your home folder; set HOME to it (export HOME=/path/to/your/folder)")
        raise SystemExit(USER_ERROR)
    # the command's temporary files (WeasyPrint's, its workers') in a folder that goes with it; a
    # killed command's folder is swept here, whatever the next command is
    scratch.use()
    try:
        app()
    except KeyboardInterrupt as exc:  # outside a command (the command wrapper handles its own)
        raise SystemExit(_stopped(exc)) from None
    except Exception:
        stop = _signalled()
        if stop is None or _STOP["said"]:
            raise
        raise SystemExit(_stopped(stop)) from None  # the signal's stop, turned into another error
    except SystemExit as exc:
        if exc.code == INTERRUPTED and not _STOP["said"]:  # Typer's own exit for an interrupt: said here
            raise SystemExit(_stopped(Terminated() if _STOP["terminated"] else KeyboardInterrupt())) from None
        # Click reports a bad option value or a missing argument with exit code 2; like
        # every other bad input, that is exit code 1 here.
        if exc.code == CLICK_USAGE_ERROR:
            raise SystemExit(USER_ERROR) from None
        raise
