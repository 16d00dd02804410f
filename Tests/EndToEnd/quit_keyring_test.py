#!/usr/bin/env python3
"""End-to-end: an API key saved in Preferences just before Ctrl+Q reaches the keyring.

Run inside an X server and a D-Bus session with a keyring (scripts/test does):
    /usr/bin/python3 Tests/EndToEnd/quit_keyring_test.py .build/debug/agent
The real `agent` binary starts with a server profile. Through the X server, as a person:
Ctrl+, opens Preferences, a click opens the profile, the key is typed into its API Key row,
and Return (which saves it) and Ctrl+Q are pressed together — while the keyring is slow to
answer (its daemon stopped for a moment, as one waiting on an unlock prompt would be). The
window must go at once; the app must wait for the key to be written, then exit with status 0,
and the session's Secret Service must hold the key under Agent's schema.
"""
import os
import secrets
import signal
import subprocess
import sys
import time

import gi

gi.require_version("Secret", "1")
from gi.repository import Gio, GLib, Secret  # noqa: E402

import app_atspi_test as e2e  # noqa: E402
from app_atspi_test import Atspi, fail, named, wait_for  # noqa: E402
from docs_screenshots import SERVER_PROFILE, click, last_on_screen, launch, x_window  # noqa: E402

SCHEMA = Secret.Schema.new("io.github.agentdesktop.Agent.ApiKey", Secret.SchemaFlags.NONE,
                           {"profile": Secret.SchemaAttributeType.STRING})


def stored_keys():
    """Every key under Agent's schema in the session's keyring, by its item's label."""
    service = Secret.Service.get_sync(Secret.ServiceFlags.OPEN_SESSION | Secret.ServiceFlags.LOAD_COLLECTIONS)
    flags = Secret.SearchFlags.ALL | Secret.SearchFlags.UNLOCK | Secret.SearchFlags.LOAD_SECRETS
    return {item.get_label(): item.get_secret().get_text() for item in service.search_sync(SCHEMA, {}, flags)}


def keyring_daemon():
    """The process that owns the Secret Service's name on the session bus."""
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "GetConnectionUnixProcessID", GLib.Variant("(s)", ("org.freedesktop.secrets",)),
                          GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, -1)
    return reply.unpack()[0]


def main():
    binary = sys.argv[1]
    key = "sk-quit-" + secrets.token_hex(12)
    process, app, _ = launch(binary, SERVER_PROFILE)
    try:
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+comma"], check=True)
        preferences = wait_for("Preferences", lambda: named(app, "Preferences", [Atspi.Role.FRAME, Atspi.Role.WINDOW,
                                                                                Atspi.Role.DIALOG]))
        window = x_window("^Preferences$")
        # The server's name shows twice: chosen in "Chats Go To", and on its own row below.
        row = wait_for("the server's row", lambda: last_on_screen(preferences, "Workstation llama.cpp", [Atspi.Role.LABEL]))
        click(row, window)
        field = wait_for("the API Key field", lambda: last_on_screen(preferences, "API Key", [Atspi.Role.TEXT, Atspi.Role.PASSWORD_TEXT]))
        click(field, window)
        subprocess.run(["xdotool", "type", "--delay", "12", key], check=True)
        daemon = keyring_daemon()
        os.kill(daemon, signal.SIGSTOP)
        try:
            subprocess.run(["xdotool", "key", "--clearmodifiers", "--delay", "1", "Return", "ctrl+q"], check=True)
            e2e.APP = None
            wait_for("the windows to go", lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^(Agent|Preferences)$"],
                                                                   capture_output=True).returncode != 0, timeout=10)
            # Well inside the app's own 5 s limit for a keyring call.
            time.sleep(0.5)
            if process.poll() is not None:
                fail(f"the app ended (status {process.returncode}) before the keyring had answered")
        finally:
            os.kill(daemon, signal.SIGCONT)
        e2e.clean_exit(process)
        keys = stored_keys()
        if keys.get("Agent: API key for Workstation llama.cpp") != key:
            fail(f"the key saved just before Ctrl+Q is not in the keyring (found {sorted(keys)})")
        print("PASS: a key saved just before Ctrl+Q is in the keyring")
    finally:
        if process.poll() is None:
            process.kill()


if __name__ == "__main__":
    main()
