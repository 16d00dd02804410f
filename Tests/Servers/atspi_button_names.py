#!/usr/bin/python3
"""Prints, as a JSON list, the names a screen reader hears for the push buttons of an app.

    atspi_button_names.py PID

Reads the app's whole accessibility tree once, as a screen reader exploring its windows does.
"""
import json
import os
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import GLib  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "EndToEnd"))
import app_atspi_test  # noqa: E402

app = app_atspi_test.find_app(int(sys.argv[1]))
names = []
for node in app_atspi_test.descendants(app) if app else []:
    try:
        if node.get_role_name() == "push button":
            names.append(node.get_name())
    except GLib.Error:
        continue
print(json.dumps(names))
sys.exit(0 if app else 1)
