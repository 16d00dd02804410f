#!/usr/bin/env python3
"""Asks Agent's GNOME Shell search provider for WORDS over the session bus, as the Shell's
overview does (GetInitialResultSet, then GetResultMetas), and draws the answer the way the
overview lists a provider's results: the app's icon and name, then each result's name over
its description. For the README's picture of the search provider (docs_screenshots.py);
prints the metas as it got them on its first line of stdout.

    /usr/bin/python3 Tests/EndToEnd/search_results_view.py WORDS
"""
import json
import os
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

BUS_NAME = "io.github.agentdesktop.Agent"
OBJECT_PATH = "/io/github/agentdesktop/Agent/SearchProvider"
INTERFACE = "org.gnome.Shell.SearchProvider2"
CSS = b"""
window { background: #1d1d20; }
.provider-name { color: #ffffff; font-weight: bold; }
.result { background: alpha(#ffffff, 0.06); border-radius: 12px; padding: 10px 14px; }
.result-name { color: #ffffff; font-weight: bold; }
.result-description { color: alpha(#ffffff, 0.7); }
.query, image { color: alpha(#ffffff, 0.85); }
.query { font-size: 15pt; }
"""


def metas(words):
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    ids = bus.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, "GetInitialResultSet", GLib.Variant("(as)", (words.split(),)),
                        GLib.VariantType("(as)"), Gio.DBusCallFlags.NONE, 10000, None).unpack()[0]
    return bus.call_sync(BUS_NAME, OBJECT_PATH, INTERFACE, "GetResultMetas", GLib.Variant("(as)", (ids,)),
                         GLib.VariantType("(aa{sv})"), Gio.DBusCallFlags.NONE, 10000, None).unpack()[0]


def label(text, css_class, **properties):
    widget = Gtk.Label(label=text, **{"xalign": 0, **properties})
    widget.add_css_class(css_class)
    return widget


def activate(app, words, results):
    provider = Gtk.CssProvider()
    provider.load_from_data(CSS)
    display = Gtk.Widget.get_display(Gtk.Label())
    Gtk.StyleContext.add_provider_for_display(display, provider, Gtk.STYLE_PROVIDER_PRIORITY_USER)
    # The app's icon as the build tree has it (make icons), as an installed one would be.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    Gtk.IconTheme.get_for_display(display).add_search_path(os.path.join(root, ".build", "share", "icons"))
    window = Gtk.ApplicationWindow(application=app, title="Agent search results", default_width=760, default_height=360)
    page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=24, margin_top=28, margin_bottom=28, margin_start=28,
                   margin_end=28)
    query = Gtk.Box(spacing=10, halign=Gtk.Align.CENTER)
    query.append(Gtk.Image(icon_name="edit-find-symbolic", pixel_size=20))
    query.append(label(words, "query"))
    page.append(query)
    row = Gtk.Box(spacing=24)
    app_column = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, valign=Gtk.Align.START)
    app_column.append(Gtk.Image(icon_name=BUS_NAME, pixel_size=64))
    app_column.append(label("Agent", "provider-name", xalign=0.5))
    row.append(app_column)
    column = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, hexpand=True)
    for meta in results:
        result = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=2)
        result.add_css_class("result")
        result.append(label(meta["name"], "result-name"))
        if meta.get("description"):
            result.append(label(meta["description"], "result-description", ellipsize=3))
        column.append(result)
    row.append(column)
    page.append(row)
    window.set_child(page)
    window.present()


def main():
    words = sys.argv[1]
    results = metas(words)
    print(json.dumps([{"id": m["id"], "name": m["name"], "description": m.get("description", "")} for m in results],
                     ensure_ascii=False), flush=True)
    app = Gtk.Application(application_id="io.github.agentdesktop.AgentSearchView", flags=Gio.ApplicationFlags.NON_UNIQUE)
    app.connect("activate", activate, words, results)
    app.run([])


if __name__ == "__main__":
    main()
