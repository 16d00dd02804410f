import AgentCore
import Foundation
import TestSupport
import Testing

/// Files in the composer: read off the main actor, refused with a reason, sent with the
/// message, refused before sending when they cannot be read by the model or do not fit,
/// given back with the text when a send fails, and back in the composer to edit.
@MainActor
@Suite("Files in the composer")
struct ComposerFilesTests {
    let server = TestServer.shared
    let scratch = TemporaryFolder("agent-composer")
    var folder: URL { scratch.url }

    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try scratch.write(name, bytes)
    }

    func png() throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appending(path: "chart.png")
        let convert = Process()
        convert.executableURL = URL(filePath: "/usr/bin/convert")
        convert.arguments = ["-size", "16x16", "xc:teal", url.path]
        try convert.run()
        convert.waitUntilExit()
        return url
    }

    func viewModel(_ scenario: String) -> ChatViewModel {
        ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "configured")))
    }

    func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        try #require(try await TestTiming.eventually(condition), "\(what)")
    }

    @Test("Files are read in the background, Send waits for them; a refused one is reported and the rest stay; sent, they leave the composer")
    func readAndSent() async throws {
        let model = viewModel("echo")
        let notes = try write("notes.txt", Array("Ship on Friday.\n".utf8))
        model.files.add([notes, URL(filePath: "/bin/true")])
        #expect(model.files.reading == 2 && !model.canSend, "nothing to send while files are read")
        try await waitFor("both read") { model.files.reading == 0 }
        #expect(model.files.items.map(\.name) == ["notes.txt"])
        #expect(model.status.showError && model.status.errorMessage.contains("“true” is a program (ELF)"))
        #expect(model.status.errorHeading == "Could Not Attach File")
        model.status.dismissError()
        #expect(model.status.errorHeading == nil, "gone with the alert")
        #expect(model.canSend, "a file alone can be sent")
        model.send()
        #expect(model.files.items.isEmpty)
        await model.waitUntilIdle()
        #expect(model.conversation[0].attachments.map(\.name) == ["notes.txt"] && model.conversation[0].text.isEmpty)
        #expect(model.conversation[1].text == "Echo: File: notes.txt\n```\nShip on Friday.\n``` (1 messages)")
    }

    @Test("An image for the local model, which reads text only, is refused before sending; draft and files stay")
    func localModelIsTextOnly() async throws {
        let model = ChatViewModel(connection: ChatConnection(localServer: LocalModelServer()))
        model.files.add([try png()])
        try await waitFor("the image read") { model.files.items.count == 1 }
        model.draft = "What is this?"
        model.send()
        #expect(model.conversation.count == 0 && !model.isSending, "nothing sent, no model started")
        #expect(model.status.errorMessage.contains("reads text only and cannot see “chart.png”"), "\(model.status.errorMessage)")
        #expect(model.draft == "What is this?" && model.files.items.count == 1)
    }

    @Test("A server that refuses images: its own message in the alert, and that the model may not accept images; text and image given back")
    func serverRefusesImages() async throws {
        let model = viewModel("textonly")
        model.files.add([try png()])
        try await waitFor("the image read") { model.files.items.count == 1 }
        model.draft = "Describe it"
        model.send()
        await model.waitUntilIdle()
        #expect(model.status.errorMessage.contains("image input is not supported"), "\(model.status.errorMessage)")
        #expect(model.status.errorMessage.hasSuffix("This model may not accept images."))
        #expect(model.status.errorHeading == nil, "the server's error: headed LLM Error")
        #expect(model.draft == "Describe it" && model.files.items.map(\.name) == ["chart.png"])
    }

    @Test("A file past the context budget is refused before sending, naming it and the budget")
    func pastTheBudget() async throws {
        let model = viewModel("echo")
        model.contextBudget = 1000
        model.files.add([try write("huge.log", Array(repeating: UInt8(ascii: "x"), count: 20_000))])
        try await waitFor("the file read") { model.files.items.count == 1 }
        model.draft = "Summarize"
        model.send()
        #expect(model.conversation.count == 0)
        #expect(model.status.errorMessage.contains("“huge.log” (20.0\u{A0}kB)") && model.status.errorMessage.contains("context budget of 1000 tokens"))
        #expect(model.status.errorHeading == "Message Not Sent", "refused here, not by the model")
        #expect(model.draft == "Summarize" && model.files.items.count == 1)
    }

    @Test("Editing a sent message puts its files back in the composer; Cancel clears them")
    func editingBringsFilesBack() async throws {
        let model = viewModel("echo")
        model.files.add([try write("a.txt", Array("alpha\n".utf8))])
        try await waitFor("the file read") { model.files.items.count == 1 }
        model.draft = "Read it"
        model.send()
        await model.waitUntilIdle()
        model.beginEdit(model.conversation[0].id)
        #expect(model.draft == "Read it" && model.files.items.map(\.name) == ["a.txt"])
        model.cancelEdit()
        #expect(model.files.items.isEmpty)
    }
}
