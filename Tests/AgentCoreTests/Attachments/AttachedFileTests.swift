import AgentCore
import Foundation
import Testing
import TestSupport

/// Attached files as people have them: encodings, files that are not text, sizes past the
/// budget — and `agent-cli --attach`.
@Suite("Attached files")
struct AttachedFileTests {
    let folder = FileManager.default.temporaryDirectory.appending(path: "agent-attach-\(UUID().uuidString)")

    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appending(path: name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("UTF-8 with and without a byte-order mark, UTF-16 LE and BE with one, and Latin-1")
    func encodings() throws {
        let text = "Größe: 12 °C — ok\n"
        var le: [UInt8] = [0xFF, 0xFE], be: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 {
            le += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            be += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        let latin1: [UInt8] = Array("Gr".utf8) + [0xF6, 0xDF] + Array("e: 12 ".utf8) + [0xB0] + Array("C\n".utf8)
        #expect(try AttachedFile.read(write("plain.txt", Array(text.utf8))).text == text)
        #expect(try AttachedFile.read(write("bom.txt", [0xEF, 0xBB, 0xBF] + Array(text.utf8))).text == text)
        #expect(try AttachedFile.read(write("le.txt", le)).text == text)
        #expect(try AttachedFile.read(write("be.txt", be)).text == text)
        #expect(try AttachedFile.read(write("old.log", latin1)).text == "Größe: 12 °C\n")
    }

    @Test("Not text: a PNG made by ImageMagick, a program, a folder, a missing file — each refused with its name")
    func refusals() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = folder.appending(path: "red.png")
        let convert = Process()
        convert.executableURL = URL(filePath: "/usr/bin/convert")
        convert.arguments = ["-size", "4x4", "xc:red", png.path]
        try convert.run()
        convert.waitUntilExit()
        #expect(throws: AttachedFile.Refusal(description: "“red.png” is a PNG image; Agent attaches text and code files")) {
            try AttachedFile.read(png)
        }
        #expect(throws: AttachedFile.Refusal(description: "“true” is a program (ELF); Agent attaches text and code files")) {
            try AttachedFile.read(URL(filePath: "/bin/true"))
        }
        let binary = try write("data.bin", [0x01, 0x02, 0x00, 0x41])
        #expect(throws: AttachedFile.Refusal(description: "“data.bin” is not a text file (binary data); Agent attaches text and code files")) {
            try AttachedFile.read(binary)
        }
        #expect(throws: AttachedFile.Refusal(description: "“\(folder.lastPathComponent)” is a folder, not a file")) {
            try AttachedFile.read(folder)
        }
        #expect(throws: (any Error).self) { try AttachedFile.read(folder.appending(path: "nothing.txt")) }
    }

    /// A PDF drawn by cairo (through rsvg-convert) from SVG pages: text makes a text layer,
    /// shapes alone make none.
    func pdf(_ name: String, pages: [String]) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var svgs: [String] = []
        for (index, body) in pages.enumerated() {
            let svg = folder.appending(path: "\(name)-\(index).svg")
            try #"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100">\#(body)</svg>"#.write(to: svg, atomically: true, encoding: .utf8)
            svgs.append(svg.path)
        }
        let url = folder.appending(path: name)
        let convert = Process()
        convert.executableURL = URL(filePath: "/usr/bin/rsvg-convert")
        convert.arguments = ["-f", "pdf", "-o", url.path] + svgs
        try convert.run()
        convert.waitUntilExit()
        return url
    }

    @Test("A PDF's text layer, page by page (poppler); a PDF without one is refused — no OCR")
    func pdfs() throws {
        let invoice = try pdf("invoice.pdf", pages: [#"<text x="10" y="40" font-size="20">The total is 4711 euros.</text>"#,
                                                    #"<text x="10" y="40" font-size="20">Due on 1 March.</text>"#])
        let read = try AttachedFile.read(invoice)
        #expect(read.text == "--- Page 1 ---\nThe total is 4711 euros.\n\n--- Page 2 ---\nDue on 1 March.", "\(read.text)")
        let scan = try pdf("scan.pdf", pages: [#"<rect x="10" y="10" width="100" height="50" fill="red"/>"#])
        #expect(throws: AttachedFile.Refusal(description: "“scan.pdf” has no text layer (a scanned or image-only PDF); Agent does not read text out of images")) {
            try AttachedFile.read(scan)
        }
        let broken = try write("broken.pdf", Array("%PDF-1.7\nnot really".utf8))
        #expect(throws: AttachedFile.Refusal.self) { try AttachedFile.read(broken) }
    }

    @Test("The message: each file fenced longer than its own backticks and named; too big for the budget is refused, not cut")
    func message() throws {
        let code = AttachedFile(name: "notes.md", byteCount: 20, text: "run ```swift test```")
        let message = AttachmentMessage.compose("What does this say?", files: [code])
        #expect(message == "What does this say?\n\nFile: notes.md\n````\nrun ```swift test```\n````")
        let big = AttachedFile(name: "big.log", byteCount: 40_000, text: String(repeating: "x", count: 40_000))
        let bigMessage = AttachmentMessage.compose("Summarize", files: [big])
        #expect(throws: AttachedFile.Refusal.self) { try AttachmentMessage.check(bigMessage, files: [big], budget: 4096) }
        do {
            try AttachmentMessage.check(bigMessage, files: [big], budget: 4096)
        } catch {
            #expect(error.description.contains("“big.log” (39 KB)") && error.description.contains("context budget of 4096 tokens"))
        }
        try AttachmentMessage.check(message, files: [code], budget: 4096)
    }

    @Test("agent-cli --attach: the file's text goes in the message; a file that cannot be attached exits 2 before any request")
    func cli() async throws {
        let latin1 = try write("old.log", Array("error: ".utf8) + [0xE9, 0x74, 0xE9] + Array("\n".utf8))
        let server = TestServer.shared
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--attach", latin1.path, "What", "failed?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("What failed?\n\nFile: old.log\n```\nerror: été\n```"), "\(result.stdout)")
        let marker = uniqueMarker()
        let refused = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(marker)"), "--attach", "/bin/true", "hi"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("“true” is a program (ELF)"), "\(refused.stderr)")
        #expect(try await server.requests(containing: marker).isEmpty, "nothing was sent")
    }
}
