#!/usr/bin/env python3
"""Scrolling a long chat: 10,000 messages of realistic replies (paragraphs, lists, tables,
code blocks of 20–80 lines) opened at the newest and scrolled to the oldest with Page Up
pressed through the X server as a held key repeats (30 a second), and in a second run of
the app with the mouse wheel (Xvfb's pointer has no smooth-scroll axes: GTK gets wheel steps,
here 60 a second).
The same Page Up run over a chat of one-paragraph messages is the reference. The app writes
every frame's work (AGENT_REPORT_FRAME_LOG) and the message at the top of the view after it:
from one frame to the next that message must only ever get older while scrolling up — a
newer one, or a leap of more than a page of messages, is the view jumping as earlier pages
load."""
import os
import random
import subprocess
import time
import uuid

from common import AGENT, row
from history import home

START = 1_700_000_000
MESSAGES = 10_000
KEY_DELAY_MS = 33
WHEEL_STEPS = int(os.environ.get("BENCH_WHEEL_STEPS", "3000"))
WORDS = ("the quick brown fox jumps over a lazy dog while streaming tokens arrive one by one and the "
         "transcript keeps only the rows near the viewport alive so scrolling stays smooth even when "
         "a reply holds tables lists and long code blocks").split()
# A leap older than this many messages in one frame is a jump (a page of the view holds a few).
LEAP = 30


def sentence(rng, length):
    return " ".join(rng.choice(WORDS) for _ in range(length)).capitalize() + "."


def paragraph(rng):
    return " ".join(sentence(rng, rng.randint(8, 18)) for _ in range(rng.randint(2, 5)))


def code_block(rng):
    lines = [f"func step{n}(_ value: Int) -> Int {{" if n % 10 == 0 else
             f"    let x{n} = value * {n} + {rng.randint(1, 99)}  // {rng.choice(WORDS)}"
             for n in range(rng.randint(20, 80))]
    return "```swift\n" + "\n".join(lines) + "\n```"


def table(rng):
    rows = ["| name | value | note |", "|---|---|---|"]
    rows += [f"| {rng.choice(WORDS)} | {rng.randint(1, 999)} | {sentence(rng, 4)} |" for _ in range(rng.randint(3, 7))]
    return "\n".join(rows)


def reply(rng, i):
    parts = [paragraph(rng)]
    if i % 2 == 0:
        parts.append("\n".join(f"- {sentence(rng, rng.randint(4, 10))}" for _ in range(rng.randint(3, 6))))
    if i % 3 == 0:
        parts.append(code_block(rng))
    if i % 4 == 1:
        parts.append(table(rng))
    parts.append(paragraph(rng))
    return "\n\n".join(parts)


def chat(title, realistic):
    rng = random.Random(17)
    messages = []
    for i in range(MESSAGES):
        role = "user" if i % 2 == 0 else "assistant"
        if role == "user":
            body = sentence(rng, rng.randint(6, 20))
        else:
            body = reply(rng, i // 2) if realistic else paragraph(rng)
        messages.append({"id": str(uuid.uuid4()).upper(), "role": role, "text": body, "time": START + i,
                         "state": "done", **({"model": "bench"} if role == "assistant" else {})})
    return {"id": str(uuid.uuid4()).upper(), "title": title, "created": START, "updated": START + MESSAGES,
            "systemPrompt": "", "messages": messages}


def now_us():
    return time.monotonic_ns() // 1000


def scroll(env, pages=0, wheel_steps=0):
    """Opens the chat at its newest message and presses Page Up `pages` times, or turns the
    wheel up `wheel_steps` times over the transcript: the frames [(work µs, top message index)]."""
    base = os.path.dirname(env["XDG_DATA_HOME"])
    report, log = os.path.join(base, "frames.txt"), os.path.join(base, "frames.log")
    for path in (report, log):
        if os.path.exists(path):
            os.remove(path)
    run_env = dict(env, AGENT_REPORT_FIRST_FRAME="stay", AGENT_REPORT_FRAMES=report, AGENT_REPORT_FRAME_LOG=log)
    agent = subprocess.Popen([AGENT, "--server", "http://127.0.0.1:9"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=run_env)
    try:
        agent.stdout.readline()  # first frame
        window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(agent.pid), "--name", "Agent"],
                                capture_output=True, text=True).stdout.split()[-1]
        subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
        geometry = dict(line.split("=") for line in subprocess.run(
            ["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True).stdout.split())
        width, height = int(geometry["WIDTH"]), int(geometry["HEIGHT"])
        time.sleep(1.5)
        # Into the message field, where Page Up scrolls the conversation.
        subprocess.run(["xdotool", "mousemove", "--window", window, str(width * 7 // 10), str(height - 36), "click", "1"],
                       check=True)
        time.sleep(0.5)
        start = now_us()
        if pages:
            subprocess.run(["xdotool", "key", "--repeat", str(pages), "--repeat-delay", str(KEY_DELAY_MS), "Page_Up"],
                           check=True)
        else:
            # The pointer over the transcript (over code blocks as often as not).
            subprocess.run(["xdotool", "mousemove", "--window", window, str(width * 7 // 10), str(height * 4 // 10),
                            "click", "--repeat", str(wheel_steps), "--delay", "16", "4"], check=True)
        time.sleep(0.5)
        end = now_us()
    finally:
        agent.terminate()
        agent.wait()
    frames = []
    with open(log) as f:
        for line in f:
            at, work, top = map(int, line.split())
            if start <= at <= end:
                frames.append((work, top - START if top >= 0 else None))
    return frames


def judge(frames):
    """Frame work p99 / max (ms), frames over 33 ms, jumps, the oldest message reached."""
    works = sorted(work for work, _ in frames) or [0]
    p99 = works[min(len(works) - 1, len(works) * 99 // 100)] / 1000
    tops = [top for _, top in frames if top is not None]
    # Frame to frame: a frame with no message at the top edge (the view at the top of what
    # is loaded while a held key outpaces loading, or a gap between rows) tells nothing, so
    # the frames on either side of it are not compared.
    pairs = [(a, b) for (_, a), (_, b) in zip(frames, frames[1:]) if a is not None and b is not None]
    jumps = sum(1 for a, b in pairs if b > a or a - b > LEAP)
    return {"p99": p99, "max": works[-1] / 1000, "over33": sum(1 for w in works if w > 33_333),
            "frames": len(works), "jumps": jumps, "oldest": min(tops) if tops else None,
            "newest": max(tops) if tops else None}


def main():
    long_chat, short_chat = chat("A long chat of real replies", True), chat("A long chat of short replies", False)
    realistic, plain = home([long_chat], long_chat["id"]), home([short_chat], short_chat["id"])
    # Enough presses to reach the oldest message (checked below): the chat's height over a page.
    pages = int(os.environ.get("BENCH_PAGES", "9000"))
    up = judge(scroll(realistic, pages=pages))
    wheel = judge(scroll(realistic, wheel_steps=WHEEL_STEPS))
    ref = judge(scroll(plain, pages=pages // 3))
    reached = up["oldest"] == 0
    # A phase that logged few frames did not scroll: nothing to judge.
    met = lambda r: r["frames"] >= 100 and r["p99"] <= 16.7 and r["max"] <= 33.3 and r["jumps"] == 0
    row(f"scroll a 10,000-message chat of real replies, newest to oldest, Page Up held ({KEY_DELAY_MS} ms repeat): "
        "frame work p99 / max; frames over 33 ms; jumps",
        f"{up['p99']:.1f} / {up['max']:.1f} ms; {up['over33']} of {up['frames']}; {up['jumps']} jumps; "
        f"{'reached the oldest' if reached else 'stopped at message ' + str(up['oldest'])}",
        f"one-paragraph replies: {ref['p99']:.1f} / {ref['max']:.1f} ms; {ref['over33']} of {ref['frames']}; {ref['jumps']} jumps",
        f"{up['p99'] / ref['p99']:.2f}× the p99" if ref["p99"] else "–",
        "p99 ≤ 16.7 ms, none over 33 ms, no jump",
        "met" if met(up) and reached else "missed")
    row(f"the same chat, mouse wheel ({WHEEL_STEPS} steps at 60 a second from the newest, messages "
        f"{wheel['newest']} → {wheel['oldest']}): frame work p99 / max; frames over 33 ms; jumps",
        f"{wheel['p99']:.1f} / {wheel['max']:.1f} ms; {wheel['over33']} of {wheel['frames']}; {wheel['jumps']} jumps",
        f"Page Up, one-paragraph replies: {ref['p99']:.1f} / {ref['max']:.1f} ms",
        f"{wheel['p99'] / ref['p99']:.2f}× the p99" if ref["p99"] else "–",
        "p99 ≤ 16.7 ms, none over 33 ms, no jump",
        "met" if met(wheel) else "missed" if wheel["frames"] >= 100 else "missed: the view hardly moved")


if __name__ == "__main__":
    main()
