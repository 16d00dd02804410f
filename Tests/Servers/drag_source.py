#!/usr/bin/python3
"""Another app to drag files from, as a file manager offers them: a GTK 4 window whose
label is a drag source of the files named on the command line (GdkFileList, which GTK
sends over XDND as text/uri-list). Its title is its first argument, for xdotool to find;
it prints READY once on screen and runs until it is terminated."""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GLib, GObject, Gtk  # noqa: E402


def main():
    title, paths = sys.argv[1], sys.argv[2:]
    Gtk.init()
    window = Gtk.Window(title=title)
    window.set_default_size(220, 120)
    label = Gtk.Label(label="Drag these files")
    window.set_child(label)
    files = [Gio.File.new_for_path(path) for path in paths]
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)

    def prepare(_source, _x, _y):
        value = GObject.Value(Gdk.FileList, Gdk.FileList.new_from_array(files))
        return Gdk.ContentProvider.new_for_value(value)

    source.connect("prepare", prepare)
    label.add_controller(source)
    loop = GLib.MainLoop()
    window.connect("map", lambda *_: (print("READY", flush=True), False)[1])
    window.present()
    loop.run()


if __name__ == "__main__":
    main()
