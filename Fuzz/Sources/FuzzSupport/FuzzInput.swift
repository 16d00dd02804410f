import Glibc

/// One libFuzzer input, and the same bytes cut into pieces the way a network might deliver
/// them. The cut points come from the bytes themselves, so a crash reproduces from its input
/// file alone.
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// The bytes in pieces of 1 to 16 bytes (sizes drawn from a generator seeded by the input).
    public var pieces: [ArraySlice<UInt8>] {
        var state = bytes.reduce(UInt32(2166136261)) { ($0 ^ UInt32($1)) &* 16777619 }
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            state = state &* 1664525 &+ 1013904223
            let end = min(bytes.count, start + Int(state >> 28) + 1)
            pieces.append(bytes[start..<end])
            start = end
        }
        return pieces
    }

    /// The bytes as text (invalid UTF-8 repaired), as a model's reply would reach the parser.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Stops the fuzzer with a finding when a property does not hold.
public func fuzzRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let text = "property failed: \(message())\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    abort()
}

/// libFuzzer's driver, called from each target's `main` (SwiftPM gives executables a main
/// of their own, so libFuzzer's is not used).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// Runs libFuzzer on `target` with the process's arguments (libFuzzer's own flags).
public func runFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
