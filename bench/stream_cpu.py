#!/usr/bin/env python3
"""Client CPU while a real llama-server streams a reply: agent-cli against `curl -N` on
the same request (same prompt, temperature 0, same seed and length, so the same tokens).
CPU is user+system time of the client process from getrusage; the share of a core is CPU
time over the wall time of the stream."""
import json
import os
import resource
import subprocess
import time

from common import AGENT_CLI, LlamaServer, median, row

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
PROMPT = "Write the numbers from 1 to 150 in words, separated by commas."
MAX_TOKENS = 500


def measure(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    output = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, output


def main():
    server = LlamaServer()
    try:
        body = json.dumps({"model": "SmolLM2-135M-Instruct", "stream": True, "temperature": 0, "seed": 1,
                           "max_tokens": MAX_TOKENS, "messages": [{"role": "user", "content": PROMPT}]})
        curl = ["curl", "-sN", "-H", "Content-Type: application/json", "-H", "Accept: text/event-stream",
                "-d", body, server.base + "/v1/chat/completions"]
        agent = [AGENT_CLI, "--server", server.base, "--model", "SmolLM2-135M-Instruct", "--temperature", "0",
                 "--seed", "1", "--max-tokens", str(MAX_TOKENS), PROMPT]
        _, _, sample = measure(curl)
        tokens = sum(1 for line in sample.decode().splitlines()
                     if line.startswith("data: {") and json.loads(line[6:]).get("choices")
                     and (json.loads(line[6:])["choices"][0].get("delta") or {}).get("content"))
        ours, reference = [], []
        for _ in range(RUNS):
            ours.append(measure(agent)[:2])
            reference.append(measure(curl)[:2])
        a_cpu, a_wall = median([c for c, _ in ours]), median([w for _, w in ours])
        r_cpu, r_wall = median([c for c, _ in reference]), median([w for _, w in reference])
        rate = tokens / r_wall
        row(f"client CPU while streaming ({tokens} tokens at {rate:.0f} tokens/s, median of {RUNS})",
            f"{a_cpu * 1000:.0f} ms CPU = {100 * a_cpu / a_wall:.1f} % of a core",
            f"curl -N: {r_cpu * 1000:.0f} ms = {100 * r_cpu / r_wall:.1f} %",
            f"{a_cpu / r_cpu:.1f}×", "≤ 2 % of a core", "met" if 100 * a_cpu / a_wall <= 2 else "missed")
    finally:
        server.close()


if __name__ == "__main__":
    main()
