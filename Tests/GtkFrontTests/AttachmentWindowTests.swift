import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Files into the window as a person puts them there — the Attach button and its file
    /// chooser, Ctrl+O, Ctrl+V of copied files or a screenshot — shown as chips, sent with the
    /// message, and opened from it afterwards; a folder to ask about. (Dropping files from
    /// another app is tested end to end, in a process of its own: Tests/EndToEnd/drop_files_test.py.)
    @MainActor
    @Suite("Attached files in the window (GTK under Xvfb)", .serialized)
    struct AttachmentWindowTests: TestServerWindowSuite {
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-window-files-\(UUID().uuidString)")

        func write(_ name: String, _ text: String) throws -> URL {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appending(path: name)
            try Data(text.utf8).write(to: url)
            return url
        }

        func image(_ name: String, _ arguments: [String]) throws -> URL {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appending(path: name)
            let convert = Process()
            convert.executableURL = URL(filePath: "/usr/bin/convert")
            convert.arguments = arguments + [url.path]
            try convert.run()
            convert.waitUntilExit()
            return url
        }

        /// Each file chip on `row` lies whole inside the message's bubble, at no less than its
        /// minimum width, once the transcript has laid it out.
        func expectChipsWhole(in row: MessageRow, of window: ChatWindow, count: Int) async throws {
            try await GtkTestHarness.settle(window)
            let bubble = try #require(GtkTestHarness.descendant(withCSSClass: "bubble", in: row.root))
            let chips = WidgetTree(bubble).filter { gtk_widget_has_css_class($0, "attachment-open") != 0 }
            #expect(chips.count == count)
            var box = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(bubble, bubble, &box) != 0)
            let (left, right) = (box.origin.x, box.origin.x + box.size.width)
            for chip in chips {
                var bounds = graphene_rect_t()
                #expect(gtk_widget_compute_bounds(chip, bubble, &bounds) != 0)
                var minimum: Int32 = 0
                gtk_widget_measure(chip, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
                #expect(bounds.origin.x >= left && bounds.origin.x + bounds.size.width <= right && bounds.size.width >= Float(minimum),
                        "chip from x \(bounds.origin.x), \(bounds.size.width) wide (its minimum \(minimum)), in a bubble from \(left) to \(right)")
            }
        }

        @Test("The Attach button and Ctrl+O: the file chooser, a chip with name and size, Remove; sent, the request has the file and the message shows it")
        func attachByButton() async throws {
            let notes = try write("notes.txt", "The meeting is on Thursday.\n")
            let marker = uniqueMarker()
            let (app, window) = try await launch("echo/\(marker)")
            defer { GtkTestHarness.close(app) }
            let viewModel = window.viewModel
            let shelf = window.composer.shelf.widget
            #expect(!GtkTestHarness.isVisible(shelf), "no files, no shelf")

            try await Xdo.click(window.composer.attachButton)
            try await GtkTestHarness.chooseFile(notes, over: window.window)
            try await GtkTestHarness.pump(until: { viewModel.files.items.count == 1 && GtkTestHarness.isMapped(shelf) }, "the chip")
            #expect(GtkText.labels(in: shelf) == ["notes.txt", "28 bytes"])
            let remove = try #require(GtkTestHarness.descendant(withCSSClass: "attachment-remove", in: shelf))
            try await GtkTestHarness.laidOut(remove)
            try await Xdo.click(remove)
            try await GtkTestHarness.pump(until: { viewModel.files.items.isEmpty && !GtkTestHarness.isVisible(shelf) }, "the chip removed")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+o")
            try await GtkTestHarness.chooseFile(notes, over: window.window)
            try await GtkTestHarness.pump(until: { viewModel.files.items.count == 1 }, "the chip again")
            try await Xdo.focus(window.window)
            try await Xdo.click(window.composer.input.textView)
            try await Xdo.type("When is it?")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && !viewModel.isSending }, "the reply")
            #expect(!GtkTestHarness.isVisible(shelf), "the files went with the message")

            let body = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
            let sent = (body["messages"] as? [[String: Any]])?.last?["content"] as? String
            #expect(sent == "When is it?\n\nFile: notes.txt\n```\nThe meeting is on Thursday.\n```")
            try await GtkTestHarness.pump(until: { window.transcript.boundRow(for: viewModel.conversation[0].id) != nil }, "the row")
            let row = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            let chip = try #require(GtkTestHarness.descendant(withCSSClass: "attachment-open", in: row.root))
            #expect(GtkText.labels(in: chip) == ["notes.txt", "28 bytes"])
            #expect(row.displayedText == "When is it?")
            try await expectChipsWhole(in: row, of: window, count: 1)

            // Clicked, the sent file opens in the desktop's app for it: the copy kept with the chat.
            let before = TestOpener.opened().count
            var clicked = false
            Signals.connect(chip.raw, "clicked") { clicked = true }
            try await GtkTestHarness.laidOut(chip)
            try await Xdo.click(chip)
            try await GtkTestHarness.pump(until: { clicked }, "the click to reach the chip")
            // The app is started by GIO as a process of its own: slow on a loaded machine.
            try await GtkTestHarness.pump(until: { TestOpener.opened().count > before || viewModel.status.showError },
                                          timeout: .seconds(60), "the default app to open the file")
            #expect(!viewModel.status.showError, "no error opening it: \(viewModel.status.errorMessage)")
            let opened = try #require(TestOpener.opened().last)
            #expect(opened.hasSuffix("/attachments/\(viewModel.conversation[0].attachments[0].digest)/notes.txt"), "\(opened)")
            #expect(try String(contentsOfFile: opened, encoding: .utf8) == "The meeting is on Thursday.\n")
        }

        @Test("Shift+Tab from the field reaches each chip's Remove button in turn, one stop per chip, with no cell between")
        func chipsByKeyboard() async throws {
            let (first, second) = (try write("first.txt", "One\n"), try write("second.txt", "Two\n"))
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            let shelf = window.composer.shelf.widget
            try await Xdo.click(window.composer.input.textView)
            let list = first.absoluteString + "\r\n" + second.absoluteString + "\r\n"
            try await GtkTestHarness.setClipboard(Data(list.utf8), type: "text/uri-list", for: window.window)
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: { window.viewModel.files.items.count == 2 && GtkTestHarness.isMapped(shelf) }, "two chips")
            let removes = WidgetTree(shelf).filter { gtk_widget_has_css_class($0, "attachment-remove") != 0 }
            #expect(removes.count == 2)
            var stops: [String] = []
            for key in ["shift+Tab", "shift+Tab", "shift+Tab", "Tab", "Tab", "Tab"] {
                try await Xdo.key(key)
                try await GtkTestHarness.pump(for: .milliseconds(50))
                guard let focus = gtk_root_get_focus(OpaquePointer(window.window)) else { stops.append("none"); continue }
                if let index = removes.firstIndex(of: focus) {
                    stops.append("remove \(index)")
                } else if gtk_widget_is_ancestor(focus, window.composer.input.textView) != 0 || focus == window.composer.input.textView {
                    stops.append("field")
                } else {
                    stops.append(String(cString: gtk_widget_get_css_name(focus)))
                }
            }
            #expect(stops == ["remove 1", "remove 0", "button", "remove 0", "remove 1", "field"], "\(stops)")
        }

        @Test("Ctrl+V of files copied in a file manager, and of a screenshot, makes chips; copied text still pastes as text")
        func paste() async throws {
            let report = try write("report.md", "# Report\n")
            let screenshot = try image("screen.png", ["-size", "120x80", "xc:orange"])
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            let viewModel = window.viewModel
            try await Xdo.click(window.composer.input.textView)

            try await GtkTestHarness.setClipboard(Data((report.absoluteString + "\r\n").utf8), type: "text/uri-list", for: window.window)
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: { viewModel.files.items.map(\.name) == ["report.md"] }, "the copied file")
            #expect(window.composer.input.text.isEmpty, "no text pasted")

            try await GtkTestHarness.setClipboard(try Data(contentsOf: screenshot), type: "image/png", for: window.window)
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: { viewModel.files.items.count == 2 }, "the pasted image")
            let pasted = viewModel.files.items[1]
            #expect(pasted.name == "Pasted image.png" && pasted.kind == .image && pasted.mediaType == "image/png")
            try await GtkTestHarness.pump(until: { GtkTestHarness.descendant(withCSSClass: "attachment-thumbnail", in: window.composer.shelf.widget) != nil },
                                          "the thumbnail")

            try await GtkTestHarness.setClipboard(Data("plain words".utf8), type: "text/plain;charset=utf-8", for: window.window)
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: { window.composer.input.text == "plain words" }, "the text pasted")
            #expect(viewModel.files.items.count == 2)
        }

        @Test("Three files sent with a message: their chips sit whole in the bubble, each at its width")
        func threeFilesOnAMessage() async throws {
            let names = ["agenda.txt", "minutes.txt", "budget.csv"]
            let files = try names.map { try write($0, "\($0)\n") }
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            let viewModel = window.viewModel
            try await Xdo.click(window.composer.input.textView)
            let list = files.map(\.absoluteString).joined(separator: "\r\n") + "\r\n"
            try await GtkTestHarness.setClipboard(Data(list.utf8), type: "text/uri-list", for: window.window)
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: { viewModel.files.items.map(\.name) == names }, "the three files")
            try await Xdo.type("Summarise these.")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && !viewModel.isSending }, "the reply")
            try await GtkTestHarness.pump(until: { window.transcript.boundRow(for: viewModel.conversation[0].id) != nil }, "the row")
            let row = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            try await expectChipsWhole(in: row, of: window, count: 3)
        }

        @Test("Ctrl+Shift+O: a folder to ask about, its indexing shown; the reply's sources under it; × stops asking")
        func askAboutAFolder() async throws {
            let notes = folder.appending(path: "notes")
            let factFile = try KnowledgeFolder.make(notes, count: 300, size: 4000)
            let marker = uniqueMarker()
            let index = folder.appending(path: "index/knowledge.sqlite")
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo/\(marker)"), model: "configured-model"),
                                                knowledgeIndex: index)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let viewModel = window.viewModel
            let bar = window.chatPage.knowledgeBar
            #expect(!GtkTestHarness.isVisible(bar.widget))

            var sawProgress = false
            viewModel.observe { _ in if GtkTestHarness.isVisible(bar.progress) { sawProgress = true } }
            try await Xdo.key("ctrl+shift+o")
            try await GtkTestHarness.chooseFile(notes, over: window.window)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(bar.widget) }, "the folder's strip")
            #expect(GtkText.labels(in: bar.widget).contains("notes"))
            try await GtkTestHarness.pump(until: { viewModel.knowledge.indexing == nil && viewModel.knowledge.folders.count == 1 },
                                          timeout: .seconds(60), "the folder indexed")
            #expect(sawProgress && !GtkTestHarness.isVisible(bar.progress), "a progress bar while it indexed, gone after")

            try await Xdo.focus(window.window)
            try await Xdo.click(window.composer.input.textView)
            try await Xdo.type("What did the lighthouse keeper name his tortoise?")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && !viewModel.isSending }, "the reply")
            let replyID = viewModel.conversation[1].id
            try await GtkTestHarness.pump(until: { window.transcript.boundRow(for: replyID).map { GtkTestHarness.isMapped($0.sources.widget) } == true },
                                          "the sources")
            let row = try #require(window.transcript.boundRow(for: replyID))
            #expect(GtkText.labels(in: row.sources.widget) == ["Sources", factFile.lastPathComponent])
            let body = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
            #expect(((body["messages"] as? [[String: Any]])?.last?["content"] as? String)?.contains("Pemberton") == true)
            let link = try #require(GtkTestHarness.descendant(withCSSClass: "source-link", in: row.sources.widget))
            let before = TestOpener.opened().count
            try await GtkTestHarness.laidOut(link)
            try await Xdo.click(link)
            try await GtkTestHarness.pump(until: { TestOpener.opened().count > before }, "the source to open")
            #expect(TestOpener.opened().last == factFile.path)

            let remove = try #require(GtkTestHarness.descendant(withCSSClass: "knowledge-remove", in: bar.widget))
            try await GtkTestHarness.laidOut(remove)
            try await Xdo.click(remove)
            try await GtkTestHarness.pump(until: { viewModel.knowledge.folders.isEmpty && !GtkTestHarness.isVisible(bar.widget) },
                                          "the folder gone")
        }
    }
}
