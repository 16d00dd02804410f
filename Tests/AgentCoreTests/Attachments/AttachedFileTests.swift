import AgentCore
import Foundation
import Testing
import TestSupport

/// Attached files as people have them: encodings, PDFs, images, files that are not text,
/// sizes past the budget — and `agent-cli --attach`.
@Suite("Attached files")
struct AttachedFileTests {
    let scratch = TemporaryFolder("agent-attach")
    var folder: URL { scratch.url }

    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try scratch.write(name, bytes)
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

    @Test("Not text, PDF or a sent image: a BMP, a gzip archive, a program, a folder, a missing file, one over 32 MB — each refused with its name")
    func refusals() throws {
        let what = "Agent attaches text, code, PDF files and images"
        let bmp = try image("old.bmp", ["-size", "4x4", "xc:red"])
        #expect(throws: AttachedFile.Refusal(description: "“old.bmp” is a BMP image; \(what)")) { try AttachedFile.read(bmp) }
        let archive = try write("logs.gz", [0x1F, 0x8B, 0x08, 0x00, 0x00])
        #expect(throws: AttachedFile.Refusal(description: "“logs.gz” is a gzip archive; \(what)")) { try AttachedFile.read(archive) }
        #expect(throws: AttachedFile.Refusal(description: "“true” is a program (ELF); \(what)")) {
            try AttachedFile.read(URL(filePath: "/bin/true"))
        }
        let binary = try write("data.bin", [0x01, 0x02, 0x00, 0x41])
        #expect(throws: AttachedFile.Refusal(description: "“data.bin” is not a text file (binary data); \(what)")) {
            try AttachedFile.read(binary)
        }
        #expect(throws: AttachedFile.Refusal(description: "“\(folder.lastPathComponent)” is a folder, not a file")) {
            try AttachedFile.read(folder)
        }
        #expect(throws: (any Error).self) { try AttachedFile.read(folder.appending(path: "nothing.txt")) }
        #expect(throws: AttachedFile.Refusal(description: "“zero” is not a regular file (a device or a pipe)")) {
            try AttachedFile.read(URL(filePath: "/dev/zero"))
        }
        let huge = try write("huge.txt", [])
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 40_000_000)
        try handle.close()
        #expect(throws: AttachedFile.Refusal(description: "“huge.txt” is 40.0\u{A0}MB; files over 32.0\u{A0}MB are not attached")) {
            try AttachedFile.read(huge)
        }
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
        #expect(read.text == "--- Page 1 ---\nThe total is 4711 euros.\n\n--- Page 2 ---\nDue on 1 March.", "\(read.text ?? "")")
        #expect(try read.mediaType == "application/pdf" && read.kind == .text && read.data == (try Data(contentsOf: invoice)))
        let scan = try pdf("scan.pdf", pages: [#"<rect x="10" y="10" width="100" height="50" fill="red"/>"#])
        #expect(throws: AttachedFile.Refusal(description: "“scan.pdf” has no text layer (a scanned or image-only PDF); Agent does not read text out of images")) {
            try AttachedFile.read(scan)
        }
        let broken = try write("broken.pdf", Array("%PDF-1.7\nnot really".utf8))
        #expect(throws: AttachedFile.Refusal.self) { try AttachedFile.read(broken) }
    }

    @Test("The message: each file fenced longer than its own backticks and named; too big for the budget is refused, not cut")
    func message() throws {
        let code = try AttachedFile.make(name: "notes.md", data: Data("run ```swift test```".utf8))
        let message = AttachmentMessage.compose("What does this say?", files: [code])
        #expect(message == "What does this say?\n\nFile: notes.md\n````\nrun ```swift test```\n````")
        let big = try AttachedFile.make(name: "big.log", data: Data(String(repeating: "x", count: 40_000).utf8))
        let bigMessage = ChatMessage(role: .user, text: "Summarize", state: .sending, attachments: [big])
        #expect(throws: AttachedFile.Refusal.self) { try AttachmentMessage.check(bigMessage, budget: 4096) }
        do {
            try AttachmentMessage.check(bigMessage, budget: 4096)
        } catch {
            #expect(error.description.contains("“big.log” (40.0\u{A0}kB)") && error.description.contains("context budget of 4096 tokens"))
        }
        try AttachmentMessage.check(ChatMessage(role: .user, text: "What does this say?", state: .sending, attachments: [code]), budget: 4096)
    }

    /// An image made by ImageMagick's `convert` from `arguments` (the output file last).
    func image(_ name: String, _ arguments: [String]) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appending(path: name)
        try run("/usr/bin/convert", arguments + [url.path])
        return url
    }

    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// What ImageMagick's `identify` says of bytes sent: "FORMAT WIDTHxHEIGHT" and the first pixel.
    func identify(_ data: Data) throws -> (format: String, pixel: String) {
        let file = folder.appending(path: "sent-\(UUID().uuidString)")
        try data.write(to: file)
        let format = try run("/usr/bin/identify", ["-format", "%m %wx%h\n", file.path]).split(separator: "\n").first.map(String.init) ?? ""
        let pixel = try run("/usr/bin/convert", [file.path + "[0]", "-format", "%[pixel:p{0,0}]", "info:"])
        return (format, pixel)
    }

    @Test("Images: a small PNG and JPEG go as they are; a large one is scaled to 2048 px; a GIF's first frame and a WebP become PNG")
    func images() throws {
        let png = try image("dot.png", ["-size", "40x30", "xc:red"])
        let small = try AttachedFile.read(png)
        #expect(small.kind == .image && small.mediaType == "image/png" && small.text == nil)
        #expect(small.data == (try Data(contentsOf: png)), "sent as it is")
        #expect(small.dataURI.hasPrefix("data:image/png;base64,iVBOR"))

        let photo = try image("photo.jpg", ["-size", "3000x1500", "gradient:blue-white"])
        let scaled = try AttachedFile.read(photo)
        #expect(try scaled.mediaType == "image/jpeg" && scaled.byteCount == (try Data(contentsOf: photo)).count)
        #expect(try identify(scaled.data).format == "JPEG 2048x1024")
        let tall = try AttachedFile.read(try image("tall.png", ["-size", "500x4100", "xc:green"]))
        #expect(try identify(tall.data).format == "PNG 250x2048")

        let gif = try image("blink.gif", ["-delay", "50", "-size", "20x20", "xc:lime", "-size", "20x20", "xc:blue"])
        let frame = try AttachedFile.read(gif)
        let seen = try identify(frame.data)
        #expect(frame.mediaType == "image/png" && seen.format == "PNG 20x20")
        #expect(seen.pixel.hasPrefix("srgb") && seen.pixel.contains("(0,255,0"), "the first frame, lime: \(seen.pixel)")
        let webp = try AttachedFile.read(try image("shot.webp", ["-size", "64x48", "xc:yellow"]))
        #expect(try webp.mediaType == "image/png" && (try identify(webp.data).format) == "PNG 64x48")

        // A small file that claims 20,000 × 20,000 pixels is refused at its header.
        let vast = folder.appending(path: "vast.png")
        try run("/usr/bin/python3", ["-c", """
            import struct, sys, zlib
            def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0))
                                          + chunk(b"IDAT", zlib.compress(b"\\x00" * 1000)) + chunk(b"IEND", b""))
            """, vast.path])
        #expect(throws: AttachedFile.Refusal(description: "“vast.png” is 20000 × 20000 pixels; images over 100 megapixels are not attached")) {
            try AttachedFile.read(vast)
        }
        let broken = try write("broken.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00])
        #expect(throws: AttachedFile.Refusal.self) { try AttachedFile.read(broken) }
        #expect(try AttachedFile.read(write("same.png", [UInt8](try Data(contentsOf: png)))).digest == small.digest,
                "the same bytes under another name: the same content")
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

    @Test("agent-cli: a prompt alone past the context budget exits 2 before any request, naming no file")
    func promptPastTheBudget() async throws {
        let marker = uniqueMarker()
        let prompt = String(repeating: "All work and no play makes Jack a dull boy. ", count: 1000)
        let refused = try await ProductRunner.run("agent-cli", ["--server", TestServer.shared.url("echo/\(marker)")], stdin: prompt,
                                                  environment: AgentCLIChatTests.home())
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("agent-cli: not sent: the message is about "), "\(refused.stderr)")
        #expect(refused.stderr.contains("more than the context budget of 4") && refused.stderr.contains("096 tokens; nothing was cut or sent"),
                "\(refused.stderr)")
        #expect(!refused.stderr.contains("with"), "no file named")
        #expect(try await TestServer.shared.requests(containing: marker).isEmpty, "nothing was sent")
    }

    @Test("agent-cli --attach with an image: OpenAI gets an image_url data URI, Ollama an images entry, beside the text")
    func imagesOnTheWire() async throws {
        let png = try image("chart.png", ["-size", "8x8", "xc:navy"])
        let base64 = try Data(contentsOf: png).base64EncodedString()
        let server = TestServer.shared
        let openAI = uniqueMarker()
        let sent = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(openAI)"), "--attach", png.path, "What is this?"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let body = try #require(try await server.requests(containing: openAI).first?["body"] as? [String: Any])
        let content = try #require((body["messages"] as? [[String: Any]])?.last?["content"] as? [[String: Any]])
        #expect(content.first?["type"] as? String == "text" && content.first?["text"] as? String == "What is this?")
        #expect((content.last?["image_url"] as? [String: Any])?["url"] as? String == "data:image/png;base64,\(base64)")

        let ollama = uniqueMarker()
        let viaOllama = try await ProductRunner.run("agent-cli", ["--server", server.url("ollama-echo/\(ollama)"), "--protocol", "ollama",
                                                                  "--model", "llava", "--attach", png.path, "What is this?"])
        #expect(viaOllama.status == 0, "\(viaOllama.stderr)")
        let ollamaBody = try #require(try await server.requests(containing: ollama).first?["body"] as? [String: Any])
        let message = try #require((ollamaBody["messages"] as? [[String: Any]])?.last)
        #expect(message["content"] as? String == "What is this?" && message["images"] as? [String] == [base64])
    }
}
