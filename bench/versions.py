#!/usr/bin/env python3
"""Versions of messages at start-up: exec → first frame and idle memory when the app opens on
a chat whose branch shown is 10,000 messages long and every reply of which has three versions
(20,000 messages stored), against a single-branch chat of the same 10,000 messages, measured
alternately in the same run. Data goes in through `agent-cli --import` (JSON version 2, every
message naming its parent); `[window] last-chat` picks the chat the app reopens."""
import os
import uuid

from common import AGENT, first_frame, idle_rss_mb, median, row
from history import chat, home, text

RUNS = int(os.environ.get("BENCH_RUNS", "10"))
AGENT_CMD = [AGENT, "--server", "http://127.0.0.1:9"]


def with_versions(single):
    """`single` with two older versions beside each reply; the branch shown is the newest."""
    messages = []
    parent = None
    for i, message in enumerate(single["messages"]):
        if message["role"] == "assistant":
            for version in range(2):
                messages.append(dict(message, id=str(uuid.uuid4()).upper(), parent=parent,
                                     text=f"Version {version + 1}. " + text(i + version + 11, 50)))
        message = dict(message, parent=parent)
        messages.append(message)
        parent = message["id"]
    return dict(single, id=str(uuid.uuid4()).upper(), title="A very long chat with versions", messages=messages,
                current=parent)


def main():
    single = chat("A very long chat", 10_000)
    parent = None
    for message in single["messages"]:
        message["parent"] = parent
        parent = message["id"]
    single["current"] = parent
    versions = with_versions(single)
    scenarios = {"single": home([single], single["id"], version=2), "versions": home([versions], versions["id"], version=2)}
    for env in scenarios.values():
        first_frame(AGENT_CMD, dict(env, AGENT_REPORT_FIRST_FRAME="exit"))
    frames = {name: [] for name in scenarios}
    cpu = {name: [] for name in scenarios}
    for _ in range(RUNS):
        for name, env in scenarios.items():
            wall, used = first_frame(AGENT_CMD, dict(env, AGENT_REPORT_FIRST_FRAME="exit"))
            frames[name].append(wall)
            cpu[name].append(used)
    s, v = median(frames["single"]), median(frames["versions"])
    row(f"open a 10,000-message chat, every reply in 3 versions (20,000 stored): exec → first frame (median of {RUNS})",
        f"{v:.0f} ms", f"one branch of the same 10,000: {s:.0f} ms", f"{v / s:.2f}×", "≤ 1.2×", "met" if v <= 1.2 * s else "missed")
    cs, cv = median(cpu["single"]), median(cpu["versions"])
    row(f"the same: CPU time to the first frame (median of {RUNS})", f"{cv:.0f} ms", f"one branch: {cs:.0f} ms",
        f"{cv / cs:.2f}×", "≤ 1.2×", "met" if cv <= 1.2 * cs else "missed")
    rss = {name: [] for name in scenarios}
    for _ in range(5):
        for name, env in scenarios.items():
            rss[name].append(idle_rss_mb(AGENT_CMD, dict(env, AGENT_REPORT_FIRST_FRAME="stay")))
    rs, rv = median(rss["single"]), median(rss["versions"])
    row("the same: idle memory (median of 5)", f"{rv:.1f} MB", f"one branch: {rs:.1f} MB", f"{rv / rs:.2f}×", "≤ 1.2×",
        "met" if rv <= 1.2 * rs else "missed")


if __name__ == "__main__":
    main()
