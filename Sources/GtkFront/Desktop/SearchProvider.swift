import AgentCore
import CGtk
import FoundationEssentials

/// GNOME Shell's search provider (`org.gnome.Shell.SearchProvider2`, on the application's
/// own bus connection beside its object path): the overview's results come from
/// `ShellSearch`; activating one opens Agent on that chat at that message, and "search in
/// Agent" opens the app's own search with the terms.
@MainActor
final class SearchProvider {
    static let interface = "org.gnome.Shell.SearchProvider2"
    private static let introspection = """
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet"><arg type="as" name="terms" direction="in"/><arg type="as" name="results" direction="out"/></method>
            <method name="GetSubsearchResultSet"><arg type="as" name="previous_results" direction="in"/><arg type="as" name="terms" direction="in"/><arg type="as" name="results" direction="out"/></method>
            <method name="GetResultMetas"><arg type="as" name="identifiers" direction="in"/><arg type="aa{sv}" name="metas" direction="out"/></method>
            <method name="ActivateResult"><arg type="s" name="identifier" direction="in"/><arg type="as" name="terms" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
            <method name="LaunchSearch"><arg type="as" name="terms" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
          </interface>
        </node>
        """

    private let search: ShellSearch
    /// Opens a result (a chat, and the message in it) in the window.
    var open: @MainActor (UUID, UUID?) -> Void = { _, _ in }
    /// Opens the window's own search with the overview's terms.
    var searchInApp: @MainActor (String) -> Void = { _ in }
    /// Told of every call (an Agent started by D-Bus stays up for a while after the last).
    var onCall: @MainActor () -> Void = {}

    init(search: ShellSearch) {
        self.search = search
    }

    /// The provider's object path under the application's (the `.ini` file names the app's).
    static func objectPath(under applicationPath: String) -> String { applicationPath + "/SearchProvider" }

    /// Exports the provider on `connection`, under the application's `objectPath`; false
    /// when the bus refused it.
    @discardableResult
    func export(on connection: OpaquePointer, under objectPath: String) -> Bool {
        let path = Self.objectPath(under: objectPath)
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error), let info = node.pointee.interfaces?[0] else {
            g_clear_error(&error)
            return false
        }
        defer { g_dbus_node_info_unref(node) }
        let vtable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
            guard let method, let parameters, let invocation, let data else { return }
            let provider = Unmanaged<SearchProvider>.fromOpaque(data).takeUnretainedValue()
            let name = String(cString: method)
            MainActor.assumeIsolated { provider.call(name, parameters, invocation) }
        }
        let registration = g_dbus_connection_register_object(connection, path, info, vtable, Unmanaged.passRetained(self).toOpaque(),
                                                             { data in
            guard let data else { return }
            Unmanaged<SearchProvider>.fromOpaque(data).release()
        }, &error)
        // GLib keeps its own copy of the table.
        vtable.deallocate()
        guard registration != 0 else {
            g_clear_error(&error)
            return false
        }
        return true
    }

    private func call(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        onCall()
        switch method {
        case "GetInitialResultSet":
            reply(invocation, Self.strings(search.results(for: Self.strings(in: parameters, at: 0))))
        case "GetSubsearchResultSet":
            reply(invocation, Self.strings(search.results(for: Self.strings(in: parameters, at: 1), fresh: false)))
        case "GetResultMetas":
            reply(invocation, metas(search.metas(for: Self.strings(in: parameters, at: 0))))
        case "ActivateResult":
            let child = g_variant_get_child_value(parameters, 0)
            let id = String(cString: g_variant_get_string(child, nil))
            g_variant_unref(child)
            if let location = ShellSearch.location(of: id) { open(location.chat, location.message) }
            reply(invocation, nil)
        case "LaunchSearch":
            searchInApp(Self.strings(in: parameters, at: 0).joined(separator: " "))
            reply(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(method)")
        }
    }

    /// Returns `value` (or nothing) as the method's only out-argument.
    private func reply(_ invocation: OpaquePointer, _ value: OpaquePointer?) {
        guard let value else {
            g_dbus_method_invocation_return_value(invocation, nil)
            return
        }
        var children: [OpaquePointer?] = [value]
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&children, 1))
    }

    /// The string array at `index` of a method's parameters.
    private static func strings(in parameters: OpaquePointer, at index: Int) -> [String] {
        let child = g_variant_get_child_value(parameters, gsize(index))
        defer { g_variant_unref(child) }
        return (0..<g_variant_n_children(child)).map { item in
            let value = g_variant_get_child_value(child, item)
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
    }

    private static func strings(_ values: [String]) -> OpaquePointer {
        CStringArray.with(values) { g_variant_new_strv($0, -1) }
    }

    /// `aa{sv}`: each result's id, name and description.
    private func metas(_ metas: [ShellSearch.Meta]) -> OpaquePointer {
        let type = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(type) }
        var entries = metas.map { meta -> OpaquePointer? in
            let pairs: [(String, String)] = [("id", meta.id), ("name", meta.name), ("description", meta.description)]
            var fields = pairs.map { pair -> OpaquePointer? in
                g_variant_new_dict_entry(g_variant_new_string(pair.0), g_variant_new_variant(g_variant_new_string(pair.1)))
            }
            let entryType = g_variant_type_new("{sv}")
            defer { g_variant_type_free(entryType) }
            return g_variant_new_array(entryType, &fields, gsize(fields.count))
        }
        return g_variant_new_array(type, &entries, gsize(entries.count))
    }
}
