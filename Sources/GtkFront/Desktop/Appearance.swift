import CGtk

/// Follows the desktop's light or dark preference — the freedesktop `color-scheme`
/// setting, read through the settings portal and watched for changes — by switching
/// GTK's dark theme variant. Without a portal GTK's own theme settings stay in charge.
@MainActor
final class Appearance {
    /// The desktop's answer: 0 no preference, 1 prefer dark, 2 prefer light.
    private(set) var colorScheme: UInt32?
    private let connection: OpaquePointer
    private var subscription: guint = 0

    private static let portal = "org.freedesktop.portal.Desktop"
    private static let path = "/org/freedesktop/portal/desktop"
    private static let interface = "org.freedesktop.portal.Settings"
    private static let namespace = "org.freedesktop.appearance"
    private static let key = "color-scheme"

    /// Starts following on `connection` (the session bus); the first answer arrives
    /// asynchronously, so start-up does not wait for the portal.
    init(connection: OpaquePointer) {
        self.connection = connection
        g_object_ref(UnsafeMutableRawPointer(connection))
        let context = Unmanaged.passUnretained(self).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection, Self.portal, Self.interface, "SettingChanged", Self.path, Self.namespace, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let data, let parameters else { return }
                let appearance = Unmanaged<Appearance>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { appearance.settingChanged(parameters) }
            }, context, nil)
        var names = [g_variant_new_string(Self.namespace), g_variant_new_string(Self.key)]
        let read = g_variant_new_tuple(&names, 2)
        let retained = Unmanaged.passRetained(self).toOpaque()
        g_dbus_connection_call(connection, Self.portal, Self.path, Self.interface, "Read", read, nil,
                               G_DBUS_CALL_FLAGS_NONE, 2000, nil, { source, result, data in
            guard let data else { return }
            let appearance = Unmanaged<Appearance>.fromOpaque(data).takeRetainedValue()
            guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) else { return }
            defer { g_variant_unref(reply) }
            MainActor.assumeIsolated { appearance.apply(Appearance.unsignedValue(in: reply)) }
        }, retained)
    }

    isolated deinit {
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    private func settingChanged(_ parameters: OpaquePointer) {
        guard g_variant_n_children(parameters) == 3 else { return }
        let key = g_variant_get_child_value(parameters, 1)
        defer { g_variant_unref(key) }
        guard String(cString: g_variant_get_string(key, nil)) == Self.key else { return }
        guard let value = g_variant_get_child_value(parameters, 2) else { return }
        defer { g_variant_unref(value) }
        apply(Self.unsignedValue(in: value))
    }

    private func apply(_ scheme: UInt32?) {
        guard let scheme else { return }
        colorScheme = scheme
        agent_set_prefer_dark(scheme == 1 ? 1 : 0)
    }

    /// The uint32 inside a reply, however deeply wrapped in tuples and variants
    /// (`Read` wraps it twice, `ReadOne` and `SettingChanged` once).
    private static func unsignedValue(in value: OpaquePointer) -> UInt32? {
        guard var current = g_variant_ref(value) else { return nil }
        defer { g_variant_unref(current) }
        for _ in 0..<4 {
            if String(cString: g_variant_get_type_string(current)) == "u" { return g_variant_get_uint32(current) }
            guard g_variant_is_container(current) != 0, g_variant_n_children(current) == 1,
                  let child = g_variant_get_child_value(current, 0) else { return nil }
            g_variant_unref(current)
            current = child
        }
        return nil
    }
}
