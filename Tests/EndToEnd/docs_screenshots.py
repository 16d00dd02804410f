#!/usr/bin/env python3
"""The README's pictures of Agent, taken from the real app in an X server with its own
local model (SmolLM2, temperature 0), driven through the accessibility tree and the X
server as a user would:

  docs/empty-chat.png   a new chat: which model answers, where, and example prompts;
  docs/code-block.png   a reply with a highlighted Python code block (light);
  docs/dark.png         the same in dark, as the desktop asks through the settings portal;
  docs/preferences.png  Preferences › Servers with a server profile opened;
  docs/about.png        About Agent;
  docs/narrow.png       the window at 360×640, as on a phone: the chat page;
  docs/narrow-chats.png the same, back on the chat list.

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
SERVERS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Servers")

# An earlier version's settings file: Agent moves it into GSettings on its first start.
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

GENERATION = "[generation]\ntemperature=0.0\nmax-tokens=200\n"


def launch(binary, settings, size=(1000, 700)):
    home = tempfile.mkdtemp(prefix="agent-shots-")
    config = os.path.join(home, "config", "io.github.agentdesktop.Agent")
    os.makedirs(config)
    with open(os.path.join(config, "settings.ini"), "w") as f:
        f.write(settings)
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    runtime = os.environ.get("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
    env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"), AGENT_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"),
               GSETTINGS_BACKEND="keyfile")
    process = subprocess.Popen([binary], env=env)
    e2e.APP = process
    app = wait_for("the app on the accessibility bus", lambda: e2e.find_app(process.pid))
    frame = wait_for("the window", lambda: named(app, "Agent", [Atspi.Role.FRAME, Atspi.Role.WINDOW]))
    window = x_window("^Agent$")
    subprocess.run(["xdotool", "windowsize", "--sync", window, str(size[0]), str(size[1])], check=True)
    subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
    return process, app, frame


def x_window(name):
    """The visible X window called `name` (a regular expression), waited for: the window
    can be on the accessibility bus a moment before the X server shows it."""
    def search():
        return subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name],
                              capture_output=True, text=True).stdout.split()
    return wait_for(f"an X window named {name}", search)[-1]


def shoot(window, path):
    time.sleep(0.8)
    subprocess.run(["import", "-window", window, path], check=True)
    print("wrote", path)


def quit_app(process):
    subprocess.run(["xdotool", "windowfocus", "--sync", x_window("^Agent$"), "key", "--clearmodifiers", "ctrl+q"], check=True)
    e2e.APP = None
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        fail("Ctrl+Q did not quit the app")


def run(binary, settings, body, size=(1000, 700)):
    process, app, frame = launch(binary, settings, size)
    try:
        body(app, frame)
        quit_app(process)
    finally:
        if process.poll() is None:
            process.kill()


def ask(frame, prompt):
    """Types a prompt and sends it, waiting for the local model's reply."""
    entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
    send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
    conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
    wait_for("the local model", lambda: any(t.endswith("· on this computer") for t in label_texts(frame)))
    Atspi.EditableText.set_text_contents(entry, prompt)
    wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
    Atspi.Action.do_action(send, 0)
    wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1), timeout=120)
    return conversation


def empty_chat(path):
    def body(app, frame):
        wait_for("the empty chat's page", lambda: "Chat with SmolLM2-135M-Instruct" in label_texts(frame))
        shoot(x_window("^Agent$"), path)
    return body


def code_block(path):
    def body(app, frame):
        conversation = ask(frame, PROMPT)
        wait_for("the code block", lambda: named(conversation, "Code", [Atspi.Role.TEXT]), timeout=10)
        shoot(x_window("^Agent$"), path)
    return body


def preferences(path):
    def body(app, frame):
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+comma"], check=True)
        wait_for("Preferences", lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Preferences$"],
                                                        capture_output=True).returncode == 0, timeout=10)
        window = wait_for("the Preferences window", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW,
                                                                                         Atspi.Role.DIALOG]))
        # The server's name shows twice: chosen in "Chats Go To", and on its own row below.
        wait_for("the server's row", lambda: named(window, "Workstation llama.cpp", [Atspi.Role.LABEL]))
        row = max((node for node in e2e.descendants(window) if safe_name(node) == "Workstation llama.cpp"),
                  key=lambda node: node.get_extents(Atspi.CoordType.WINDOW).y)
        subprocess.run(["xdotool", "windowsize", "--sync", x_window("^Preferences$"), "640", "760"], check=True)
        time.sleep(0.5)
        click(row, x_window("^Preferences$"))
        shoot(x_window("^Preferences$"), path)
        subprocess.run(["xdotool", "windowfocus", "--sync", x_window("^Preferences$"), "key", "--clearmodifiers", "Escape"],
                       check=True)
        wait_for("Preferences to close", lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Preferences$"],
                                                                 capture_output=True).returncode != 0, timeout=10)
    return body


def safe_name(node):
    try:
        return node.get_name()
    except Exception:
        return None


def click(node, window):
    """Clicks the middle of `node`, in the X window `window`, through the X server."""
    extents = node.get_extents(Atspi.CoordType.WINDOW)
    if extents.width <= 0 or extents.height <= 0:
        fail(f"{node.get_name()!r} is not on screen")
    subprocess.run(["xdotool", "mousemove", "--window", window, str(extents.x + extents.width // 2),
                    str(extents.y + extents.height // 2), "click", "1"], check=True)


def about(path):
    def body(app, frame):
        # F10 opens the main menu; About is its fifth item.
        subprocess.run(["xdotool", "key", "--clearmodifiers", "F10"], check=True)
        item = wait_for("About Agent", lambda: named(app, "About Agent", [Atspi.Role.MENU_ITEM, Atspi.Role.PUSH_BUTTON,
                                                                            Atspi.Role.LABEL]))
        time.sleep(0.3)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "--delay", "80", "Down", "Down", "Down", "Down", "Return"], check=True)
        wait_for("the About window", lambda: any(t == "The Agent developers" for t in label_texts(app)), timeout=10)
        window = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "About"], capture_output=True,
                                text=True).stdout.split()
        shoot(window[-1] if window else "root", path)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Escape"], check=True)
    return body


def narrow(chat_path, chats_path):
    def body(app, frame):
        ask(frame, "Name three colours of the rainbow.")
        shoot(x_window("^Agent$"), chat_path)
        back = wait_for("the back button", lambda: named(frame, "Back to the Chats", [Atspi.Role.PUSH_BUTTON]))
        click(back, x_window("^Agent$"))
        time.sleep(0.6)
        shoot(x_window("^Agent$"), chats_path)
    return body


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    light = GENERATION
    run(binary, light, empty_chat(os.path.join(folder, "empty-chat.png")))
    run(binary, light, code_block(os.path.join(folder, "code-block.png")))
    run(binary, SERVER_PROFILE, preferences(os.path.join(folder, "preferences.png")), size=(1000, 760))
    run(binary, light, about(os.path.join(folder, "about.png")))
    run(binary, light, narrow(os.path.join(folder, "narrow.png"), os.path.join(folder, "narrow-chats.png")), size=(360, 640))
    # Dark, as the desktop asks: the settings portal says "prefer dark" before the app starts.
    portal = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--template", os.path.join(SERVERS, "portal_settings_template.py"),
                               "--parameters", '{"color-scheme": 1}'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        subprocess.run(["gdbus", "wait", "--session", "--timeout", "10", "org.freedesktop.portal.Desktop"], check=True)
        run(binary, light, code_block(os.path.join(folder, "dark.png")))
    finally:
        portal.terminate()


if __name__ == "__main__":
    main()
