// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for what Agent reads from servers and models. Built apart from the app
/// (every target instrumented): see docs/reliability.md and scripts/fuzz.
let package = Package(
    name: "AgentFuzz",
    dependencies: [.package(name: "Agent", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(name: "fuzz-sse", dependencies: ["FuzzSupport", .product(name: "AgentCore", package: "Agent")]),
        .executableTarget(name: "fuzz-ndjson", dependencies: ["FuzzSupport", .product(name: "AgentCore", package: "Agent")]),
        .executableTarget(name: "fuzz-reply-decoders",
                          dependencies: ["FuzzSupport", .product(name: "AgentCore", package: "Agent")]),
        .executableTarget(name: "fuzz-markdown", dependencies: ["FuzzSupport", .product(name: "AgentCore", package: "Agent")]),
    ],
    swiftLanguageModes: [.v6]
)
