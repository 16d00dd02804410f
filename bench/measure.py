#!/usr/bin/env python3
"""Runs one benchmark for bench/run so that one failed measurement (a reference that
misbehaves once) does not stop the rest of the run:

    measure.py -- COMMAND [ARG…]

COMMAND's table rows are passed through. A failed attempt is run once more; if that fails
too, one row of the table says `failed twice: REASON` (the last non-empty line COMMAND wrote
on stderr, else how it ended) and the exit status is 1, for bench/run to count. An attempt's
rows are printed only once it succeeded, so rows of a failed first attempt never appear
twice. A failed attempt's stderr is shown; a successful one's is not (the window
benchmarks' Xvfb, D-Bus and GTK chatter)."""
import argparse
import subprocess
import sys
import tempfile

from common import row


def attempt(command):
    """Runs COMMAND once: (its stdout, None) when it succeeds, else (None, the reason), its
    stderr shown. Both outputs go to files, not pipes: a daemon of the session that outlived
    COMMAND and held a pipe open would keep a reader waiting."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        try:
            status = subprocess.run(command, stdout=stdout, stderr=stderr).returncode
        except OSError as error:
            return None, str(error)
        if status == 0:
            stdout.seek(0)
            return stdout.read(), None
        stderr.seek(0)
        errors = stderr.read()
    sys.stderr.buffer.write(errors)
    sys.stderr.flush()
    lines = errors.decode(errors="replace").splitlines()
    last = next((line.strip() for line in reversed(lines) if line.strip()), None)
    return None, last or (f"killed by signal {-status}" if status < 0 else f"exit status {status}")


def name(command):
    """The benchmark's script (bench/NAME.py) when the command runs one, else the command."""
    return next((arg for arg in command if arg.endswith(".py")), " ".join(command))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="+", help="the benchmark, after --")
    command = parser.parse_args().command
    for tries_left in (1, 0):
        rows, reason = attempt(command)
        if rows is not None:
            sys.stdout.buffer.write(rows)
            sys.stdout.flush()
            return 0
        print(f"measure.py: {name(command)} failed: {reason}" + ("; trying once more" if tries_left else ""),
              file=sys.stderr, flush=True)
    cell = lambda text: text.replace("|", "\\|")  # a | would end the cell
    row(cell(name(command)), cell("failed twice: " + reason), "–", "–", "–", "failed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
