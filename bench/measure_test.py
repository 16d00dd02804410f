#!/usr/bin/env python3
"""bench/measure.py against throwaway benchmarks in a temporary folder: one that succeeds
(its rows passed through once), one that fails once and then succeeds (its rows printed
once, not once per attempt), one that always fails (run twice, one `failed` row with the
reason, exit status 1). Needs only python3 (scripts/test runs it before the builds):

    python3 bench/measure_test.py
"""
import os
import subprocess
import sys
import tempfile

MEASURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "measure.py")

SUCCEEDS = """
print("| first | 1 ms | 2 ms | 0.50× | ≤ 1× | met |")
print("| second | 3 ms | 4 ms | 0.75× | ≤ 1× | met |")
"""

# Fails the first time (after printing a row), succeeds the second: its state is a file.
FAILS_ONCE = """
import os, sys
print("| flaky | 1 ms | 2 ms | 0.50× | ≤ 1× | met |", flush=True)
state = os.path.join(os.path.dirname(__file__), "flaky.state")
if not os.path.exists(state):
    open(state, "w").close()
    sys.exit("the reference misbehaved")
"""

# Counts its runs in a file; its last stderr line (blank lines after it) is the reason.
ALWAYS_FAILS = """
import os, sys
with open(os.path.join(os.path.dirname(__file__), "broken.runs"), "a") as runs:
    runs.write("run\\n")
print("| broken | 1 ms | 2 ms | 0.50× | ≤ 1× | met |")
print("a warning\\nthe server | never answered\\n\\n", file=sys.stderr)
sys.exit(3)
"""


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def measure(folder, name, source):
    """Writes the benchmark NAME.py and runs it through measure.py: (stdout, exit status)."""
    script = os.path.join(folder, name + ".py")
    with open(script, "w") as f:
        f.write(source)
    done = subprocess.run([sys.executable, MEASURE, "--", sys.executable, script],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return script, done.stdout, done.returncode


def expect(what, actual, expected):
    if actual != expected:
        fail(f"{what}:\n{actual!r}\nexpected:\n{expected!r}")


def main():
    with tempfile.TemporaryDirectory(prefix="measure-test-") as folder:
        _, out, status = measure(folder, "succeeds", SUCCEEDS)
        expect("a benchmark that succeeds: rows", out, "| first | 1 ms | 2 ms | 0.50× | ≤ 1× | met |\n"
                                                        "| second | 3 ms | 4 ms | 0.75× | ≤ 1× | met |\n")
        expect("a benchmark that succeeds: exit status", status, 0)

        _, out, status = measure(folder, "fails_once", FAILS_ONCE)
        expect("a benchmark that fails once: rows", out, "| flaky | 1 ms | 2 ms | 0.50× | ≤ 1× | met |\n")
        expect("a benchmark that fails once: exit status", status, 0)

        script, out, status = measure(folder, "always_fails", ALWAYS_FAILS)
        expect("a benchmark that always fails: rows", out,
               f"| {script} | failed twice: the server \\| never answered | – | – | – | failed |\n")
        expect("a benchmark that always fails: exit status", status, 1)
        with open(os.path.join(folder, "broken.runs")) as runs:
            expect("a benchmark that always fails: runs", runs.read(), "run\nrun\n")

        _, out, status = measure(folder, "silent", "import sys\nsys.exit(5)\n")
        expect("a benchmark that fails without a word: reason", out.split(" | ")[1], "failed twice: exit status 5")
        expect("a benchmark that fails without a word: exit status", status, 1)
    print("measure_test: passed")


if __name__ == "__main__":
    main()
