import CSQLite
import FoundationEssentials

/// A value bound to or read from an SQL statement.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// Why the database refused.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    // TRANSLATORS: %1$s is SQLite's error number, %2$s its message.
    public var description: String { tr("SQLite error %1$s: %2$s", String(code), message) }
}

/// A thin, safe layer over one SQLite connection: statements are prepared, every value is
/// a bound parameter, and every failure becomes a `SQLiteError`. Not thread-safe by
/// itself (`@unchecked`): `ChatStore` only touches it under its lock.
final class SQLiteDatabase: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? tr("cannot open %s", path)
            sqlite3_close(connection)
            throw SQLiteError(code: code, message: message)
        }
        handle = connection
        sqlite3_busy_timeout(handle, Int32(clamping: busyTimeout.milliseconds))
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    /// Runs SQL that takes no parameters (schema changes, pragmas), possibly several statements.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: code, message: message)
        }
    }

    /// Runs one statement with bound parameters; returns the rows it produced.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let text):
                // With its byte length: text may hold NUL characters, which C strings would cut.
                // (An empty text still needs a non-null pointer, or SQLite stores NULL.)
                (Array(text.utf8) + [0]).withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        sqlite3_bind_text(statement, position, chars.baseAddress, Int32(chars.count - 1), agent_sqlite_transient())
                    }
                }
            case .blob(let data):
                // sqlite3_bind_blob64 with a null pointer stores NULL: an empty blob is bound as zeroblob.
                data.isEmpty ? sqlite3_bind_zeroblob(statement, position, 0)
                    : data.withUnsafeBytes { sqlite3_bind_blob64(statement, position, $0.baseAddress, UInt64($0.count), agent_sqlite_transient()) }
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code) }
            let count = sqlite3_column_count(statement)
            rows.append((0..<count).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: .text(Self.text(statement, column))
                case SQLITE_BLOB: .blob(Self.blob(statement, column))
                default: .null
                }
            })
        }
        return rows
    }

    /// Runs `body` in one transaction, rolled back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func blob(_ statement: OpaquePointer, _ column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        statements[sql] = statement
        return statement
    }

    private func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

extension SQLiteValue {
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var blob: Data? { if case .blob(let value) = self { value } else { nil } }
    var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    init(_ text: String?) { self = text.map(SQLiteValue.text) ?? .null }
    init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }
    init(_ number: Double?) { self = number.map(SQLiteValue.real) ?? .null }
}
