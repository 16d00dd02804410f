#!/usr/bin/env python3
"""The README's pictures of Agent, taken from the real app in an X server:

  docs/code-block.png   a reply from the local model (SmolLM2, temperature 0) with a
                        highlighted Python code block and its Copy button;
  docs/preferences.png  Preferences › Servers with a server profile filled in.

Run inside an X server and a D-Bus session (scripts/screenshot does):
    /usr/bin/python3 Tests/EndToEnd/docs_screenshots.py .build/debug/agent docs/
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_atspi_test as e2e  # noqa: E402
from app_atspi_test import Atspi, fail, label_texts, named, wait_for  # noqa: E402

PROMPT = "Write a Python function that reverses a string. Put the code in a Markdown code block."

SERVER_PROFILE = """[general]
profile=workstation

[profile workstation]
name=Workstation llama.cpp
url=https://gpu-box.local:8443
protocol=openai
model=qwen2.5-7b-instruct
ca-file=/home/me/certs/gpu-box-ca.pem
tools=true
"""


def launch(binary, settings):
    home = tempfile.mkdtemp(prefix="agent-shots-")
    config = os.path.join(home, "config", "io.github.agentdesktop.Agent")
    os.makedirs(config)
    with open(os.path.join(config, "settings.ini"), "w") as f:
        f.write(settings)
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    runtime = os.environ.get("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
    env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"), AGENT_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"))
    process = subprocess.Popen([binary], env=env)
    e2e.APP = process
    app = wait_for("the app on the accessibility bus", lambda: e2e.find_app(process.pid))
    frame = wait_for("the window", lambda: named(app, "Agent", [Atspi.Role.FRAME, Atspi.Role.WINDOW]))
    return process, frame


def x_window(name):
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name], capture_output=True, text=True).stdout.split()
    if not ids:
        fail(f"no window named {name}")
    return ids[-1]


def shoot(window, path):
    time.sleep(0.6)
    subprocess.run(["import", "-window", window, path], check=True)
    print("wrote", path)


def quit_app(process):
    subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+q"], check=True)
    e2e.APP = None
    process.wait(timeout=15)


def code_block(binary, path):
    process, frame = launch(binary, "[generation]\ntemperature=0.0\nmax-tokens=200\n")
    try:
        entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
        send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
        conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for("the local model", lambda: any(t.endswith("· on this computer") for t in label_texts(frame)))
        Atspi.EditableText.set_text_contents(entry, PROMPT)
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1), timeout=120)
        wait_for("the code block", lambda: named(conversation, "Code", [Atspi.Role.TEXT]), timeout=10)
        shoot(x_window("^Agent$"), path)
        quit_app(process)
    finally:
        if process.poll() is None:
            process.kill()


def preferences(binary, path):
    process, frame = launch(binary, SERVER_PROFILE)
    try:
        window = x_window("^Agent$")
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+comma"], check=True)
        wait_for("Preferences", lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Preferences$"],
                                                        capture_output=True).returncode == 0, timeout=10)
        shoot(x_window("^Preferences$"), path)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Escape"], check=True)
        quit_app(process)
    finally:
        if process.poll() is None:
            process.kill()


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    code_block(binary, os.path.join(folder, "code-block.png"))
    preferences(binary, os.path.join(folder, "preferences.png"))


if __name__ == "__main__":
    main()
