"""A python-dbusmock template for the settings portal (xdg-desktop-portal's
org.freedesktop.portal.Settings, version 2), serving the freedesktop appearance
setting as its documentation describes: org.freedesktop.appearance color-scheme, a
uint32 (0 no preference, 1 prefer dark, 2 prefer light). Read wraps the value in two
variants, ReadOne in one; SettingChanged(namespace, key, value) announces a change.
Parameters: color-scheme. The mock interface's SetColorScheme(u) changes it as the
desktop would."""
import dbus

from dbusmock import MOCK_IFACE

BUS_NAME = "org.freedesktop.portal.Desktop"
MAIN_OBJ = "/org/freedesktop/portal/desktop"
MAIN_IFACE = "org.freedesktop.portal.Settings"
SYSTEM_BUS = False

NAMESPACE = "org.freedesktop.appearance"
KEY = "color-scheme"


def load(mock, parameters):
    mock.color_scheme = int(parameters.get("color-scheme", 0))
    mock.AddProperties(MAIN_IFACE, {"version": dbus.UInt32(2)})
    mock.AddMethods(MAIN_IFACE, [
        ("Read", "ss", "v",
         f'if args[0] != "{NAMESPACE}" or args[1] != "{KEY}":\n'
         '    raise dbus.exceptions.DBusException("Requested setting not found", '
         'name="org.freedesktop.portal.Error.NotFound")\n'
         'ret = dbus.UInt32(self.color_scheme, variant_level=2)'),
        ("ReadOne", "ss", "v",
         f'if args[0] != "{NAMESPACE}" or args[1] != "{KEY}":\n'
         '    raise dbus.exceptions.DBusException("Requested setting not found", '
         'name="org.freedesktop.portal.Error.NotFound")\n'
         'ret = dbus.UInt32(self.color_scheme, variant_level=1)'),
        ("ReadAll", "as", "a{sa{sv}}",
         f'ret = {{"{NAMESPACE}": {{"{KEY}": dbus.UInt32(self.color_scheme, variant_level=1)}}}}'),
    ])


@dbus.service.method(MOCK_IFACE, in_signature="u", out_signature="")
def SetColorScheme(self, value):
    self.color_scheme = int(value)
    self.EmitSignal(MAIN_IFACE, "SettingChanged", "ssv", [NAMESPACE, KEY, dbus.UInt32(value, variant_level=1)])
