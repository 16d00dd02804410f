#!/usr/bin/env python3
"""SSE + decode throughput: Agent's byte-level SSE parser and OpenAI decoder against a
parser written as the seed tutorial reads the stream (characters one at a time from an
async sequence, a line String, JSONDecoder per data line) — bench/parsers, release build,
the same 200,000-token stream in 16 KB reads, best of 5 alternating runs."""
import os
import subprocess

from common import ROOT, row

TOKENS = 200_000


def main():
    package = os.path.join(ROOT, "bench", "parsers")
    subprocess.run(["swift", "build", "--package-path", package, "-c", "release"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    output = subprocess.run([os.path.join(package, ".build", "release", "sse-bench"), str(TOKENS), "5"],
                            check=True, capture_output=True, text=True).stdout
    figures = {key: float(value) for key, value in (line.split() for line in output.splitlines())}
    megabytes = figures["bytes"] / 1e6
    ours, seed = figures["agent"], figures["seed"]
    row(f"SSE + decode, {TOKENS:,} tokens ({megabytes:.0f} MB, best of 5)",
        f"{megabytes / ours:.0f} MB/s ({TOKENS / ours:,.0f} tokens/s)",
        f"seed-style char-by-char: {megabytes / seed:.1f} MB/s ({TOKENS / seed:,.0f} tokens/s)",
        f"{seed / ours:.1f}× faster", "report the ratio", "measured")


if __name__ == "__main__":
    main()
