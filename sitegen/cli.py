"""The command line: parse the verb and global flags, hand over to `sitegen.commands.<verb>`."""

from __future__ import annotations

import sys

import sitegen

TYPE_CHECKING = False
"""`typing.TYPE_CHECKING`, without importing `typing` (~5 ms where nothing else has yet)."""
if TYPE_CHECKING:  # the modules below load when a verb runs: `sitegen --version` needs none of them (~10 ms)
    import argparse
    from collections.abc import Sequence

COMMANDS = {
    "build": "Build the site into public/ (or --output).",
    "serve": "Preview the site with live reload.",
    "new": "Create a new site, or a new page from an archetype.",
    "check": "Check every internal link, image and fragment of the built site.",
    "cv": "Make the CV as HTML, PDF, JSON Resume or Markdown without building the site.",
    "clean": "Remove the output folder's sitegen files and the build cache.",
    "theme": "Copy a theme template into the site, or list the site's templates that override the theme's.",
    "import": "Convert a Hugo or Jekyll site into a new sitegen site (the original is only read).",
}
MODULES = {"import": "import_"}
"""Verbs whose module name differs (`import` is a Python keyword)."""
LONG_RUNNING = frozenset({"serve"})
"""Verbs that end the normal way (threads of their own); every other verb ends the process at once (`exit_now`)."""


def version_line() -> str:
    """`sitegen --version`: the command, its version and the distribution to pin (`sitegen-cv==0.1.0`)."""
    return f"sitegen {sitegen.__version__} ({sitegen.DISTRIBUTION}=={sitegen.__version__})"


def _global_flags() -> argparse.ArgumentParser:
    import argparse

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", help="show tracebacks")
    loudness = common.add_mutually_exclusive_group()
    loudness.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    loudness.add_argument("--verbose", "-v", action="store_true", help="print more detail")
    return common


def make_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The full parser; subcommand flags come from each command module. Given the `verb` being run, only its
    module is imported (the serve, import and scaffold modules cost a build ~40 ms of start-up): the other
    commands are listed by name and help text, which is all the parser shows of them then."""
    import argparse

    common = _global_flags()
    parser = argparse.ArgumentParser(prog="sitegen", description=sitegen.__doc__, parents=[common])
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        if verb is not None and name != verb:
            sub.add_parser(name, help=help_text, description=help_text, parents=[common])
            continue
        module = _command_module(name)
        if module is None:
            continue
        cmd = sub.add_parser(name, help=help_text, description=help_text, parents=[common])
        module.add_arguments(cmd)
    return parser


def _verb(args_list: list[str]) -> str | None:
    """The command named on the command line (global flags take no values: it is the first other word)."""
    word = next((arg for arg in args_list if not arg.startswith("-")), None)
    return word if word in COMMANDS else None


def _command_module(name: str):  # type: ignore[no-untyped-def]
    import importlib

    try:
        return importlib.import_module(f"sitegen.commands.{MODULES.get(name, name)}")
    except ModuleNotFoundError as exc:
        if exc.name == f"sitegen.commands.{MODULES.get(name, name)}":
            return None
        raise


def _terminate_like_interrupt() -> None:
    """SIGTERM unwinds like Ctrl-C, so `finally` blocks (staging cleanup, port release) run."""

    import signal
    import threading

    def handler(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: exit 0 on success, 1 on a build error, 2 on a usage error.

    Called without `argv` it is the program (the `sitegen` script, `python -m sitegen`): a one-shot verb then
    ends the process here (`exit_now`) instead of returning. Called with `argv` (tests, other Python code) it
    returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list in (["--version"], ["-V"]):
        print(version_line())  # fast path: no imports beyond the package
        return 0
    code, verb = _run(args_list)
    if argv is None and verb is not None and verb not in LONG_RUNNING:
        exit_now(code)
    return code


def exit_now(code: int) -> None:
    """End the process with `code` without tearing the interpreter down: freeing a large build's objects one by
    one takes ~0.4 s at 1,000 pages and over a second at 10,000, for nothing. What a normal exit does that
    matters is done first: the `atexit` handlers run (temporary folders, multiprocessing's clean-up), and
    stdout and stderr are flushed. Returns, and the exit is the normal one, when another thread still runs
    (a normal exit waits for it) or when the output cannot be flushed (a closed pipe: Python reports it as
    usual). Forked children (memo saver, staging writer, render workers) are already waited for by then."""
    import atexit
    import os
    import threading

    if any(t is not threading.main_thread() and not t.daemon for t in threading.enumerate()):
        return
    atexit._run_exitfuncs()  # runs each handler once, then forgets it (a normal exit after this runs none again)
    try:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code & 0xFF)  # what sys.exit(code) gives the parent, -1 included


def _run(args_list: list[str]) -> tuple[int, str | None]:
    """Parse the flags and run the verb; the exit code, and the verb (None when there was none to run)."""
    parser = make_parser(_verb(args_list))
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return int(exc.code or 0), None
    if not args.command:
        parser.print_help()
        return 2, None
    return _run_verb(args), args.command


def _run_verb(args: argparse.Namespace) -> int:
    """Run the verb the flags name; its exit code (errors printed as located messages, never a traceback)."""
    import traceback

    from sitegen.errors import SitegenError  # here, after the `--version` fast path, as the rest (~10 ms less start-up)

    module = _command_module(args.command)
    _terminate_like_interrupt()
    try:
        return int(module.run(args))
    except SitegenError as exc:
        if args.debug:
            traceback.print_exc()
        print(exc.format(), file=sys.stderr)
        return 1
    except OSError as exc:
        # A file that vanished or cannot be read where no located message was made: still no traceback.
        if args.debug:
            traceback.print_exc()
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{where}{exc.strerror or exc}\n  hint: check the file's permissions; --debug shows where this "
              "happened", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130
