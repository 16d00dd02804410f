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
  docs/narrow-chats.png the same, back on the chat list;
  docs/mcp-launch-consent.png  the question before an MCP server's program first runs;
  docs/mcp-tool-consent.png    the question before a model's call to an MCP tool;
  docs/mcp-preferences.png     Preferences › Tools with that MCP server and its tools.
  docs/attach-composer.png     files pasted into the message field: chips with a thumbnail;
  docs/attach-sent.png         a question about a notes file, sent with it, and the answer;
  docs/attach-narrow.png       the chips at 360×640;
  docs/knowledge-dark.png      a chat asking about a folder, the reply's sources under it (dark).
  docs/found-server-banner.png       at start, the offer of an Ollama found running on this computer;
  docs/found-server-banner-dark.png  the same in dark;
  docs/found-server-preferences.png  Preferences › Servers with that Ollama under Found on This Computer.
  docs/reasoning-collapsed.png a reasoning model's reply, its thinking collapsed above the answer;
  docs/reasoning-expanded.png  the same with the Thinking section opened (and -dark.png of both).
  docs/model-menu.png          the header's model menu: an Ollama server's models and the local ones;
  docs/model-menu-dark.png     the same in dark;
  docs/model-menu-narrow.png   the same at 360×640.
  docs/ollama-pull.png, docs/ollama-pull-dark.png   Preferences › Models pulling an Ollama model, half way
                               (the scripted Ollama, Tests/Servers/ollama_scripted_server.py).
  docs/local-model-file.png    Preferences › Models with a GGUF file (Gemma 3 270M) chosen;
  docs/local-model-file-dark.png  the same in dark.
  docs/setup-progress.png      the local model being set up behind the window (light; -dark: dark);
  docs/setup-failed.png        a set-up that failed, with the end of its log.
  docs/versions.png            a reply asked for three times, its second version shown (‹ 2/3 ›), and a
                               follow-up under it (the scripted test model server; -dark, -narrow).
  docs/new-chat-menu.png       the new-chat button's menu: the presets, and Manage Presets…;
  docs/preset-chat.png         a chat started from the Translator preset, answered: what it sets
                               apart under the header (-dark, -narrow);
  docs/chat-settings.png       that chat's settings panel (Ctrl+I; -dark, -narrow);
  docs/presets.png             Preferences › Presets.
  docs/german.png              the window in German after a question to the local model (LANG=de_DE.UTF-8;
                               -narrow: at 360×640), docs/german-preferences.png Preferences in German;
  docs/search-results.png      what GNOME Shell's overview gets from Agent's search provider for
                               "rainbow": the result metas (name and matching line) over D-Bus,
                               drawn as the overview lists them (Tests/EndToEnd/search_results_view.py).
  docs/read-aloud.png          a reply read aloud, the word being spoken highlighted (-dark), through a
                               speech-dispatcher of the pictures' own at its slowest rate.

The MCP pictures use the reference server mcp-server-time (scripts/install-test-servers) and
the scriptable test model server, which calls its tool.

Run inside an X server and a D-Bus session (scripts/screenshot does):
    /usr/bin/python3 Tests/EndToEnd/docs_screenshots.py .build/debug/agent docs/ [mcp]
(a last argument, one of the keys of PICTURE_SETS — mcp, files, servers, reasoning, models,
ollama, local-model, setup, versions, settings, languages, search, read-aloud — takes only those pictures).

The found-server pictures run an imitation Ollama (Tests/Servers/local_model_server.py) on its
own port, 11434, which must be free.
"""
import contextlib
import gettext
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_atspi_test as e2e  # noqa: E402
from app_atspi_test import Atspi, fail, label_texts, named, wait_for  # noqa: E402

PROMPT = "Write a Python function that reverses a string. Put the code in a Markdown code block."
SERVERS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Servers")
ROOT = os.path.dirname(os.path.dirname(SERVERS))
DOMAIN = "io.github.agentdesktop.Agent"

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


def launch(binary, settings, size=(1000, 700), arguments=(), files=None, data=None):
    home = tempfile.mkdtemp(prefix="agent-shots-")
    config = os.path.join(home, "config", "io.github.agentdesktop.Agent")
    os.makedirs(config)
    with open(os.path.join(config, "settings.ini"), "w") as f:
        f.write(settings)
    for name, text in (files or {}).items():
        with open(os.path.join(config, name), "w") as f:
            f.write(text)
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    runtime = os.environ.get("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
    env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"), AGENT_RUNTIME_DIR=runtime,
               XDG_DATA_HOME=data or os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_STATE_HOME=os.path.join(home, "state"), GSETTINGS_BACKEND="keyfile")
    process = subprocess.Popen([binary, *arguments], env=env)
    e2e.APP = process
    app = wait_for("the app on the accessibility bus", lambda: e2e.find_app(process.pid))
    frame = wait_for("the window", lambda: named(app, "Agent", [Atspi.Role.FRAME, Atspi.Role.WINDOW]))
    window = x_window("^Agent$")
    subprocess.run(["xdotool", "windowsize", "--sync", window, str(size[0]), str(size[1])], check=True)
    subprocess.run(["xdotool", "windowfocus", "--sync", window], check=True)
    return process, app, frame


def x_window(name):
    """The visible X window called `name` (a regular expression), waited for: the window
    can be on the accessibility bus a moment before the X server shows it. Of several, the
    largest: a tooltip's window takes the name of the window it is over."""
    def area(window):
        geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True).stdout
        values = dict(line.split("=", 1) for line in geometry.split() if "=" in line)
        return int(values.get("WIDTH", 0)) * int(values.get("HEIGHT", 0))

    def search():
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name],
                               capture_output=True, text=True).stdout.split()
        return max(found, key=area) if found else None
    return wait_for(f"an X window named {name}", search)


def close_preferences():
    """Closes Preferences as a person does, with Escape, and waits until it has gone."""
    subprocess.run(["xdotool", "windowfocus", "--sync", x_window("^Preferences$"), "key", "--clearmodifiers", "Escape"],
                   check=True)
    wait_for("Preferences to close", lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Preferences$"],
                                                             capture_output=True).returncode != 0, timeout=10)


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


def run(binary, settings, body, size=(1000, 700), arguments=(), files=None, data=None):
    process, app, frame = launch(binary, settings, size, arguments, files, data)
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
        close_preferences()
    return body


def safe_name(node):
    try:
        return node.get_name()
    except Exception:
        return None


def last_on_screen(root, name, roles):
    """The last node called `name` in one of `roles` that has a size on screen. A page not
    shown can hold a label of the same name, and a narrow Preferences window keeps its header's
    view switcher, hidden but sized to AT-SPI (GTK 4.8 sets no SHOWING state), before the
    bottom bar's, the one on screen."""
    found = None
    for node in e2e.descendants(root):
        try:
            if node.get_name() == name and node.get_role() in roles:
                extents = node.get_extents(Atspi.CoordType.WINDOW)
                if extents.width > 0 and extents.height > 0:
                    found = node
        except Exception:
            continue
    return found


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


def time_server():
    """mcp-server-time from the venv scripts/install-test-servers makes."""
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    folders = [os.environ.get("AGENT_TEST_SERVERS_DIR", ""),
               os.path.join(data_home, "io.github.agentdesktop.Agent", "test-servers"),
               os.path.expanduser("~/.local/share/io.github.agentdesktop.Agent/test-servers")]
    for folder in folders:
        path = os.path.join(folder, "venv", "bin", "mcp-server-time")
        if folder and os.access(path, os.X_OK):
            return path
    fail("mcp-server-time is not installed: run scripts/install-test-servers")


def model_server():
    """The scriptable OpenAI-compatible test server; returns it and its plain HTTP port."""
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "openai_test_server.py")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    fields = server.stdout.readline().split()
    if len(fields) < 2 or fields[0] != "PORT":
        fail("the test model server did not start")
    return server, int(fields[1])


def press(app, name):
    """Presses the button called `name` (through its accessible action, as a screen reader does)."""
    def find():
        for node in e2e.descendants(app):
            try:
                # GTK 4.8 names a button with a mnemonic by its label twice: "_Run Run".
                label = (node.get_name() or "").replace("_", "")
                if node.get_role() == Atspi.Role.PUSH_BUTTON and (label == name or label.endswith(" " + name)):
                    return node
            except Exception:
                continue
        return None
    Atspi.Action.do_action(wait_for(f"the button {name}", find, timeout=10), 0)


def geometry(window):
    """An X window's position and size on the screen."""
    shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], capture_output=True, text=True, check=True).stdout
    values = dict(line.split("=", 1) for line in shell.split())
    return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])


def shoot_dialog(parent, dialog, path):
    """The dialog centred over its window, as the window manager shows it, in one picture
    (there is no window manager in the X server the pictures are taken in)."""
    x, y, width, height = geometry(parent)
    _, _, dialog_width, dialog_height = geometry(dialog)
    subprocess.run(["xdotool", "windowmove", "--sync", dialog, str(x + (width - dialog_width) // 2),
                    str(y + (height - dialog_height) // 2)], check=False)
    time.sleep(0.8)
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage", path], check=True)
    print("wrote", path)


def mcp(launch_path, tool_path, preferences_path):
    def body(app, frame):
        # Agent loads mcp.json once its window is up; the server's program is asked about first.
        wait_for("the launch question", lambda: "Run This Program?" in label_texts(app), timeout=20)
        shoot_dialog(x_window("^Agent$"), x_window("^Run This Program\\?$"), launch_path)
        press(app, "Run")
        entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
        send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
        Atspi.EditableText.set_text_contents(entry, "What time is it in UTC?")
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        wait_for("the tool call question", lambda: "Run “get_current_time”?" in label_texts(app), timeout=30)
        shoot_dialog(x_window("^Agent$"), x_window("get_current_time"), tool_path)
        press(app, "Allow Once")
        conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1), timeout=30)

        subprocess.run(["xdotool", "windowfocus", "--sync", x_window("^Agent$"), "key", "--clearmodifiers", "ctrl+comma"], check=True)
        window = wait_for("the Preferences window", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW,
                                                                                         Atspi.Role.DIALOG]))
        preferences = x_window("^Preferences$")
        subprocess.run(["xdotool", "windowsize", "--sync", preferences, "640", "800"], check=True)
        tools = wait_for("the Tools page", lambda: last_on_screen(window, "Tools", [Atspi.Role.LABEL]))
        click(tools, preferences)
        row = wait_for("the server's row", lambda: last_on_screen(window, "time", [Atspi.Role.LABEL]), timeout=10)
        wait_for("its tools", lambda: "2 tools" in label_texts(window), timeout=30)
        time.sleep(0.4)
        click(row, preferences)
        time.sleep(0.6)
        shoot(preferences, preferences_path)
        close_preferences()
    return body


def mcp_pictures(binary, folder):
    path = time_server()
    # Run through a shell, as some READMEs suggest: the question highlights what the shell is handed.
    config = {"mcpServers": {"time": {"command": "sh", "args": ["-c", f"exec {path} --local-timezone UTC"],
                                      "env": {"TZ": "UTC"}}}}
    server, port = model_server()
    try:
        run(binary, GENERATION, mcp(os.path.join(folder, "mcp-launch-consent.png"), os.path.join(folder, "mcp-tool-consent.png"),
                                    os.path.join(folder, "mcp-preferences.png")),
            size=(1000, 760), arguments=["--server", f"http://127.0.0.1:{port}/s/tools-mcptime", "--model", "test-model"],
            files={"mcp.json": json.dumps(config, indent=2)})
    finally:
        server.terminate()


NOTES = """# Launch checklist

- Venue: the old library, room 4
- Deadline for the slides: Friday 12 December
- Bring the projector adapter
"""


def paste_files(frame, paths):
    """Copies files as a file manager does (text/uri-list on the clipboard, from xclip) and
    pastes them into the message field with Ctrl+V."""
    entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
    uris = "".join("file://" + path + "\r\n" for path in paths)
    subprocess.Popen(["xclip", "-selection", "clipboard", "-t", "text/uri-list", "-i"], stdin=subprocess.PIPE,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).communicate(uris.encode())
    click(entry, x_window("^Agent$"))
    subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+v"], check=True)
    for path in paths:
        name = os.path.basename(path)
        wait_for(f"the chip of {name}", lambda: named(frame, f"Remove {name}", [Atspi.Role.PUSH_BUTTON]), timeout=20)
    return entry


def attachment_files():
    folder = tempfile.mkdtemp(prefix="agent-shot-files-")
    notes = os.path.join(folder, "launch-notes.md")
    with open(notes, "w") as f:
        f.write(NOTES)
    chart = os.path.join(folder, "sales-chart.png")
    subprocess.run(["convert", "-size", "240x160", "gradient:#3584e4-#99c1f1", "-fill", "#f6d32d", "-draw",
                    "rectangle 30,90 70,150", "-draw", "rectangle 100,50 140,150", "-draw", "rectangle 170,20 210,150", chart],
                   check=True)
    return notes, chart


def attachments(composer_path, sent_path):
    def body(app, frame):
        notes, chart = attachment_files()
        entry = paste_files(frame, [notes, chart])
        Atspi.EditableText.set_text_contents(entry, "What is the deadline in these notes?")
        shoot(x_window("^Agent$"), composer_path)
        # The local model reads text only: the picture goes before sending.
        press(app, "Remove sales-chart.png")
        send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1), timeout=120)
        shoot(x_window("^Agent$"), sent_path)
    return body


def attachments_narrow(path):
    def body(app, frame):
        notes, chart = attachment_files()
        entry = paste_files(frame, [notes, chart])
        Atspi.EditableText.set_text_contents(entry, "Compare these")
        shoot(x_window("^Agent$"), path)
    return body


def knowledge(path):
    def body(app, frame):
        notes = os.path.join(tempfile.mkdtemp(prefix="agent-shot-"), "Notes")
        os.makedirs(os.path.join(notes, "launch"))
        with open(os.path.join(notes, "launch", "checklist.md"), "w") as f:
            f.write(NOTES)
        with open(os.path.join(notes, "groceries.txt"), "w") as f:
            f.write("Milk, bread, apples, coffee beans.\n")
        window = x_window("^Agent$")
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+shift+o"], check=True)
        chooser = x_window("^Ask About a Folder$")
        subprocess.run(["xdotool", "windowfocus", "--sync", chooser, "key", "--clearmodifiers", "ctrl+l"], check=True)
        subprocess.run(["xdotool", "type", "--delay", "12", notes], check=True)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], check=True)
        wait_for("the folder chooser to close", lambda: subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--name", "^Ask About a Folder$"], capture_output=True).returncode != 0, timeout=10)
        wait_for("the folder strip", lambda: "Asking about" in label_texts(frame), timeout=20)
        conversation = ask(frame, "When is the deadline for the slides?")
        wait_for("the sources", lambda: "checklist.md" in label_texts(conversation), timeout=10)
        shoot(x_window("^Agent$"), path)
    return body


def gguf_file():
    """The test runtime's Gemma 3 270M file, from its manifest."""
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    runtime = os.environ.get("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
    with open(os.path.join(runtime, "manifest.json")) as f:
        return json.load(f)["models"]["gemma3"]


def local_model_file(path):
    """Preferences › Models after choosing a GGUF file with the file chooser, as a person does."""
    def body(app, frame):
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+comma"], check=True)
        window = wait_for("the Preferences window", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW,
                                                                                         Atspi.Role.DIALOG]))
        preferences = x_window("^Preferences$")
        subprocess.run(["xdotool", "windowsize", "--sync", preferences, "640", "640"], check=True)
        page = wait_for("the Models page's name", lambda: last_on_screen(window, "Models", [Atspi.Role.LABEL]))
        time.sleep(0.5)
        click(page, preferences)
        choose = wait_for("Choose a GGUF File… on screen", lambda: last_on_screen(window, "Choose a GGUF File…", [Atspi.Role.LABEL]))
        time.sleep(0.5)
        click(choose, preferences)
        chooser = x_window("^Choose a GGUF Model File$")
        subprocess.run(["xdotool", "windowfocus", "--sync", chooser, "key", "--clearmodifiers", "ctrl+l"], check=True)
        subprocess.run(["xdotool", "type", "--delay", "12", gguf_file()], check=True)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], check=True)
        wait_for("the file's row", lambda: named(window, "gemma-3-270m-q4_k_m", [Atspi.Role.LABEL]), timeout=10)
        subprocess.run(["xdotool", "windowfocus", "--sync", preferences], check=True)
        shoot(preferences, path)
        close_preferences()
    return body


def local_model_pictures(binary, folder):
    run(binary, GENERATION, local_model_file(os.path.join(folder, "local-model-file.png")), size=(1000, 860))
    with dark_portal():
        run(binary, GENERATION, local_model_file(os.path.join(folder, "local-model-file-dark.png")), size=(1000, 860))


def attachment_pictures(binary, folder):
    run(binary, GENERATION, attachments(os.path.join(folder, "attach-composer.png"), os.path.join(folder, "attach-sent.png")))
    run(binary, GENERATION, attachments_narrow(os.path.join(folder, "attach-narrow.png")), size=(360, 640))
    with dark_portal():
        run(binary, GENERATION, knowledge(os.path.join(folder, "knowledge-dark.png")))


def text_contents(root):
    """The texts of the text views under `root` (what a screen reader reads there)."""
    found = []
    for node in e2e.descendants(root):
        try:
            if node.get_role() == Atspi.Role.TEXT:
                found.append(Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node)))
        except Exception:
            continue
    return found


def reasoning(collapsed_path, expanded_path):
    def body(app, frame):
        entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
        send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
        Atspi.EditableText.set_text_contents(entry, "How many r's are in \"strawberry\"?")
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
        wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1), timeout=30)
        title = wait_for("the Thinking section", lambda: next(
            (node for node in e2e.descendants(conversation) if (safe_name(node) or "").startswith("Thought for ")), None), timeout=10)
        shoot(x_window("^Agent$"), collapsed_path)
        click(title, x_window("^Agent$"))
        wait_for("the thinking", lambda: any("double-check" in t for t in text_contents(conversation)), timeout=10)
        shoot(x_window("^Agent$"), expanded_path)
    return body


def reasoning_pictures(binary, folder):
    server, port = model_server()
    arguments = ["--server", f"http://127.0.0.1:{port}/s/think-reasoningcontent-30-long", "--model", "test-model"]
    try:
        run(binary, GENERATION, reasoning(os.path.join(folder, "reasoning-collapsed.png"), os.path.join(folder, "reasoning-expanded.png")),
            arguments=arguments)
        with dark_portal():
            run(binary, GENERATION, reasoning(os.path.join(folder, "reasoning-collapsed-dark.png"),
                                              os.path.join(folder, "reasoning-expanded-dark.png")), arguments=arguments)
    finally:
        server.terminate()


@contextlib.contextmanager
def imitation_ollama():
    """An Ollama with two models, as Agent finds one on this computer (127.0.0.1:11434)."""
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "local_model_server.py"), "--port", "11434",
                               "--kind", "ollama"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if not server.stdout.readline().startswith("PORT"):
        fail("the imitation Ollama could not listen on port 11434: is something else there?")
    try:
        yield
    finally:
        server.stdin.close()
        server.wait()


def found_banner(path):
    def body(app, frame):
        wait_for("the offer", lambda: "Ollama is running on this computer · 2 models" in label_texts(frame), timeout=20)
        shoot(x_window("^Agent$"), path)
    return body


def found_preferences(path):
    def body(app, frame):
        wait_for("the offer", lambda: "Ollama is running on this computer · 2 models" in label_texts(frame), timeout=20)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+comma"], check=True)
        window = wait_for("the Preferences window", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW,
                                                                                         Atspi.Role.DIALOG]))
        wait_for("the server found", lambda: named(window, "Ollama on this computer", [Atspi.Role.LABEL]), timeout=20)
        shoot(x_window("^Preferences$"), path)
        subprocess.run(["xdotool", "windowfocus", "--sync", x_window("^Preferences$"), "key", "--clearmodifiers", "Escape"],
                       check=True)
    return body


OLLAMA_PROFILE = """[general]
profile=ollama

[profile ollama]
name=Ollama on this computer
url={url}
protocol=ollama
model=llama3.2
tools=true
"""


def ollama_pull(path, events_url, store):
    """Preferences › Models, scrolled down to Ollama's models, with a pull of gemma3:270m held half
    way by the scripted Ollama."""
    def body(app, frame):
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+comma"], check=True)
        window = wait_for("the Preferences window", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW,
                                                                                         Atspi.Role.DIALOG]))
        preferences = x_window("^Preferences$")
        subprocess.run(["xdotool", "windowsize", "--sync", preferences, "640", "620"], check=True)
        click(wait_for("the Models page", lambda: last_on_screen(window, "Models", [Atspi.Role.LABEL])), preferences)
        wait_for("the server's models", lambda: "qwen3:0.6b" in label_texts(window), timeout=10)
        # Ollama's groups come after the local model's: the wheel, at the page's edge (where no
        # spin button takes it), brings them up.
        subprocess.run(["xdotool", "mousemove", "--window", preferences, "6", "300", "click", "--repeat", "12", "--delay", "30", "5"],
                       check=True)
        time.sleep(0.5)
        entry = wait_for("the pull field", lambda: named(window, "Pull a Model (such as qwen3:4b)", [Atspi.Role.LABEL]))
        click(entry, preferences)
        subprocess.run(["xdotool", "type", "--delay", "40", "gemma3:270m"], check=True)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], check=True)

        def held():
            with urllib.request.urlopen(events_url) as response:
                return any(e["event"] == "held" and e["store"] == store for e in json.load(response))
        wait_for("the pull half way", held, timeout=10)
        wait_for("the progress shown", lambda: "50%" in label_texts(window) or any("of 27" in t for t in label_texts(window)),
                 timeout=10)
        shoot(preferences, path)
        close_preferences()
    return body


def found_server_pictures(binary, folder):
    with imitation_ollama():
        run(binary, GENERATION, found_banner(os.path.join(folder, "found-server-banner.png")))
        run(binary, GENERATION, found_preferences(os.path.join(folder, "found-server-preferences.png")), size=(1000, 760))
        with dark_portal():
            run(binary, GENERATION, found_banner(os.path.join(folder, "found-server-banner-dark.png")))


def ollama_profile(port):
    """Settings with an Ollama server profile (the scripted test server, with its two models) in use."""
    return GENERATION + f"""
[general]
profile=ollama

[profile ollama]
name=Ollama
url=http://127.0.0.1:{port}/s/ollama
protocol=ollama
model=llama3.2:latest
tools=false
"""


def model_menu(path):
    """A chat that chose the local SmolLM2 in the menu (Ctrl+M, typed, Enter) and got its reply,
    then the menu open again over it; the picture is of the screen, where the menu is."""
    def body(app, frame):
        window = x_window("^Agent$")
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+m"], check=True)
        wait_for("the server's models", lambda: "qwen3:0.6b" in label_texts(app), timeout=20)
        subprocess.run(["xdotool", "type", "--delay", "60", "smol"], check=True)
        wait_for("the filtered list", lambda: "qwen3:0.6b" not in label_texts(app), timeout=10)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], check=True)
        ask(frame, "Name three colours of the rainbow.")
        # The reply's figures come when it has ended (the local model may still be starting when it is sent).
        wait_for("the reply's token count", lambda: any(" tokens · " in t for t in label_texts(frame)), timeout=180)
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+m"], check=True)
        wait_for("the menu again", lambda: "qwen3:0.6b" in label_texts(app), timeout=20)
        x, y, width, height = geometry(window)
        time.sleep(0.8)
        subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage", path], check=True)
        print("wrote", path)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Escape"], check=True)
    return body


@contextlib.contextmanager
def compositor():
    """A compositing manager (xcompmgr, when installed), as every desktop has: without one a
    popover's shadow is drawn black."""
    if shutil.which("xcompmgr") is None:
        print("xcompmgr is not installed: the menu's shadow comes out black (apt-get install xcompmgr)")
        yield
        return
    manager = subprocess.Popen(["xcompmgr"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        manager.terminate()
        manager.wait()


def model_menu_pictures(binary, folder):
    server, port = model_server()
    try:
        settings = ollama_profile(port)
        with compositor():
            run(binary, settings, model_menu(os.path.join(folder, "model-menu.png")))
            run(binary, settings, model_menu(os.path.join(folder, "model-menu-narrow.png")), size=(360, 640))
            with dark_portal():
                run(binary, settings, model_menu(os.path.join(folder, "model-menu-dark.png")))
    finally:
        server.terminate()
        server.wait()
def ollama_pictures(binary, folder):
    for name, dark in [("ollama-pull.png", False), ("ollama-pull-dark.png", True)]:
        # On Ollama's own port when it is free, so the picture shows its usual address.
        store = f"p150-hold-{name.split('.')[0]}"
        with socket.socket() as probe:
            port = 11434 if probe.connect_ex(("127.0.0.1", 11434)) != 0 else 0
        server = subprocess.Popen(["python3", os.path.join(SERVERS, "ollama_scripted_server.py"), str(port), store],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            port = int(server.stdout.readline().split()[1])
            settings = OLLAMA_PROFILE.format(url=f"http://127.0.0.1:{port}")
            body = ollama_pull(os.path.join(folder, name), f"http://127.0.0.1:{port}/_events", store)
            with dark_portal() if dark else contextlib.nullcontext():
                run(binary, settings, body, size=(1000, 700))
        finally:
            server.terminate()
            server.wait()


@contextlib.contextmanager
def scripted_setup():
    """No local runtime, and a set-up (Tests/Servers/scripted-install-runtime) whose steps
    are written to the FIFO this yields."""
    folder = tempfile.mkdtemp(prefix="agent-setup-")
    fifo = os.path.join(folder, "steps")
    os.mkfifo(fifo)
    steps = os.open(fifo, os.O_RDWR)
    saved = {name: os.environ.get(name) for name in ("AGENT_RUNTIME_DIR", "AGENT_INSTALL_RUNTIME_SCRIPT", "AGENT_TEST_INSTALL_STEPS")}
    os.environ.update(AGENT_RUNTIME_DIR=os.path.join(folder, "runtime"), AGENT_TEST_INSTALL_STEPS=fifo,
                      AGENT_INSTALL_RUNTIME_SCRIPT=os.path.join(SERVERS, "scripted-install-runtime"))
    try:
        yield lambda line: os.write(steps, (line + "\n").encode())
    finally:
        os.close(steps)
        shutil.rmtree(folder, ignore_errors=True)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def setup_progress(path, step):
    def body(app, frame):
        wait_for("the set-up", lambda: any(t.startswith("Starting") for t in label_texts(frame)))
        step("PROGRESS 0 Creating the environment")
        step("PROGRESS 45 Building llama.cpp")
        wait_for("the build's progress", lambda: "Building llama.cpp — 45%" in label_texts(frame))
        shoot(x_window("^Agent$"), path)
    return body


def setup_failed(path, step):
    def body(app, frame):
        wait_for("the set-up", lambda: any(t.startswith("Starting") for t in label_texts(frame)))
        step("PROGRESS 38 Building llama.cpp")
        for line in ["[ 37%] Building CXX object src/CMakeFiles/llama.dir/llama-model.cpp.o",
                     "c++: fatal error: Killed signal terminated program cc1plus",
                     "compilation terminated.",
                     "gmake[2]: *** [src/CMakeFiles/llama.dir/build.make:300: src/CMakeFiles/llama.dir/llama-model.cpp.o] Error 1",
                     "error: subprocess-exited-with-error"]:
            step("LOG " + line)
        step("EXIT 1")
        wait_for("the failure", lambda: any(t.startswith("The local model could not be set up") for t in label_texts(frame)))
        shoot(x_window("^Agent$"), path)
    return body


def setup_pictures(binary, folder):
    arguments = ["--set-up-local-model"]
    with scripted_setup() as step:
        run(binary, GENERATION, setup_progress(os.path.join(folder, "setup-progress.png"), step), arguments=arguments)
    with dark_portal(), scripted_setup() as step:
        run(binary, GENERATION, setup_progress(os.path.join(folder, "setup-progress-dark.png"), step), arguments=arguments)
    with scripted_setup() as step:
        run(binary, GENERATION, setup_failed(os.path.join(folder, "setup-failed.png"), step), arguments=arguments)


def say(frame, prompt, turn):
    """Sends `prompt` and waits for reply number `turn` (a server that is already up)."""
    entry = wait_for("the entry", lambda: named(frame, "Message", [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
    send = wait_for("Send", lambda: named(frame, "Send", [Atspi.Role.PUSH_BUTTON]))
    Atspi.EditableText.set_text_contents(entry, prompt)
    wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
    Atspi.Action.do_action(send, 0)
    conversation = wait_for("the conversation", lambda: named(frame, "Conversation", [Atspi.Role.LIST]))
    wait_for(f"reply {turn}", lambda: e2e.turn_finished(frame, conversation, turn), timeout=30)
    return conversation


def versions(path):
    """A question whose reply was asked for three times (Ctrl+Shift+R twice), the second
    version chosen with ‹, and a follow-up asked under it."""
    def body(app, frame):
        conversation = say(frame, "Suggest a name for our hiking club.", 1)
        window = x_window("^Agent$")
        for count in (2, 3):
            subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+shift+r"], check=True)
            wait_for(f"version {count}", lambda: f"{count}/{count}" in label_texts(conversation), timeout=20)
            wait_for(f"version {count} to end", lambda: e2e.turn_finished(frame, conversation, 1), timeout=30)
        press(app, "Previous Version")
        wait_for("the second version", lambda: "2/3" in label_texts(conversation), timeout=10)
        say(frame, "Something friendlier, please.", 2)
        shoot(window, path)
    return body


def versions_pictures(binary, folder):
    server, port = model_server()
    try:
        for name, size, dark in [("versions.png", (1000, 700), False), ("versions-dark.png", (1000, 700), True),
                                 ("versions-narrow.png", (360, 640), False)]:
            arguments = ["--server", f"http://127.0.0.1:{port}/s/drafts-{name.split('.')[0]}", "--model", "test-model"]
            with dark_portal() if dark else contextlib.nullcontext():
                run(binary, GENERATION, versions(os.path.join(folder, name)), size=size, arguments=arguments)
    finally:
        server.terminate()
        server.wait()


@contextlib.contextmanager
def speech_service():
    """A speech-dispatcher of the pictures' own (as Tests/TestSupport/SpeechService.swift starts
    one), its voice at the slowest rate going through ALSA's file plugin into a pipe read at the
    pace it would be played — 22050 samples of 16 bits a second. The service reports each word as
    espeak-ng makes it, which the slow rate spreads over a couple of seconds, and the end only once
    it is played. Yields the address the app is given in SPEECHD_ADDRESS."""
    folder = tempfile.mkdtemp(prefix="agent-speech-")
    home, config, runtime = (os.path.join(folder, name) for name in ("home", "config", "run"))
    for directory in (home, os.path.join(config, "speech-dispatcher"), runtime):
        os.makedirs(directory)
    os.chmod(runtime, 0o700)
    with open("/etc/speech-dispatcher/speechd.conf") as system, \
            open(os.path.join(config, "speech-dispatcher", "speechd.conf"), "w") as conf:
        conf.write(system.read() + '\nAudioOutputMethod "alsa"\nDefaultRate -100\n')
    voice = os.path.join(folder, "voice.pipe")
    os.mkfifo(voice)
    with open(os.path.join(home, ".asoundrc"), "w") as f:
        f.write(f'pcm.!default {{ type file; slave.pcm "null"; file "{voice}"; format "raw" }}\n')

    def play():
        with open(voice, "rb", buffering=0) as pipe:
            while pipe.read(4410):
                time.sleep(0.1)

    threading.Thread(target=play, daemon=True).start()
    socket_path = os.path.join(runtime, "speech-dispatcher", "speechd.sock")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=config, XDG_RUNTIME_DIR=runtime)
    subprocess.run([os.path.join(SERVERS, "spawn-speech-dispatcher"), "--timeout", "30", "--communication-method",
                    "unix_socket", "--socket-path", socket_path], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield f"unix_socket:{socket_path}"
    finally:
        with contextlib.suppress(OSError, ValueError):
            with open(os.path.join(runtime, "speech-dispatcher", "pid", "speech-dispatcher.pid")) as f:
                os.kill(int(f.read().strip()), 15)
        shutil.rmtree(folder, ignore_errors=True)


def read_aloud(path):
    """A reply read aloud with Ctrl+Shift+S, part of the way in."""
    def body(app, frame):
        say(frame, "How do bees make honey?", 1)
        window = x_window("^Agent$")
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+shift+s"], check=True)
        wait_for("the reading to start", lambda: named(frame, "Stop Reading", [Atspi.Role.PUSH_BUTTON]), timeout=20)
        shoot(window, path)
    return body


def read_aloud_pictures(binary, folder):
    server, port = model_server()
    try:
        for name, dark in [("read-aloud.png", False), ("read-aloud-dark.png", True)]:
            arguments = ["--server", f"http://127.0.0.1:{port}/s/honey", "--model", "test-model"]
            with speech_service() as address, dark_portal() if dark else contextlib.nullcontext():
                os.environ["SPEECHD_ADDRESS"] = address
                try:
                    run(binary, GENERATION, read_aloud(os.path.join(folder, name)), size=(1000, 700), arguments=arguments)
                finally:
                    del os.environ["SPEECHD_ADDRESS"]
    finally:
        server.terminate()
        server.wait()


def open_new_chat_menu(app, frame, window):
    """Opens the new-chat button's menu with a click on its arrow."""
    arrow = wait_for("the new-chat menu's arrow", lambda: named(frame, "New chat from a preset", [Atspi.Role.PUSH_BUTTON,
                                                                                                  Atspi.Role.TOGGLE_BUTTON]))
    click(arrow, window)
    wait_for("the menu", lambda: named(app, "Manage Presets…", [Atspi.Role.MENU_ITEM]))


def choose_in_menu(app, item):
    """Chooses a menu item through its accessible action, as a screen reader does."""
    Atspi.Action.do_action(wait_for(f"the item {item}", lambda: named(app, item, [Atspi.Role.MENU_ITEM])), 0)


def new_chat_menu(path):
    def body(app, frame):
        window = x_window("^Agent$")
        x, y, width, height = geometry(window)
        open_new_chat_menu(app, frame, window)
        time.sleep(0.8)
        subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage", path], check=True)
        print("wrote", path)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "Escape"], check=True)
    return body


def chat_settings(folder, suffix, narrow):
    """A chat started from the Translator preset (the new-chat menu; in a narrow window the
    chat list's page is shown first), answered (preset-chat), then its settings opened with
    Ctrl+I (chat-settings)."""
    def body(app, frame):
        window = x_window("^Agent$")
        if narrow:
            # The back button, once the window has settled at its narrow size.
            back = wait_for("the back button", lambda: named(frame, "Back to the Chats", [Atspi.Role.PUSH_BUTTON]))
            time.sleep(1)
            click(back, window)
            wait_for("the chat list's page", lambda: not back.get_state_set().contains(Atspi.StateType.SHOWING), timeout=10)
            time.sleep(0.5)
        open_new_chat_menu(app, frame, window)
        choose_in_menu(app, "Translator")
        wait_for("the preset's strip", lambda: any(t.startswith("Translator · ") for t in label_texts(frame)), timeout=10)
        say(frame, "Könnten Sie mir bitte sagen, wie spät es ist?", 1)
        subprocess.run(["xdotool", "mousemove", "--window", window, "5", "5"], check=True)
        shoot(window, os.path.join(folder, f"preset-chat{suffix}.png"))
        subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+i"], check=True)
        dialog = x_window("^Chat Settings$")
        if narrow:
            subprocess.run(["xdotool", "windowsize", "--sync", dialog, "360", "640"], check=True)
        shoot(dialog, os.path.join(folder, f"chat-settings{suffix}.png"))
        subprocess.run(["xdotool", "windowfocus", "--sync", dialog, "key", "--clearmodifiers", "Escape"], check=True)
    return body


def presets(path):
    """Preferences › Presets, opened from the new-chat menu's Manage Presets…."""
    def body(app, frame):
        open_new_chat_menu(app, frame, x_window("^Agent$"))
        choose_in_menu(app, "Manage Presets…")
        preferences = wait_for("Preferences", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW, Atspi.Role.DIALOG]))
        window = x_window("^Preferences$")
        subprocess.run(["xdotool", "windowsize", "--sync", window, "640", "600"], check=True)
        wait_for("the presets", lambda: named(preferences, "Terse Code Reviewer", [Atspi.Role.LABEL]))
        shoot(window, path)
        close_preferences()
    return body


def settings_pictures(binary, folder):
    server, port = model_server()
    try:
        arguments = ["--server", f"http://127.0.0.1:{port}/s/drafts-settings", "--model", "test-model"]
        with compositor():
            run(binary, GENERATION, new_chat_menu(os.path.join(folder, "new-chat-menu.png")), arguments=arguments)
        run(binary, GENERATION, presets(os.path.join(folder, "presets.png")), arguments=arguments)
        for suffix, size, dark in [("", (1000, 700), False), ("-dark", (1000, 700), True), ("-narrow", (360, 640), False)]:
            with dark_portal() if dark else contextlib.nullcontext():
                run(binary, GENERATION, chat_settings(folder, suffix, narrow=size[0] < 400), size=size, arguments=arguments)
    finally:
        server.terminate()
        server.wait()


@contextlib.contextmanager
def dark_portal():
    """Dark, as the desktop asks: the settings portal says "prefer dark" before the app starts."""
    portal = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--template", os.path.join(SERVERS, "portal_settings_template.py"),
                               "--parameters", '{"color-scheme": 1}'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        subprocess.run(["gdbus", "wait", "--session", "--timeout", "10", "org.freedesktop.portal.Desktop"], check=True)
        yield
    finally:
        portal.terminate()
        portal.wait()


def german(folder, suffix, narrow):
    """The window in German: a question to the local model, answered; Preferences at full size."""
    _ = gettext.translation(DOMAIN, os.path.join(ROOT, ".build", "locale"), ["de"]).gettext

    def body(app, frame):
        entry = wait_for("the entry", lambda: named(frame, _("Message"), [Atspi.Role.TEXT, Atspi.Role.ENTRY]))
        send = wait_for("Send", lambda: named(frame, _("Send"), [Atspi.Role.PUSH_BUTTON]))
        wait_for("the local model", lambda: any(t.endswith(_("on this computer")) for t in label_texts(frame)))
        Atspi.EditableText.set_text_contents(entry, "Wie entsteht ein Regenbogen?")
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        conversation = wait_for("the conversation", lambda: named(frame, _("Conversation"), [Atspi.Role.LIST]))
        wait_for("the reply", lambda: e2e.turn_finished(frame, conversation, 1) or not any(
            n.get_state_set().contains(Atspi.StateType.VISIBLE) for n in [named(frame, _("Stop"), [Atspi.Role.PUSH_BUTTON])] if n),
                 timeout=120)
        shoot(x_window("^Agent$"), os.path.join(folder, f"german{suffix}.png"))
        if not narrow:
            subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+comma"], check=True)
            window = wait_for("Preferences", lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Einstellungen$"],
                                                                    capture_output=True, text=True).stdout.split())[-1]
            subprocess.run(["xdotool", "windowsize", "--sync", window, "640", "760"], check=True)
            shoot(window, os.path.join(folder, "german-preferences.png"))
            subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", "--clearmodifiers", "Escape"], check=True)
    return body


def language_pictures(binary, folder):
    german_env = {"LANG": "de_DE.UTF-8", "LANGUAGE": "de"}
    with environment(german_env):
        run(binary, GENERATION, german(folder, "", narrow=False))
        run(binary, GENERATION, german(folder, "-narrow", narrow=True), size=(360, 640))


@contextlib.contextmanager
def environment(values):
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


SEARCH_CHATS = {"format": "agent-chats", "version": 1, "chats": [
    {"id": "5EA2C000-0000-4000-8000-00000000000%d" % n, "title": title, "created": 1764600000 + n, "updated": 1764600000 + n,
     "messages": [{"id": "5EA2C000-0000-4000-8000-0000000001%02d" % (2 * n), "role": "user", "text": question,
                   "time": 1764600000 + n, "state": "done"},
                  {"id": "5EA2C000-0000-4000-8000-0000000001%02d" % (2 * n + 1), "role": "assistant", "text": answer,
                   "time": 1764600001 + n, "state": "done", "model": "SmolLM2-135M-Instruct"}]}
    for n, (title, question, answer) in enumerate([
        ("Why the sky is blue", "Why is the sky blue and not violet?",
         "Sunlight scatters off air molecules; blue scatters most, and our eyes favour it over violet. A rainbow splits the same light."),
        ("Rainbow physics", "How does a rainbow form?",
         "Sunlight enters raindrops, bends, reflects inside them and leaves split into its colours: a rainbow."),
        ("Packing list for Lisbon", "What should I pack for Lisbon in March?",
         "Layers, a light rain jacket and good shoes for the hills; bring an umbrella for the odd rainbow-making shower."),
    ], start=1)]}


def search_results(path, words):
    """Asks the running app's search provider over D-Bus as GNOME Shell does, and draws the metas."""
    def body(app, frame):
        view = subprocess.Popen(["/usr/bin/python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "search_results_view.py"),
                                 words], stdout=subprocess.PIPE, text=True)
        try:
            print(view.stdout.readline().strip())
            shoot(x_window("^Agent search results$"), path)
        finally:
            view.terminate()
            view.wait()
    return body


def search_pictures(binary, folder):
    home = tempfile.mkdtemp(prefix="agent-search-")
    export = os.path.join(home, "chats.json")
    with open(export, "w") as f:
        json.dump(SEARCH_CHATS, f)
    data = os.path.join(home, "data")
    cli = os.path.join(os.path.dirname(binary), "agent-cli")
    subprocess.run([cli, "--import", export], env=dict(os.environ, XDG_DATA_HOME=data), check=True)
    run(binary, GENERATION, search_results(os.path.join(folder, "search-results.png"), "rainbow"), data=data)


def preferences_pictures(binary, folder):
    run(binary, SERVER_PROFILE, preferences(os.path.join(folder, "preferences.png")), size=(1000, 760))


PICTURE_SETS = {
    "preferences": preferences_pictures,
    "mcp": mcp_pictures,
    "files": attachment_pictures,
    "servers": found_server_pictures,
    "reasoning": reasoning_pictures,
    "models": model_menu_pictures,
    "ollama": ollama_pictures,
    "local-model": local_model_pictures,
    "setup": setup_pictures,
    "versions": versions_pictures,
    "settings": settings_pictures,
    "languages": language_pictures,
    "search": search_pictures,
    "read-aloud": read_aloud_pictures,
}


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        PICTURE_SETS[sys.argv[3]](binary, folder)
        return
    light = GENERATION
    run(binary, light, empty_chat(os.path.join(folder, "empty-chat.png")))
    run(binary, light, code_block(os.path.join(folder, "code-block.png")))
    run(binary, light, about(os.path.join(folder, "about.png")))
    run(binary, light, narrow(os.path.join(folder, "narrow.png"), os.path.join(folder, "narrow-chats.png")), size=(360, 640))
    with dark_portal():
        run(binary, light, code_block(os.path.join(folder, "dark.png")))
    for pictures in PICTURE_SETS.values():
        pictures(binary, folder)


if __name__ == "__main__":
    main()
