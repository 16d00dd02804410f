import Foundation
import Testing
import TestSupport

/// agent-cli in the user's language: its messages from the catalogs `make locale` compiles
/// into `.build/locale` (found beside the executable), numbers in the locale's format.
@Suite("agent-cli in German, Spanish and French")
struct AgentCLILanguageTests {
    private func environment(_ lang: String, _ language: String) -> [String: String] {
        ["LANG": lang, "LANGUAGE": language, "LC_ALL": "",
         "XDG_DATA_HOME": FileManager.default.temporaryDirectory.appending(path: "agent-cli-lang-\(UUID().uuidString)").path]
    }

    @Test("A wrong option is refused in German, with the exit status of a usage error")
    func germanRefusal() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--bogus"], environment: environment("de_DE.UTF-8", "de"))
        #expect(result.status == 2)
        #expect(result.stderr == "agent-cli: unbekannte Option „--bogus“\nVersuchen Sie „agent-cli --help“.\n", "\(result.stderr)")
    }

    @Test("Found on PATH, as a shell runs it (argv[0] a bare name), agent-cli still finds its catalogs")
    func germanFromPath() async throws {
        let folder = try ProductRunner.executable("agent-cli").deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["agent-cli", "--bogus"]
        process.environment = environment("de_DE.UTF-8", "de").merging(["PATH": folder.path]) { $1 }
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: await ProductRunner.readToEnd(error.fileHandleForReading), as: UTF8.self)
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        #expect(text.hasPrefix("agent-cli: unbekannte Option"), "\(text)")
    }

    @Test("The presets' summaries in German: words from the catalog, a decimal comma")
    func germanPresets() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--list-presets"], environment: environment("de_DE.UTF-8", "de"))
        #expect(result.status == 0)
        #expect(result.stdout.contains("Translator\tTemperatur 0,3, keine Werkzeuge, „You translate."), "\(result.stdout)")
    }

    @Test("In Spanish: a wrong option refused, and a server that cannot be reached reported")
    func spanishErrors() async throws {
        let refused = try await ProductRunner.run("agent-cli", ["--bogus"], environment: environment("es_ES.UTF-8", "es"))
        #expect(refused.status == 2)
        #expect(refused.stderr == "agent-cli: opción desconocida «--bogus»\nPruebe 'agent-cli --help'.\n", "\(refused.stderr)")
        let unreachable = try await ProductRunner.run("agent-cli", ["--server", "http://127.0.0.1:9", "hola"],
                                                      environment: environment("es_ES.UTF-8", "es"))
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.hasPrefix("agent-cli: error: No se pudo obtener una respuesta de http://127.0.0.1:9/v1/chat/completions:"),
                "\(unreachable.stderr)")
    }

    @Test("--help in French keeps the option column and translates the rest")
    func frenchHelp() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--help"], environment: environment("fr_FR.UTF-8", "fr"))
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Utilisation\u{A0}: agent-cli [OPTIONS] [PROMPT...]"), "\(result.stdout.prefix(200))")
        #expect(result.stdout.contains("\n  --server URL        un serveur compatible OpenAI"), "\(result.stdout.prefix(600))")
    }
}
