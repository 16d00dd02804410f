import AgentCore
import Foundation
import Testing

/// A program run from the build tree finds the schemas and catalogs `make` puts in `.build`,
/// also when it was built in a scratch folder inside it (as scripts/sanitize builds).
@Suite("Where the program runs from")
struct ExecutableTests {
    @Test("The build tree: .build/<triple>/debug and .build/sanitize-address/<triple>/debug; nothing for an installed program")
    func buildTree() {
        let tree = URL(filePath: "/src/agent/.build", directoryHint: .isDirectory)
        #expect(Executable.buildTree(holding: tree.appending(path: "x86_64-unknown-linux-gnu/debug")) == tree)
        #expect(Executable.buildTree(holding: tree.appending(path: "sanitize-address/x86_64-unknown-linux-gnu/debug")) == tree)
        #expect(Executable.buildTree(holding: URL(filePath: "/usr/bin")) == nil)
        #expect(Executable.buildTree(holding: URL(filePath: "/opt/agent/lib/x86_64/bin")) == nil)
    }
}
