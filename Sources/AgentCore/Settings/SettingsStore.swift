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
            // TRANSLATORS: %s is the schema's id; “make install”, “make schemas” and GSETTINGS_SCHEMA_DIR are commands and a variable.
            tr("Agent's settings schema (%s) is not installed. Install Agent with “make install”, or from its source folder run “make schemas” (scripts/run does), or point GSETTINGS_SCHEMA_DIR at it.",
               SettingsStore.schemaID)
        }
    }

    private let schemas: Schemas
    private let backend: Backend?
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
        try self.init(backend: Backend(keyFile: keyFile))
    }

    private convenience init(backend: Backend?) throws {
        guard let schemas = Schemas.find() else { throw SchemaMissing() }
        try self.init(schemas: schemas, backend: backend, delayed: false)
    }

    private init(schemas: Schemas, backend: Backend?, delayed: Bool) throws {
        self.schemas = schemas
        self.backend = backend
        isDelayed = delayed
        root = try GSettingsObject(schema: schemas.main, backend: backend, path: Self.basePath, delayed: delayed)
    }

    /// A store over the same settings that keeps changes to itself until `apply()`.
    public func delayedCopy() throws -> SettingsStore {
        try SettingsStore(schemas: schemas, backend: backend, delayed: true)
    }

    /// Writes what a delayed store collected (one write for all of it).
    public func apply() {
        root.apply()
        for object in profileObjects.withLock({ Array($0.values) }) { object.apply() }
    }

    /// Waits until the writes asked for so far have reached the backend (before quitting).
    public static func sync() {
        g_settings_sync()
    }

    /// The settings of server profile `id`; nil for an id no settings path can hold (a "/").
    public func profileSettings(_ id: String) -> GSettingsObject? {
        guard !id.isEmpty, !id.contains("/") else { return nil }
        return profileObjects.withLock { objects in
            if let existing = objects[id] { return existing }
            let made = try? GSettingsObject(schema: schemas.profile, backend: backend, path: "\(Self.basePath)profiles/\(id)/",
                                            delayed: isDelayed)
            objects[id] = made
            return made
        }
    }
}

/// One GSettings object: typed reads and writes, and the object itself for
/// `g_settings_bind`. Used on the main thread — the window's rows, the tools' reads and
/// writes (`LocationTool` hops there) — as GLib's key-file backend takes no lock.
public final class GSettingsObject: @unchecked Sendable {
    /// The `GSettings *`, for binding widgets to keys.
    public let raw: UnsafeMutableRawPointer
    private var settings: UnsafeMutablePointer<GSettings> { raw.assumingMemoryBound(to: GSettings.self) }

    /// A failure GSettings has no other way to report.
    struct NotMade: Error {}

    fileprivate init(schema: Schemas.Schema, backend: Backend?, path: String, delayed: Bool) throws {
        guard let made = g_settings_new_full(schema.pointer, backend?.pointer, path) else { throw NotMade() }
        if delayed { g_settings_delay(made) }
        raw = UnsafeMutableRawPointer(made)
    }

    deinit {
        g_object_unref(raw)
    }

    public func bool(_ key: String) -> Bool { g_settings_get_boolean(settings, key) != 0 }
    public func int(_ key: String) -> Int { Int(g_settings_get_int(settings, key)) }
    public func double(_ key: String) -> Double { g_settings_get_double(settings, key) }

    public func string(_ key: String) -> String {
        guard let value = g_settings_get_string(settings, key) else { return "" }
        defer { g_free(value) }
        return String(cString: value)
    }

    public func strings(_ key: String) -> [String] {
        CStringArray.take(g_settings_get_strv(settings, key))
    }

    /// The writes below drop a value the schema does not allow (out of range, not among
    /// the choices): it can come from outside, such as an old settings file.
    public func set(_ key: String, _ value: Bool) { _ = g_settings_set_boolean(settings, key, value ? 1 : 0) }

    public func set(_ key: String, _ value: Int) {
        guard let clamped = Int32(exactly: value), agent_settings_value_fits(settings, key, g_variant_new_int32(clamped)) != 0 else { return }
        _ = g_settings_set_int(settings, key, clamped)
    }

    public func set(_ key: String, _ value: Double) {
        guard value.isFinite, agent_settings_value_fits(settings, key, g_variant_new_double(value)) != 0 else { return }
        _ = g_settings_set_double(settings, key, value)
    }

    public func set(_ key: String, _ value: String) {
        guard agent_settings_value_fits(settings, key, g_variant_new_string(value)) != 0 else { return }
        _ = g_settings_set_string(settings, key, value)
    }

    public func set(_ key: String, _ values: [String]) {
        CStringArray.with(values) { _ = g_settings_set_strv(settings, key, $0) }
    }

    /// Back to the schema's default.
    public func reset(_ key: String) { g_settings_reset(settings, key) }

    fileprivate func apply() { g_settings_apply(settings) }
}

/// The key-file backend a store of its own writes to; released with the last store using it.
private final class Backend: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GSettingsBackend>

    init(keyFile: URL) throws {
        guard let made = g_keyfile_settings_backend_new(keyFile.path, SettingsStore.basePath, "Agent") else {
            throw GSettingsObject.NotMade()
        }
        pointer = made
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}

/// Agent's two schemas, from the first place that has them compiled: the build tree's
/// `.build/schemas` (`make schemas`) for a build run from there — ahead of an older
/// installed copy — then GLib's own search path (an installed app, `GSETTINGS_SCHEMA_DIR`),
/// then `<prefix>/share/glib-2.0/schemas` beside the executable.
private final class Schemas: Sendable {
    /// A `GSettingsSchema *` (reference-counted, not a GObject).
    final class Schema: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) {
            self.pointer = pointer
        }

        deinit {
            g_settings_schema_unref(pointer)
        }
    }

    let main: Schema
    let profile: Schema

    private init(main: Schema, profile: Schema) {
        self.main = main
        self.profile = profile
    }

    static func find() -> Schemas? {
        let installed = Executable.sharedData.appending(path: "glib-2.0/schemas")
        let fromBuildTree = Executable.buildTree.flatMap { lookUp(in: $0.appending(path: "schemas")) }
        return fromBuildTree ?? lookUp(in: g_settings_schema_source_get_default()) ?? lookUp(in: installed)
    }

    private static func lookUp(in directory: URL) -> Schemas? {
        guard FileManager.default.fileExists(atPath: directory.appending(path: "gschemas.compiled").path),
              let source = g_settings_schema_source_new_from_directory(directory.path, g_settings_schema_source_get_default(), 0, nil)
        else { return nil }
        defer { g_settings_schema_source_unref(source) }
        return lookUp(in: source)
    }

    private static func lookUp(in source: OpaquePointer?) -> Schemas? {
        guard let source, let main = g_settings_schema_source_lookup(source, SettingsStore.schemaID, 1) else { return nil }
        let mainSchema = Schema(main)
        guard let profile = g_settings_schema_source_lookup(source, SettingsStore.profileSchemaID, 1) else { return nil }
        return Schemas(main: mainSchema, profile: Schema(profile))
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
