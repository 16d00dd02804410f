import Glibc
import FoundationEssentials

/// What a GGUF model file says about itself, read from its header without loading it: that
/// it is GGUF at all (the "GGUF" magic), its architecture and the context it was trained
/// for. The metadata is read in order and reading stops once these are known, so a file of
/// gigabytes costs a few kilobytes.
public struct GGUFHeader: Sendable, Equatable {
    /// `general.architecture` ("llama", "gemma3", …).
    public let architecture: String?
    /// `<architecture>.context_length`: the context the model was trained for, in tokens.
    public let contextLength: Int?

    /// Why a file cannot be run, in words for the user.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads `file`'s header; a file that is missing, unreadable or not GGUF is refused.
    public static func read(_ file: URL) throws(Problem) -> GGUFHeader {
        let name = file.lastPathComponent
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            // TRANSLATORS: %1$s is a file's name, %2$s its path, %3$s the system's reason.
            throw Problem(description: tr("“%1$s” cannot be read (%2$s): %3$s", name, file.path, String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var reader = Reader(descriptor: descriptor)
        guard reader.bytes(4) == Array("GGUF".utf8) else {
            throw Problem(description: tr("“%s” is not a GGUF model file: it does not start with “GGUF”. llama.cpp runs .gguf files, such as those on Hugging Face.", name))
        }
        guard let version = reader.integer(4), version >= 2 else {
            // TRANSLATORS: %1$s is a file's name, %2$s a version number.
            throw Problem(description: tr("“%1$s” is a GGUF file of a version llama.cpp no longer reads (%2$s).", name, String(reader.lastInteger)))
        }
        guard reader.integer(8) != nil, let count = reader.integer(8) else {
            throw Problem(description: tr("“%s” is cut short: its GGUF header ends early.", name))
        }
        return GGUFHeader(metadata: Self.metadata(from: &reader, count: count))
    }

    private init(metadata: [String: Value]) {
        architecture = metadata["general.architecture"]?.text
        contextLength = architecture.flatMap { metadata["\($0).context_length"]?.number }
    }

    private enum Value {
        case text(String)
        case number(Int)

        var text: String? { if case .text(let text) = self { text } else { nil } }
        var number: Int? { if case .number(let number) = self { number } else { nil } }
    }

    /// The keys this reads, in the order writers put them: general.* first, then the
    /// architecture's, then the tokenizer's large arrays (never reached).
    private static func metadata(from reader: inout Reader, count: Int) -> [String: Value] {
        var found: [String: Value] = [:]
        for _ in 0..<min(count, 100_000) {
            guard let key = reader.string(), let type = reader.integer(4) else { break }
            guard case .read(let value) = reader.value(type: type) else { break }
            if let value { found[key] = value }
            let architecture = found["general.architecture"]?.text
            if let architecture, found["\(architecture).context_length"] != nil { break }
        }
        return found
    }

    /// Reads little-endian values from a file through a buffer.
    private struct Reader {
        let descriptor: Int32
        var buffer: [UInt8] = []
        var position = 0
        /// The last integer read, for messages.
        var lastInteger = 0

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// `count` bytes, or nil at the end of the file.
        mutating func bytes(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= 1 << 20 else { return nil }
            while buffer.count - position < count {
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                let read = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return nil }
                buffer = Array(buffer[position...]) + chunk[..<read]
                position = 0
            }
            defer { position += count }
            return Array(buffer[position..<position + count])
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0 else { return false }
            var left = count
            while left > 0 {
                let step = min(left, 1 << 20)
                guard bytes(step) != nil else { return false }
                left -= step
            }
            return true
        }

        /// An unsigned integer of `size` bytes (one that does not fit an Int is refused).
        mutating func integer(_ size: Int) -> Int? {
            guard let bytes = bytes(size) else { return nil }
            let value = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard value <= UInt64(Int.max) else { return nil }
            lastInteger = Int(value)
            return lastInteger
        }

        mutating func string() -> String? {
            guard let length = integer(8), let bytes = bytes(length) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The bytes of each fixed-size value type, by GGUF type number.
        static let sizes: [Int: Int] = [0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8]

        /// What reading a value came to.
        enum Outcome {
            /// Read: the value when it is text or an unsigned integer, nil for the others
            /// (floats, arrays), which are read past.
            case read(Value?)
            /// The file is damaged or ends here.
            case damaged
        }

        /// A value of GGUF type `type`.
        mutating func value(type: Int) -> Outcome {
            switch type {
            case 8:
                return string().map { .read(.text($0)) } ?? .damaged
            case 4, 10:
                return integer(Self.sizes[type] ?? 0).map { .read(.number($0)) } ?? .damaged
            case 9:
                guard let elementType = integer(4), let count = integer(8) else { return .damaged }
                if let size = Self.sizes[elementType] {
                    let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
                    return !overflow && skip(bytes) ? .read(nil) : .damaged
                }
                guard elementType == 8 else { return .damaged }
                for _ in 0..<count {
                    guard let length = integer(8), skip(length) else { return .damaged }
                }
                return .read(nil)
            default:
                guard let size = Self.sizes[type], skip(size) else { return .damaged }
                return .read(nil)
            }
        }
    }
}
