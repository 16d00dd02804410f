@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// The header of a GGUF file, read without loading the model: real files from the test
/// runtime, and files that are not GGUF or are cut short.
@Suite("GGUF header")
struct GGUFHeaderTests {
    let scratch = TemporaryFolder("agent-gguf")
    var folder: URL { scratch.url }

    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try scratch.write(name, bytes)
    }

    @Test("The runtime's model files: architecture and trained context")
    func realFiles() throws {
        let runtime = try LocalRuntime.locate()
        let gemma = try GGUFHeader.read(try #require(runtime.modelFiles["gemma3"]))
        #expect(gemma.architecture == "gemma3")
        #expect(gemma.contextLength == 32768)
        let smol = try GGUFHeader.read(try #require(runtime.modelFiles["smollm2"]))
        #expect(smol.architecture == "llama")
        #expect(smol.contextLength == 8192)
    }

    @Test("A file that does not start with GGUF is refused, saying so")
    func notGGUF() throws {
        let text = try write("notes.gguf", Array("Just some notes, not a model.\n".utf8))
        #expect(throws: GGUFHeader.Problem.self) { try GGUFHeader.read(text) }
        do {
            _ = try GGUFHeader.read(text)
        } catch {
            #expect(error.description.contains("“notes.gguf” is not a GGUF model file"), "\(error.description)")
        }
        let empty = try write("empty.gguf", [])
        #expect(throws: GGUFHeader.Problem.self) { try GGUFHeader.read(empty) }
        do {
            _ = try GGUFHeader.read(folder.appending(path: "absent.gguf"))
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description.contains("cannot be read"), "\(error.description)")
        }
    }

    @Test("A GGUF file cut short, or with lengths beyond its end, is read as far as it goes without a crash")
    func damaged() throws {
        let real = try Data(contentsOf: try #require(try LocalRuntime.locate().modelFiles["smollm2"]))
        for length in [6, 24, 60, 100] {
            let cut = try write("cut-\(length).gguf", Array(real.prefix(length)))
            if length < 24 {
                #expect(throws: GGUFHeader.Problem.self) { try GGUFHeader.read(cut) }
            } else {
                #expect(try GGUFHeader.read(cut).contextLength == nil)
            }
        }
        // Version 3, no tensors, one key whose length claims far more than the file holds.
        var bytes = Array("GGUF".utf8) + [3, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [1] + [UInt8](repeating: 0, count: 7)
        bytes += [UInt8](repeating: 0xFF, count: 8)
        let lying = try write("lying.gguf", bytes)
        let header = try GGUFHeader.read(lying)
        #expect(header.architecture == nil && header.contextLength == nil)
    }
}
