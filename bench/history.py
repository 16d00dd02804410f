#!/usr/bin/env python3
"""Stored chats at start-up: exec → first frame and idle memory when the app opens on a
chat of 10,000 messages, and when 1,000 chats are stored (against 30 chats — one page of
the chat list — and against none), measured alternately in the same run. Data goes in through
`agent-cli --import` into private XDG folders; `[window] last-chat` picks the chat the
app reopens."""
import json
import os
import subprocess
import tempfile
import uuid

from common import AGENT, AGENT_CLI, first_frame, idle_rss_mb, median, row

RUNS = int(os.environ.get("BENCH_RUNS", "10"))
APP_ID = "io.github.agentdesktop.Agent"
WORDS = ("the quick brown fox jumps over a lazy dog while streaming tokens arrive one by one "
         "and the transcript keeps only the rows near the viewport alive").split()


def text(i, length):
    words = [WORDS[(i * 7 + k) % len(WORDS)] for k in range(length)]
    return " ".join(words).capitalize() + "."


def chat(title, count, start=1_700_000_000.0):
    messages = []
    for i in range(count):
        role = "user" if i % 2 == 0 else "assistant"
        body = text(i, 12 if role == "user" else 60)
        if role == "assistant" and i % 5 == 1:
            body += "\n\n" + text(i + 3, 40)
        messages.append({"id": str(uuid.uuid4()).upper(), "role": role, "text": body, "time": start + i,
                         "state": "done", **({"model": "SmolLM2-135M-Instruct"} if role == "assistant" else {})})
    return {"id": str(uuid.uuid4()).upper(), "title": title, "created": start, "updated": start + count,
            "systemPrompt": "", "messages": messages}


def home(chats, last=None, version=1):
    """Private data and config folders holding `chats` (an export of format `version`,
    imported by agent-cli), the app set to reopen chat `last`; the environment to run in."""
    base = tempfile.mkdtemp(prefix="agent-bench-")
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(base, "data"), XDG_CONFIG_HOME=os.path.join(base, "config"),
               GSK_RENDERER="cairo", GSETTINGS_BACKEND="keyfile")
    if chats:
        path = os.path.join(base, "export.json")
        with open(path, "w") as f:
            json.dump({"format": "agent-chats", "version": version, "chats": chats}, f)
        subprocess.run([AGENT_CLI, "--import", path], env=env, check=True, stdout=subprocess.DEVNULL)
    if last:
        os.makedirs(os.path.join(base, "config", APP_ID), exist_ok=True)
        with open(os.path.join(base, "config", APP_ID, "settings.ini"), "w") as f:
            f.write(f"[window]\nlast-chat={last}\n")
    return env


AGENT_CMD = [AGENT, "--server", "http://127.0.0.1:9"]


def main():
    big = chat("A very long chat", 10_000)
    empty = home([])
    long_chat = home([big], last=big["id"])
    many = [chat(f"Chat number {i}", 6, start=1_700_000_000.0 + i * 100) for i in range(1000)]
    many_chats = home(many)
    page_chats = home(many[-30:])
    scenarios = {"empty": empty, "long": long_chat, "many": many_chats, "page": page_chats}
    for env in scenarios.values():
        first_frame(AGENT_CMD, dict(env, AGENT_REPORT_FIRST_FRAME="exit"))
    frames = {name: [] for name in scenarios}
    for _ in range(RUNS):
        for name, env in scenarios.items():
            frames[name].append(first_frame(AGENT_CMD, dict(env, AGENT_REPORT_FIRST_FRAME="exit"))[0])
    e, l, m, p = (median(frames[k]) for k in ("empty", "long", "many", "page"))
    row(f"open a 10,000-message chat: exec → first frame (median of {RUNS})", f"{l:.0f} ms", f"no chats: {e:.0f} ms",
        f"{l - e:+.0f} ms", "≤ 300 ms", "met" if l <= 300 else "missed")
    rss_empty = median([idle_rss_mb(AGENT_CMD, dict(empty, AGENT_REPORT_FIRST_FRAME="stay")) for _ in range(5)])
    rss_long = median([idle_rss_mb(AGENT_CMD, dict(long_chat, AGENT_REPORT_FIRST_FRAME="stay")) for _ in range(5)])
    row("open a 10,000-message chat: idle memory (median of 5)", f"{rss_long:.1f} MB", f"no chats: {rss_empty:.1f} MB",
        f"{rss_long - rss_empty:+.1f} MB", "≤ +50 MB", "met" if rss_long - rss_empty <= 50 else "missed")
    noise = max(max(frames["page"]) - min(frames["page"]), 0.05 * p)
    row(f"start with 1,000 stored chats: exec → first frame (median of {RUNS})", f"{m:.0f} ms", f"30 chats: {p:.0f} ms",
        f"{m / p:.2f}×", "no slower, within noise", "met" if m - p <= noise else "missed")
    row(f"start with 1,000 stored chats vs none (median of {RUNS})", f"{m:.0f} ms", f"no chats: {e:.0f} ms",
        f"{m - e:+.0f} ms", "no slower, within noise", "met" if m - e <= noise else "missed (see notes)")


if __name__ == "__main__":
    main()
