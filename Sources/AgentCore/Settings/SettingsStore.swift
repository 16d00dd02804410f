import CGLib
import FoundationEssentials
import Synchronization

/// The user's settings, in GSettings (the schema is `data/io.github.agentdesktop.Agent.gschema.xml`):
/// dconf on a desktop, where a write is queued and never waits for the disk, so
/// `gsettings list-recursively io.github.agentdesktop.Agent` shows them. Server profiles
/// are relocatable children at `profiles/ID/`. Never holds secrets.
///
/// A store in delay mode (`delayedCopy`) collects changes until `apply`: Preferences edits
/// one, so typing in a field writes nothing until the window closes.
public final class SettingsStore: Sendable {
    public static let schemaID = AppIdentity.applicationID
    public static let profileSchemaID = AppIdentity.applicationID + ".Profile"
    static let basePath = "/io/github/agentdesktop/Agent/"

    /// The compiled schema is nowhere GLib or Agent looks.
    public struct SchemaMissing: Error, CustomStringConvertible {
        public var description: String {
            "Agent's settings schema (\(SettingsStore.schemaID)) is not installed. Install Agent with “make install”, "
                + "or from its source folder run “make schemas” (scripts/run does), or point GSETTINGS_SCHEMA_DIR at it."
        }
    }

    private let schemas: SchemaPair
    private let backend: GObjectHandle?
    /// The schema's root object; GtkFront binds rows to it.
    public let root: GSettingsObject
    private let profileObjects = Mutex<[String: GSettingsObject]>([:])
    private let isDelayed: Bool

    /// The user's own settings, through GLib's default backend (dconf).
    public convenience init() throws {
        try self.init(backend: nil)
    }

    /// Settings kept in a key file of their own (tests, benchmarks): nothing else reads or
    /// writes them.
    public convenience init(keyFile: URL) throws {
        try FileManager.default.createDirectory(at: keyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let backend = g_keyfile_settings_backend_new(keyFile.path, Self.basePath, "Agent")
        try self.init(backend: backend.map { GObjectHandle(UnsafeMutableRawPointer($0)) })
    }

    private convenience init(backend: GObjectHandle?) throws {
        guard let schemas = SchemaPair.find() else { throw SchemaMissing() }
        self.init(schemas: schemas, backend: backend, delayed: false)
    }

    private init(schemas: SchemaPair, backend: GObjectHandle?, delayed: Bool) {
        self.schemas = schemas
        self.backend = backend
        isDelayed = delayed
        root = GSettingsObject(schema: schemas.main, backend: backend, path: Self.basePath, delayed: delayed)
    }

    /// A store over the same settings that keeps changes to itself until `apply()`.
    public func delayedCopy() -> SettingsStore {
        SettingsStore(schemas: schemas, backend: backend, delayed: true)
    }

    /// Writes what a delayed store collected (one write for all of it).
    public func apply() {
        root.apply()
        for object in profileObjects.withLock({ Array($0.values) }) { object.apply() }
    }

    /// Whether a delayed store holds changes not yet applied.
    public var hasUnapplied: Bool {
        root.hasUnapplied || profileObjects.withLock { $0.values.contains { $0.hasUnapplied } }
    }

    /// Waits until the writes asked for so far have reached the backend (before quitting).
    public static func sync() {
        g_settings_sync()
    }

    /// The settings of server profile `id`.
    public func profileSettings(_ id: String) -> GSettingsObject {
        profileObjects.withLock { objects in
            if let existing = objects[id] { return existing }
            let made = GSettingsObject(schema: schemas.profile, backend: backend, path: "\(Self.basePath)profiles/\(id)/",
                                       delayed: isDelayed)
            objects[id] = made
            return made
        }
    }
}

/// One GSettings object: typed reads and writes under a lock (tools read settings from
/// their own threads), and the object itself for `g_settings_bind`.
public final class GSettingsObject: Sendable {
    private let handle: Mutex<GObjectHandle>
    private let object: GObjectHandle

    fileprivate init(schema: GObjectHandle, backend: GObjectHandle?, path: String, delayed: Bool) {
        let settings = g_settings_new_full(OpaquePointer(schema.pointer), backend?.pointer.assumingMemoryBound(to: GSettingsBackend.self), path)
        if delayed { g_settings_delay(settings) }
        object = GObjectHandle(UnsafeMutableRawPointer(settings!))
        handle = Mutex(object)
    }

    /// The `GSettings *`, for binding widgets to keys.
    public var raw: UnsafeMutableRawPointer { object.pointer }

    deinit {
        handle.withLock { g_object_unref($0.pointer) }
    }

    private func with<T>(_ body: (UnsafeMutablePointer<GSettings>) -> T) -> T {
        handle.withLock { body($0.pointer.assumingMemoryBound(to: GSettings.self)) }
    }

    public func bool(_ key: String) -> Bool { with { g_settings_get_boolean($0, key) != 0 } }
    public func int(_ key: String) -> Int { with { Int(g_settings_get_int($0, key)) } }
    public func double(_ key: String) -> Double { with { g_settings_get_double($0, key) } }

    public func string(_ key: String) -> String {
        with { settings in
            guard let value = g_settings_get_string(settings, key) else { return "" }
            defer { g_free(value) }
            return String(cString: value)
        }
    }

    public func strings(_ key: String) -> [String] {
        with { settings in
            guard let values = g_settings_get_strv(settings, key) else { return [] }
            defer { g_strfreev(values) }
            var result: [String] = []
            var index = 0
            while let value = values[index] {
                result.append(String(cString: value))
                index += 1
            }
            return result
        }
    }

    /// The writes below drop a value the schema does not allow (out of range, not among
    /// the choices): it can come from outside, such as an old settings file.
    public func set(_ key: String, _ value: Bool) { with { _ = g_settings_set_boolean($0, key, value ? 1 : 0) } }

    public func set(_ key: String, _ value: Int) {
        with { settings in
            guard let clamped = Int32(exactly: value), agent_settings_value_fits(settings, key, g_variant_new_int32(clamped)) != 0 else { return }
            _ = g_settings_set_int(settings, key, clamped)
        }
    }

    public func set(_ key: String, _ value: Double) {
        with { settings in
            guard value.isFinite, agent_settings_value_fits(settings, key, g_variant_new_double(value)) != 0 else { return }
            _ = g_settings_set_double(settings, key, value)
        }
    }

    public func set(_ key: String, _ value: String) {
        with { settings in
            guard agent_settings_value_fits(settings, key, g_variant_new_string(value)) != 0 else { return }
            _ = g_settings_set_string(settings, key, value)
        }
    }

    public func set(_ key: String, _ values: [String]) {
        with { settings in
            var pointers = values.map { strdup($0) }
            pointers.append(nil)
            defer { pointers.forEach { free($0) } }
            _ = pointers.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { g_settings_set_strv(settings, key, $0.baseAddress) }
            }
        }
    }

    /// Back to the schema's default.
    public func reset(_ key: String) { with { g_settings_reset($0, key) } }

    fileprivate func apply() { with { g_settings_apply($0) } }
    fileprivate var hasUnapplied: Bool { with { g_settings_get_has_unapplied($0) != 0 } }
}

/// A GObject pointer that may cross threads (GObject reference counting is thread-safe).
struct GObjectHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// Agent's two schemas, from the first place that has them compiled: GLib's own search path
/// (an installed app, or `GSETTINGS_SCHEMA_DIR`), then beside the executable — the build
/// tree's `.build/schemas` (`make schemas`) or `<prefix>/share/glib-2.0/schemas`.
private struct SchemaPair: Sendable {
    let main: GObjectHandle
    let profile: GObjectHandle

    static func find() -> SchemaPair? {
        if let found = lookUp(in: g_settings_schema_source_get_default()) { return found }
        // .build/debug/agent is .build/<triple>/debug/agent: the build tree's schemas are two
        // levels up from the executable's folder; an installed one's share/ is one level up.
        let folder = URL(filePath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [folder.deletingLastPathComponent().appending(path: "share/glib-2.0/schemas"),
                          folder.deletingLastPathComponent().deletingLastPathComponent().appending(path: "schemas")]
        for directory in candidates where FileManager.default.fileExists(atPath: directory.appending(path: "gschemas.compiled").path) {
            guard let source = g_settings_schema_source_new_from_directory(directory.path, g_settings_schema_source_get_default(), 0, nil) else { continue }
            defer { g_settings_schema_source_unref(source) }
            if let found = lookUp(in: source) { return found }
        }
        return nil
    }

    private static func lookUp(in source: OpaquePointer?) -> SchemaPair? {
        guard let source, let main = g_settings_schema_source_lookup(source, SettingsStore.schemaID, 1) else { return nil }
        guard let profile = g_settings_schema_source_lookup(source, SettingsStore.profileSchemaID, 1) else {
            g_settings_schema_unref(main)
            return nil
        }
        return SchemaPair(main: GObjectHandle(UnsafeMutableRawPointer(main)), profile: GObjectHandle(UnsafeMutableRawPointer(profile)))
    }
}

extension SettingsStore {
    /// A random identifier for this installation, made on first use (the harness's appID).
    public var installationID: String {
        let existing = root.string("installation-id")
        if !existing.isEmpty { return existing }
        let made = UUID().uuidString.lowercased()
        root.set("installation-id", made)
        Self.sync()
        return made
    }
}
