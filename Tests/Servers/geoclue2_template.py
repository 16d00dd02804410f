"""A python-dbusmock template for GeoClue2, after its D-Bus interface documentation:
Manager.GetClient → a Client object (DesktopId, RequestedAccuracyLevel, DistanceThreshold,
Location, Active; Start/Stop); Start emits LocationUpdated(old, new) with a Location object
carrying Latitude, Longitude, Accuracy. Parameters: latitude, longitude, accuracy."""
import dbus

BUS_NAME = "org.freedesktop.GeoClue2"
MAIN_OBJ = "/org/freedesktop/GeoClue2/Manager"
MAIN_IFACE = "org.freedesktop.GeoClue2.Manager"
SYSTEM_BUS = True

CLIENT_PATH = "/org/freedesktop/GeoClue2/Client/1"
CLIENT_IFACE = "org.freedesktop.GeoClue2.Client"
LOCATION_PATH = "/org/freedesktop/GeoClue2/Location/1"
LOCATION_IFACE = "org.freedesktop.GeoClue2.Location"


def load(mock, parameters):
    mock.AddProperties(MAIN_IFACE, {"InUse": False, "AvailableAccuracyLevel": dbus.UInt32(8)})
    mock.AddMethod(MAIN_IFACE, "GetClient", "", "o", f'ret = dbus.ObjectPath("{CLIENT_PATH}")')
    mock.AddMethod(MAIN_IFACE, "CreateClient", "", "o", f'ret = dbus.ObjectPath("{CLIENT_PATH}")')
    mock.AddMethod(MAIN_IFACE, "DeleteClient", "o", "", "")
    mock.AddObject(LOCATION_PATH, LOCATION_IFACE, {
        "Latitude": dbus.Double(parameters.get("latitude", 52.52)),
        "Longitude": dbus.Double(parameters.get("longitude", 13.405)),
        "Accuracy": dbus.Double(parameters.get("accuracy", 25.0)),
        "Altitude": dbus.Double(-1.7976931348623157e308),
        "Speed": dbus.Double(-1.0),
        "Heading": dbus.Double(-1.0),
        "Description": "",
    }, [])
    start = (
        f'self.Set("{CLIENT_IFACE}", "Location", dbus.ObjectPath("{LOCATION_PATH}"))\n'
        f'self.Set("{CLIENT_IFACE}", "Active", True)\n'
        f'self.EmitSignal("{CLIENT_IFACE}", "LocationUpdated", "oo", '
        f'[dbus.ObjectPath("/"), dbus.ObjectPath("{LOCATION_PATH}")])'
    )
    mock.AddObject(CLIENT_PATH, CLIENT_IFACE, {
        "Location": dbus.ObjectPath("/"),
        "DistanceThreshold": dbus.UInt32(0),
        "TimeThreshold": dbus.UInt32(0),
        "DesktopId": "",
        "RequestedAccuracyLevel": dbus.UInt32(0),
        "Active": False,
    }, [
        ("Start", "", "", start),
        ("Stop", "", "", f'self.Set("{CLIENT_IFACE}", "Active", False)'),
    ])
