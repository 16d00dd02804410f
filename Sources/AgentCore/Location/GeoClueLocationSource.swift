import CGLib
import FoundationEssentials

/// The device's location from GeoClue2 over D-Bus (GDBus): get a client from the manager,
/// set its desktop id and accuracy, listen for `LocationUpdated`, start it, read the new
/// location object's latitude and longitude, stop. GeoClue lives on the system bus; a
/// test gives the address of its own bus instead.
public struct GeoClueLocationSource: LocationSource {
    public var busAddress: String?
    public var desktopID: String
    public var timeout: Duration

    public init(busAddress: String? = nil, desktopID: String = AppIdentity.applicationID, timeout: Duration = .seconds(20)) {
        self.busAddress = busAddress
        self.desktopID = desktopID
        self.timeout = timeout
    }

    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public func currentLocation() async throws -> Coordinates {
        // GDBus calls block and signals need a main context of their own: one thread per ask.
        try await withCheckedThrowingContinuation { continuation in
            DetachedThread.start { continuation.resume(with: Result { try locate() }) }
        }
    }

    private static let service = "org.freedesktop.GeoClue2"
    private static let clientInterface = "org.freedesktop.GeoClue2.Client"

    private func locate() throws -> Coordinates {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let connection = try connect()
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let timeoutMilliseconds = Int32(timeout.milliseconds)

        let clientReply = try call(connection, "/org/freedesktop/GeoClue2/Manager", "org.freedesktop.GeoClue2.Manager",
                                   "GetClient", nil, replyType: "(o)", timeoutMilliseconds)
        let clientPath = Self.firstString(of: clientReply)
        g_variant_unref(clientReply)

        try setProperty(connection, clientPath, "DesktopId", g_variant_new_string(desktopID), timeoutMilliseconds)
        try setProperty(connection, clientPath, "RequestedAccuracyLevel", g_variant_new_uint32(8), timeoutMilliseconds)

        let loop = g_main_loop_new(context, 0)
        defer { g_main_loop_unref(loop) }
        let state = LocationUpdate(loop: loop)
        let subscription = g_dbus_connection_signal_subscribe(
            connection, Self.service, Self.clientInterface, "LocationUpdated", clientPath, nil,
            G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                guard let data, let parameters else { return }
                let update = Unmanaged<LocationUpdate>.fromOpaque(data).takeUnretainedValue()
                let newLocation = g_variant_get_child_value(parameters, 1)
                update.path = String(cString: g_variant_get_string(newLocation, nil))
                g_variant_unref(newLocation)
                g_main_loop_quit(update.loop)
            }, Unmanaged.passUnretained(state).toOpaque(), nil)
        defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }

        let started = try call(connection, clientPath, Self.clientInterface, "Start", nil, replyType: nil, timeoutMilliseconds)
        g_variant_unref(started)
        defer {
            if let stopped = try? call(connection, clientPath, Self.clientInterface, "Stop", nil, replyType: nil, timeoutMilliseconds) {
                g_variant_unref(stopped)
            }
        }
        if state.path == nil {
            let timer = g_timeout_source_new(guint(timeoutMilliseconds))
            g_source_set_callback(timer, { data in
                guard let data else { return 0 }
                g_main_loop_quit(OpaquePointer(data))
                return 0
            }, UnsafeMutableRawPointer(loop), nil)
            g_source_attach(timer, context)
            g_main_loop_run(loop)
            g_source_destroy(timer)
            g_source_unref(timer)
        }
        guard let locationPath = state.path, locationPath != "/" else {
            throw Unavailable(description: "GeoClue gave no location within \(timeout.milliseconds / 1000) s")
        }
        return try readLocation(connection, locationPath, timeoutMilliseconds)
    }

    private final class LocationUpdate {
        let loop: OpaquePointer?
        var path: String?
        init(loop: OpaquePointer?) { self.loop = loop }
    }

    private func connect() throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let connection: OpaquePointer?
        if let busAddress {
            let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                             | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            connection = g_dbus_connection_new_for_address_sync(busAddress, flags, nil, nil, &error)
        } else {
            connection = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, &error)
        }
        guard let connection else { throw Self.failure(error, "cannot reach the system bus") }
        return connection
    }

    private func call(_ connection: OpaquePointer, _ path: String, _ interface: String, _ method: String,
                      _ parameters: OpaquePointer?, replyType: String?, _ timeoutMilliseconds: Int32) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let type = replyType.map { g_variant_type_new($0) }
        defer { if let type { g_variant_type_free(type) } }
        guard let reply = g_dbus_connection_call_sync(connection, Self.service, path, interface, method, parameters,
                                                      type ?? nil, G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error) else {
            throw Self.failure(error, "GeoClue \(method) failed")
        }
        return reply
    }

    private func setProperty(_ connection: OpaquePointer, _ path: String, _ name: String, _ value: OpaquePointer?,
                             _ timeoutMilliseconds: Int32) throws {
        let parameters = agent_variant_tuple3(g_variant_new_string(Self.clientInterface), g_variant_new_string(name),
                                              g_variant_new_variant(value))
        let reply = try call(connection, path, "org.freedesktop.DBus.Properties", "Set", parameters, replyType: nil, timeoutMilliseconds)
        g_variant_unref(reply)
    }

    private func readLocation(_ connection: OpaquePointer, _ path: String, _ timeoutMilliseconds: Int32) throws -> Coordinates {
        let all = try call(connection, path, "org.freedesktop.DBus.Properties", "GetAll",
                           agent_variant_tuple1(g_variant_new_string("org.freedesktop.GeoClue2.Location")),
                           replyType: "(a{sv})", timeoutMilliseconds)
        defer { g_variant_unref(all) }
        let dictionary = g_variant_get_child_value(all, 0)
        defer { g_variant_unref(dictionary) }
        let double = g_variant_type_new("d")
        defer { g_variant_type_free(double) }
        func number(_ key: String) -> Double? {
            guard let value = g_variant_lookup_value(dictionary, key, double) else { return nil }
            defer { g_variant_unref(value) }
            return g_variant_get_double(value)
        }
        guard let latitude = number("Latitude"), let longitude = number("Longitude") else {
            throw Unavailable(description: "GeoClue's location has no latitude or longitude")
        }
        return Coordinates(latitude: latitude, longitude: longitude, accuracy: number("Accuracy"))
    }

    private static func firstString(of tuple: OpaquePointer) -> String {
        let child = g_variant_get_child_value(tuple, 0)
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?, _ fallback: String) -> Unavailable {
        defer { if let error { g_error_free(error) } }
        let message = error.map { String(cString: $0.pointee.message) } ?? fallback
        return Unavailable(description: message)
    }
}
