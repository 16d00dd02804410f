#!/usr/bin/python3
"""Listens to an app's accessibility tree as a screen reader does, for a status announcement.

    atspi_status_watch.py PID PREFIX READY_FILE [TIMEOUT]

Registers for AT-SPI's name-change and text-change events and reads the app's whole tree, as a
screen reader exploring the window does (GTK 4.8 sends an object's events only once a client has
fetched it), then creates READY_FILE. Once an
object of the app with the status bar role has a name starting with PREFIX in the tree, it
prints one JSON line — that object's role and name, and the events received from status bars —
once an event naming it has arrived too, and exits 0; after TIMEOUT seconds (default 60) it prints what it saw and exits 1.
"""
import json
import os
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "EndToEnd"))
import app_atspi_test  # noqa: E402

pid, prefix, ready_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 60
events = []


def on_event(event):
    try:
        source = event.source
        if source.get_process_id() != pid or source.get_role() != Atspi.Role.STATUS_BAR:
            return
        events.append({"type": event.type, "name": source.get_name(), "data": str(event.any_data)})
    except GLib.Error:
        pass


def find_app():
    return app_atspi_test.find_app(pid)


def status_bars(node):
    stack = [node]
    while stack:
        current = stack.pop()
        try:
            if current.get_role() == Atspi.Role.STATUS_BAR:
                yield current
            for i in range(current.get_child_count()):
                child = current.get_child_at_index(i)
                if child is not None:
                    stack.append(child)
        except GLib.Error:
            continue


listener = Atspi.EventListener.new(on_event)
for kind in ("object:property-change:accessible-name", "object:text-changed"):
    listener.register(kind)
explored = find_app()
if explored is not None:
    list(status_bars(explored))
open(ready_file, "w").close()
loop = GLib.MainLoop()
result = {"found": None, "events": events}


def look():
    """Ends once the status bar holds the announcement and its event has arrived (or at the
    timeout, with what was seen)."""
    app = find_app()
    if app is not None and result["found"] is None:
        for bar in status_bars(app):
            name = bar.get_name() or ""
            if name.startswith(prefix):
                result["found"] = {"role": bar.get_role_name(), "name": name}
    if result["found"] is not None and any((event["name"] or "").startswith(prefix) for event in events):
        loop.quit()
        return False
    return True


GLib.timeout_add(100, look)
GLib.timeout_add(int(timeout * 1000), loop.quit)
loop.run()
print(json.dumps(result, ensure_ascii=False))
sys.exit(0 if result["found"] else 1)
