#!/usr/bin/python3
"""Runs an action of a desktop file as a dock's right-click menu does, through GIO.

    launch_desktop_action.py DESKTOP_FILE ACTION

Prints the action's name (what the menu shows) and exits 0 once GIO has launched the
action's command (found on PATH, as the desktop file names it), its output to /dev/null;
exits 1 when the file cannot be loaded or has no such action.
"""
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio  # noqa: E402

path, action = sys.argv[1], sys.argv[2]
info = Gio.DesktopAppInfo.new_from_filename(path)
if info is None:
    sys.exit(f"{path} cannot be loaded (is its program on PATH?)")
if action not in info.list_actions():
    sys.exit(f"{path} has no action {action!r}: {info.list_actions()}")
print(info.get_action_name(action), flush=True)
# The command's output goes elsewhere, as a dock's goes to its log: it must not hold this
# script's pipes open after the script has ended.
null = os.open(os.devnull, os.O_WRONLY)
os.dup2(null, 1)
os.dup2(null, 2)
info.launch_action(action, None)
