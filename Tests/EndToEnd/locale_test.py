#!/usr/bin/env python3
"""End-to-end: Agent in other languages, read back through the accessibility tree.

1. A pseudo-locale (en_XA, Tests/EndToEnd/pseudo_locale.py: every letter of every message in
   po/ made a non-ASCII look-alike): the main window, a reply, the main menu, the chat menu,
   the chat's settings, every page of Preferences and the Keyboard Shortcuts window show no
   ASCII word that escaped gettext,
   apart from data (the model's name, what was typed, the echo) and GTK's own strings.
2. German, Spanish and French, from the catalogs the build tree compiled (.build/locale),
   with the local model (its empty chat fills in once the model has started): the controls
   carry their names in that language, and a window made 360 pixels wide, as on a phone,
   stays that wide with the longer words, as in English.
3. A right-to-left pseudo-run (ar: GTK's own Arabic catalog turns the layout around, ours
   gives Arabic letters): the Send button is left of the message field, and the window
   stays 360 pixels wide too.

Run inside an X server and a D-Bus session (scripts/test does), after `make locale`:
    /usr/bin/python3 Tests/EndToEnd/locale_test.py .build/debug/agent
"""
import gettext
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_atspi_test as e2e  # noqa: E402
import pseudo_locale  # noqa: E402
from app_atspi_test import Atspi, descendants, fail, named, wait_for  # noqa: E402

ROOT = pseudo_locale.ROOT
SERVERS = os.path.join(ROOT, "Tests", "Servers")
DOMAIN = pseudo_locale.DOMAIN
TYPED = "hello"
# Data on screen that is no message of Agent's: the app's, Ollama's and the models' names, the server's
# address, what the user typed, the echo server's reply ("Echo: hello (1 messages)"), the
# presets the chat database starts with; also anything quoted (“%s”) and paths.
DATA_WORDS = {"Agent", "Ollama", "test", "model", TYPED, "Echo", "messages"}
DATA_FRAGMENTS = ["SmolLM2-135M-Instruct", "Gemma-3-270M", "Plain Assistant", "Terse Code Reviewer", "Translator"]
BUTTONS = [Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON]
TEXTS = [Atspi.Role.TEXT, Atspi.Role.ENTRY]


def toolkit_strings():
    """GTK's and libadwaita's own messages, those their German catalogs translate: window
    controls, and the key names of shortcut labels ("Ctrl", "Ctrl+,")."""
    catalogs = [gettext.translation(domain, "/usr/share/locale", ["de"]) for domain in ("gtk40", "libadwaita")]

    def translated(text):
        return any(catalog.gettext(text) != text or catalog.pgettext("keyboard label", text) != text for catalog in catalogs)

    def key(name):  # a key as GtkShortcutLabel names it ("Alt" is "Alt" in German too; "Page Up" is Page_Up's label)
        return len(name) <= 1 or name in ("Alt", "Shift", "Super", "Meta", "Hyper") or translated(name) \
            or translated(name.replace(" ", "_"))

    return lambda text: translated(text) or all(key(name) for name in text.split("+"))


def xdotool(*arguments):
    return subprocess.run(["xdotool", *arguments], capture_output=True, text=True, check=True).stdout


class Run:
    """The app in one language against the echo test server, with a fresh user's data."""

    def __init__(self, binary, port=None, **environment):
        fresh = tempfile.mkdtemp(prefix="agent-locale-")
        env = dict(os.environ, GSK_RENDERER=os.environ.get("GSK_RENDERER", "cairo"),
                   XDG_DATA_HOME=os.path.join(fresh, "data"), XDG_CONFIG_HOME=os.path.join(fresh, "config"), **environment)
        data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
        env.setdefault("AGENT_RUNTIME_DIR", os.path.join(data_home, "io.github.agentdesktop.Agent", "runtime"))
        server = ["--server", f"http://127.0.0.1:{port}/s/echo", "--model", "test-model"] if port else []
        self.process = subprocess.Popen([binary, *server], env=env)
        e2e.APP = self.process
        self.app = wait_for("the app on the accessibility bus", lambda: e2e.find_app(self.process.pid))
        self.frame = wait_for("the window", lambda: named(self.app, "Agent", [Atspi.Role.FRAME]))
        self.window = wait_for("its X window", lambda: xdotool("search", "--onlyvisible", "--name", "^Agent$").split())[-1]

    def keys(self, *keys):
        xdotool("windowfocus", "--sync", self.window, "key", "--clearmodifiers", *keys)

    def frames(self):
        return [self.app.get_child_at_index(i) for i in range(self.app.get_child_count())]

    def make_narrow(self):
        """Asks for a window 360 pixels wide, as on a phone (GTK keeps it at its minimum)."""
        xdotool("windowsize", "--sync", self.window, "360", "640")

    def width(self):
        shell = xdotool("getwindowgeometry", "--shell", self.window)
        return int(re.search(r"WIDTH=(\d+)", shell).group(1))

    def quit(self):
        self.keys("ctrl+q")
        e2e.APP = None
        self.process.wait(timeout=15)


def clickable(root, name):
    """The button called `name` that can be pressed (a GtkMenuButton shows twice: itself and
    the button inside it)."""
    for node in descendants(root):
        try:
            if node.get_name() == name and node.get_role() in BUTTONS and Atspi.Action.get_n_actions(node) > 0:
                return node
        except Exception:
            continue
    return None


def visible_texts(root):
    """Every name, description and text of the visible nodes under `root` (GTK 4.8 marks none
    but windows "showing"), hidden pages of a stack included."""
    texts = []
    for node in descendants(root):
        try:
            if not node.get_state_set().contains(Atspi.StateType.VISIBLE):
                continue
            texts += [node.get_name() or "", node.get_description() or ""]
            if node.get_text_iface() is not None:
                texts.append(Atspi.Text.get_text(node, 0, -1) or "")
        except Exception:
            continue
    # GTK names a node that has no name of its own after its class: "GtkLabel", "AdwGizmo".
    return [text for text in texts if text.strip() and not re.fullmatch(r"(Gtk|Adw)[A-Z]\w+", text)]


def escaped(texts, is_toolkit_string):
    """The texts holding an ASCII word that is neither data nor GTK's own."""
    found = set()
    for text in texts:
        if is_toolkit_string(text):
            continue
        rest = re.sub(r"“[^”]*”|\S*/\S*", "", text)
        for fragment in DATA_FRAGMENTS:
            rest = rest.replace(fragment, "")
        words = set(re.findall(r"[A-Za-z]{2,}", rest)) - DATA_WORDS
        if words:
            found.add(text)
    return sorted(found)


def pseudo_run(binary, port):
    directory = tempfile.mkdtemp(prefix="agent-pseudo-")
    pseudo_locale.catalog("en_XA", "accents", directory)
    _ = gettext.translation(DOMAIN, directory, ["en_XA"]).gettext
    run = Run(binary, port, LANG="C.UTF-8", LANGUAGE="en_XA", AGENT_LOCALE_DIR=directory)
    seen = []
    try:
        entry = wait_for("the message field", lambda: named(run.frame, _("Message"), TEXTS))
        send = wait_for("the Send button", lambda: named(run.frame, _("Send"), BUTTONS))
        conversation = wait_for("the conversation", lambda: named(run.frame, _("Conversation"), [Atspi.Role.LIST]))
        seen += visible_texts(run.frame)
        Atspi.EditableText.set_text_contents(entry, TYPED)
        wait_for("Send to be enabled", lambda: send.get_state_set().contains(Atspi.StateType.SENSITIVE))
        Atspi.Action.do_action(send, 0)
        wait_for("the reply", lambda: any(t.startswith("Echo: ") for t in visible_texts(conversation)), timeout=30)
        wait_for("the reply to finish", lambda: not any(
            n.get_state_set().contains(Atspi.StateType.VISIBLE) for n in [named(run.frame, _("Stop"), BUTTONS)] if n), timeout=30)
        seen += visible_texts(run.frame)
        run.keys("F10")
        wait_for("the main menu", lambda: named(run.frame, _("_Preferences").replace("_", ""), [Atspi.Role.MENU_ITEM]))
        seen += visible_texts(run.frame)
        run.keys("Escape")
        chat_menu = wait_for("the chat menu's button", lambda: clickable(run.frame, _("Chat Menu")))
        Atspi.Action.do_action(chat_menu, 0)
        wait_for("the chat menu", lambda: named(run.frame, _("_Rename Chat…").replace("_", ""), [Atspi.Role.MENU_ITEM]))
        seen += visible_texts(run.frame)
        run.keys("Escape")
        run.keys("ctrl+i")
        settings = wait_for("the chat's settings", lambda: next((f for f in run.frames() if f.get_name() != "Agent"), None))
        wait_for("its form", lambda: _("System Prompt") in visible_texts(settings))
        seen += visible_texts(settings)
        xdotool("key", "--clearmodifiers", "Escape")
        wait_for("the chat's settings to close", lambda: len(run.frames()) == 1)
        run.keys("ctrl+comma")
        preferences = wait_for("Preferences", lambda: next((f for f in run.frames() if f.get_name() != "Agent"), None))
        pages = [_("Servers"), _("Models"), _("Generation"), _("Presets"), _("Tools")]
        for page in pages:
            switch = wait_for(f"the page switch {page}", lambda: named(preferences, page, [Atspi.Role.PAGE_TAB]))
            Atspi.Action.do_action(switch, 0)
            wait_for(f"the page {page} shown", lambda: switch.get_state_set().contains(Atspi.StateType.SELECTED))
            seen += visible_texts(preferences)
        xdotool("key", "--clearmodifiers", "Escape")
        wait_for("Preferences to close", lambda: len(run.frames()) == 1)
        run.keys("ctrl+question")
        shortcuts = wait_for("the shortcuts window", lambda: next((f for f in run.frames() if f.get_name() != "Agent"), None))
        wait_for("its shortcuts", lambda: _("Send the message") in visible_texts(shortcuts))
        seen += visible_texts(shortcuts)
        xdotool("key", "--clearmodifiers", "Escape")
        run.quit()
    finally:
        if run.process.poll() is None:
            run.process.kill()
    left = escaped(seen, toolkit_strings())
    if left:
        fail("strings that escaped gettext: " + "; ".join(repr(t) for t in left))
    print(f"pseudo-locale: {len(set(seen))} texts read, none escaped gettext")


def width_and_layout(binary, language, **environment):
    """The window's width, made narrow before the local model has started and read once its
    empty chat has filled in (a label wider than the window would have widened it), and
    whether the Send button is left of the message field."""
    run = Run(binary, **environment)
    try:
        names = gettext.translation(DOMAIN, environment.get("AGENT_LOCALE_DIR", os.path.join(ROOT, ".build", "locale")),
                                    [language], fallback=True).gettext
        entry = wait_for(f"the message field in {language}", lambda: named(run.frame, names("Message"), TEXTS))
        send = wait_for(f"the Send button in {language}", lambda: named(run.frame, names("Send"), BUTTONS))
        run.make_narrow()
        # The empty chat's example prompts, the widest of its parts, shown once the model is ready.
        wait_for(f"the example prompts in {language}",
                 lambda: named(run.frame, names("Suggest three names for a black cat"), BUTTONS), timeout=60)
        width = run.width()
        entry_x = Atspi.Component.get_extents(entry, Atspi.CoordType.WINDOW).x
        send_x = Atspi.Component.get_extents(send, Atspi.CoordType.WINDOW).x
        run.quit()
        return width, send_x < entry_x
    finally:
        if run.process.poll() is None:
            run.process.kill()


def main():
    binary = sys.argv[1]
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(SERVERS, "openai_test_server.py")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(server.stdout.readline().split()[1])
        pseudo_run(binary, port)

        english, english_rtl = width_and_layout(binary, "en", LANG="C.UTF-8", LANGUAGE="")
        if english_rtl:
            fail("in English the Send button is left of the message field")
        if english != 360:
            fail(f"in English the window did not stay 360 pixels wide: {english}")
        for name, language, lang in (("German", "de", "de_DE.UTF-8"), ("Spanish", "es", "es_ES.UTF-8"),
                                     ("French", "fr", "fr_FR.UTF-8")):
            width, _ = width_and_layout(binary, language, LANG=lang, LANGUAGE=language)
            send = gettext.translation(DOMAIN, os.path.join(ROOT, ".build", "locale"), [language]).gettext("Send")
            if send == "Send":
                fail(f"the {name} catalog does not translate “Send”")
            if width != english:
                fail(f"in {name} the window is {width} pixels wide where in English it is {english}")
            print(f"{name}: the controls in {name}; the window stays {width} px wide (English: {english} px)")

        directory = tempfile.mkdtemp(prefix="agent-rtl-")
        pseudo_locale.catalog("ar", "arabic", directory)
        arabic, rtl = width_and_layout(binary, "ar", LANG="ar_EG.UTF-8", LANGUAGE="ar", AGENT_LOCALE_DIR=directory)
        if not rtl:
            fail("in Arabic the Send button is not left of the message field: the layout did not turn right to left")
        if arabic != english:
            fail(f"in Arabic the window is {arabic} pixels wide where in English it is {english}")
        print(f"Arabic: laid out right to left; the window stays {arabic} px wide")
        print("PASS: no string escaped gettext; German, Spanish, French and right-to-left layouts hold")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
