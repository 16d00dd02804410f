#!/usr/bin/env python3
"""End-to-end: the real `agent` window killed with SIGKILL in the middle of a reply, again
and again, at random moments — a crash, a power cut of the process, the OOM killer. After
each kill the chat database must be whole and hold everything older than a second:

- `PRAGMA integrity_check` (and the full-text indexes' own check) on the database as the
  killed app left it, write-ahead log included, says ok;
- the user's message is stored, once it was sent more than a second before the kill;
- the stored partial reply is the start of what the server sent, and holds at least every
  token the server had sent more than a second (plus DELIVERY) before the kill: the reply
  recorder (Sources/AgentCore/Storage/ReplyRecorder.swift) saves at most about once a
  second while a reply grows, "so a crash loses at most the last second";
- the app starts again and reopens the chat: the window shows it, the next message goes on
  in the same chat, and what the earlier kills left is still there, settled (replies cut
  off, questions answered) — at the end through `agent-cli --export` too.

The server is Tests/Servers/openai_test_server.py's `long` scenario: numbered tokens on a
clock, each send recorded with its time, so the test knows what the app had been sent
when. Messages are typed into the window with xdotool and sent with Return, as a person
does. The kill moments are drawn from a seeded random generator (the seed is printed;
`--seed N` repeats a run).

Run inside an X server and a D-Bus session (scripts/test does):
    /usr/bin/python3 Tests/EndToEnd/crash_kill_test.py .build/debug/agent [--seed N]
"""
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_atspi_test as e2e  # noqa: E402
from app_atspi_test import Atspi, fail, label_texts, named, wait_for  # noqa: E402

SERVERS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Servers")
KILLS = 20
# The reply: TOKENS numbered tokens, one every STEP seconds (four seconds in all).
TOKENS = 200
STEP = 0.02
FULL_REPLY = "".join(f" t{i}" for i in range(TOKENS))
# What the reply recorder promises: at most the last second is lost.
PROMISE = 1.0
# A token the server sent reaches the recorder through the socket, libcurl's thread and the
# window's main loop, and its save then takes SQLite's commit: allowed on top of the promise.
DELIVERY = 0.2
# How long before the reply's last token the latest kill falls.
MARGIN = 0.5
APP_ID = "io.github.agentdesktop.Agent"


def xdotool(*arguments):
    return subprocess.run(["xdotool", *arguments], capture_output=True, text=True, check=True).stdout


def server_json(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
        return json.load(response)


def make_home(port):
    """A fresh user whose settings send chats to the test server's `long` scenario."""
    home = tempfile.mkdtemp(prefix="agent-e2e-crash-")
    config = os.path.join(home, "config", APP_ID)
    os.makedirs(config)
    with open(os.path.join(config, "settings.ini"), "w") as f:
        f.write(f"[general]\nprofile=test\n\n[profile test]\nname=Test server\n"
                f"url=http://127.0.0.1:{port}/s/long-{TOKENS}-{int(STEP * 1000)}\n"
                "protocol=openai\nmodel=test-model\ntools=false\n")
    env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"), GSETTINGS_BACKEND="keyfile",
               XDG_DATA_HOME=os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_STATE_HOME=os.path.join(home, "state"))
    return env, os.path.join(home, "data", APP_ID, "chats.sqlite")


def start_app(binary, env, shown):
    """Starts the app and waits until its window shows the chat: the texts in `shown` (the
    user's messages stored so far, the last of them at least) are in the conversation.
    Returns the process, the X window and the entry."""
    process = subprocess.Popen([binary], env=env)
    e2e.APP = process
    app = wait_for("the app on the accessibility bus", lambda: e2e.find_app(process.pid))
    frame = wait_for("the window", lambda: named(app, "Agent", [Atspi.Role.FRAME, Atspi.Role.WINDOW]))
    entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
    if shown:
        conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for(f"the chat to reopen showing {shown[-1]!r}", lambda: shown[-1] in label_texts(conversation), timeout=20)
    window = wait_for("its X window", lambda: xdotool("search", "--onlyvisible", "--name", "^Agent$").split())[-1]
    return process, window, entry


def entry_text(entry):
    return Atspi.Text.get_text(entry, 0, Atspi.Text.get_character_count(entry))


def reply_times(port):
    """The server's clock when it sent the reply's first token, waited for, and when its last
    token is due: on the server's schedule, which a first token sent late catches up on."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if e2e.APP.poll() is not None:
            fail(f"the app exited (status {e2e.APP.returncode}) before the reply began")
        sent = [e for e in server_json(port, "/_events") if e["event"] == "sent" and e["token"] == 0]
        if sent:
            return sent[0]["time"], sent[0]["due"] + (TOKENS - 1) * STEP
        time.sleep(0.01)
    fail("the reply's first token was never sent")


def stored_chat(database):
    """The chats and messages the killed app left, checked for integrity. A copy of the
    database and its write-ahead log is opened — SQLite recovers it as the app's next start
    will — so the original stays as the crash left it for the app itself."""
    folder = tempfile.mkdtemp(prefix="agent-crash-db-")
    try:
        for suffix in ("", "-wal"):
            if os.path.exists(database + suffix):
                shutil.copy(database + suffix, os.path.join(folder, "chats.sqlite" + suffix))
        db = sqlite3.connect(os.path.join(folder, "chats.sqlite"))
        try:
            integrity = db.execute("PRAGMA integrity_check").fetchall()
            if integrity != [("ok",)]:
                fail(f"PRAGMA integrity_check: {integrity}")
            for index in ("message_search", "chat_search", "attachment_search"):
                db.execute(f"INSERT INTO {index}({index}) VALUES ('integrity-check')")
            db.rollback()
            chats = [row[0] for row in db.execute("SELECT id FROM chats WHERE deleted_at IS NULL")]
            messages = db.execute("SELECT role, text, state FROM messages WHERE deleted_at IS NULL ORDER BY seq").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        fail(f"the database the killed app left is damaged: {error}")
    finally:
        shutil.rmtree(folder)
    return chats, messages


def settled(messages):
    """`messages` as the app's next start settles them (ChatStore.recoverInterrupted): an
    empty reply goes, and the question it answered is failed (nothing of it got through); a
    reply that was streaming is cut off; a question with a reply is done."""
    out = []
    for role, text, state in messages:
        if role == "assistant" and state in ("sending", "streaming") and not text:
            if out and out[-1][0] == "user" and out[-1][2] == "done":
                out[-1] = (out[-1][0], out[-1][1], "failed")
            continue
        out.append((role, text, "cutOff" if role == "assistant" and state in ("sending", "streaming") else state))
    for i, (role, text, state) in enumerate(out):
        if role == "user" and state == "sending":
            answered = i + 1 < len(out) and out[i + 1][0] == "assistant"
            out[i] = (role, text, "done" if answered else "failed")
    return out


def check_kill(number, database, port, killed, asked, earlier, question):
    """Checks what kill `number` (at `killed`, the question sent at `asked`) left, given
    the settled messages of the kills before it; returns this kill's messages, settled."""
    chats, messages = stored_chat(database)
    if len(chats) != 1:
        fail(f"kill {number}: expected the one chat, the store has {len(chats)}")
    if messages[:len(earlier)] != earlier:
        fail(f"kill {number}: what earlier kills left changed:\n  before {earlier}\n  now    {messages[:len(earlier)]}")
    new = messages[len(earlier):]
    events = server_json(port, "/_events")
    sent = {e["token"]: e["time"] for e in events if e["event"] == "sent"}
    question_age = killed - asked
    if not new or new[0][:2] != ("user", question):
        if question_age > PROMISE:
            fail(f"kill {number}: the question, sent {question_age:.2f} s before the kill, is not stored: {new}")
        print(f"kill {number}: the question, sent {question_age:.2f} s before the kill, was not stored yet")
        if new:
            fail(f"kill {number}: unexpected messages after the earlier ones: {new}")
        return earlier
    if new[0][2] not in ("sending", "done"):
        fail(f"kill {number}: the question is stored as {new[0][2]}")
    reply = new[1] if len(new) > 1 else None
    if len(new) > 2 or (reply is not None and (reply[0] != "assistant" or reply[2] not in ("sending", "streaming"))):
        fail(f"kill {number}: unexpected messages after the question: {new[1:]}")
    text = reply[1] if reply is not None else ""
    if not FULL_REPLY.startswith(text):
        fail(f"kill {number}: the stored reply is not what the server sent: {text[:80]!r}…")
    stored_tokens = text.count(" t")
    due = sum(1 for t in sent.values() if t <= killed - PROMISE - DELIVERY)
    # The oldest token the server had sent that the store has not: how much the crash lost.
    lost = killed - sent[stored_tokens] if stored_tokens in sent else 0.0
    print(f"kill {number}: {killed - sent[0]:.2f} s into the reply, {len(sent)} tokens sent, {stored_tokens} stored,"
          f" {due} due; lost the last {lost:.2f} s")
    if stored_tokens < due:
        fail(f"kill {number}: the stored reply has {stored_tokens} tokens, but the server had sent {due} more than"
             f" {PROMISE + DELIVERY:.1f} s before the kill (token {stored_tokens} was sent {lost:.2f} s before it)")
    return settled(messages)


def main():
    binary = sys.argv[1]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else random.SystemRandom().randrange(1 << 32)
    print(f"seed {seed}")
    moments = random.Random(seed)
    began = time.monotonic()
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "openai_test_server.py")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().split()[1])
    env, database = make_home(port)
    app = None
    try:
        kept = []
        questions = []
        for number in range(1, KILLS + 1):
            app, window, entry = start_app(binary, env, questions)
            question = f"Question {number}, to be cut short"
            urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/_reset", method="POST")).close()
            xdotool("windowfocus", "--sync", window, "type", "--delay", "5", question)
            wait_for("the question in the entry", lambda: entry_text(entry) == question, timeout=10)
            asked = time.monotonic()
            xdotool("key", "--clearmodifiers", "Return")
            first, last = reply_times(port)
            # A moment at least MARGIN before the last token: the reply never ends on its own,
            # and the server still has tokens to write after the kill, whose failed writes
            # tell it the client is gone.
            time.sleep(max(0.0, first + moments.uniform(0, max(0.0, last - MARGIN - first)) - time.monotonic()))
            killed = time.monotonic()
            os.kill(app.pid, signal.SIGKILL)
            e2e.APP = None
            app.wait()
            kept = check_kill(number, database, port, killed, asked, kept, question)
            questions = [text for role, text, _ in kept if role == "user"]
            wait_for("the server to see the connection close",
                     lambda: any(e["event"] == "client-closed" for e in server_json(port, "/_events")), timeout=10)

        app, window, _ = start_app(binary, env, questions)
        xdotool("windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+q")
        e2e.clean_exit(app, after=" after the last restart")
        listed = subprocess.run([binary + "-cli", "--list-chats"], env=env, capture_output=True, text=True,
                                check=True).stdout.splitlines()
        if len(listed) != 1:
            fail(f"agent-cli --list-chats should list the one chat: {listed}")
        chat = listed[0].split()[0]
        exported = json.loads(subprocess.run([binary + "-cli", "--export", chat, "--format", "json"], env=env,
                                             capture_output=True, text=True, check=True).stdout)
        final = [(m["role"], m["text"], m["state"]) for m in exported["chats"][0]["messages"]]
        if final != kept:
            fail(f"agent-cli --export differs from what the kills left:\n  expected {kept}\n  exported {final}")
        print(f"PASS: {KILLS} kills mid-reply (seed {seed}): the database whole, nothing older than"
              f" {PROMISE + DELIVERY:.1f} s lost, the chat reopened each time ({time.monotonic() - began:.0f} s)")
    finally:
        for process in (app, server):
            if process is not None and process.poll() is None:
                process.kill()


if __name__ == "__main__":
    main()
