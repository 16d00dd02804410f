// swift-tools-version:6.0
import PackageDescription

/// Benchmarks that drive AgentCore directly: SSE + decode throughput (Agent's byte-level parser
/// and decoder against one written the way the seed tutorial reads the stream), and the time to
/// first token of consecutive messages to one server (connection reuse).
let package = Package(
    name: "ParserBench",
    dependencies: [.package(name: "Agent", path: "../..")],
    targets: [
        .executableTarget(name: "sse-bench", dependencies: [.product(name: "AgentCore", package: "Agent")]),
        .executableTarget(name: "reuse-bench", dependencies: [.product(name: "AgentCore", package: "Agent")]),
    ],
    swiftLanguageModes: [.v6]
)
