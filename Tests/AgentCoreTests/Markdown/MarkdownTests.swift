import AgentCore
import Testing

@Suite("Markdown: parsing, safe markup, streaming blocks")
struct MarkdownTests {
    @Test func blocksAndInlines() {
        let blocks = MarkdownParser.parse("""
            # Title *with* style

            Some **bold**, _italic_, `code`, ~~gone~~ and a [link](https://example.com).
            Soft line.

            - one
            - [x] done
            - [ ] todo

            3. third
            4. fourth

            > quoted

            ---

            | a | b |
            |---|:-:|
            | 1 | **2** |

            ```swift
            let x = 1

            print(x)
            ```
            """)
        #expect(blocks.count == 8)
        #expect(blocks[0] == .heading(level: 1, [.text("Title "), .emphasis([.text("with")]), .text(" style")]))
        guard case .paragraph(let inlines) = blocks[1] else {
            Issue.record("expected a paragraph, got \(blocks[1])")
            return
        }
        #expect(inlines.contains(.strong([.text("bold")])))
        #expect(inlines.contains(.emphasis([.text("italic")])))
        #expect(inlines.contains(.code("code")))
        #expect(inlines.contains(.strikethrough([.text("gone")])))
        #expect(inlines.contains(.link(url: "https://example.com", [.text("link")])))
        #expect(inlines.contains(.softBreak))
        #expect(blocks[2] == .list(ordered: false, start: 0, items: [
            MarkdownListItem(blocks: [.paragraph([.text("one")])]),
            MarkdownListItem(blocks: [.paragraph([.text("done")])], checked: true),
            MarkdownListItem(blocks: [.paragraph([.text("todo")])], checked: false),
        ]))
        #expect(blocks[3] == .list(ordered: true, start: 3, items: [MarkdownListItem(blocks: [.paragraph([.text("third")])]),
                                                                   MarkdownListItem(blocks: [.paragraph([.text("fourth")])])]))
        #expect(blocks[4] == .quote([.paragraph([.text("quoted")])]))
        #expect(blocks[5] == .rule)
        #expect(blocks[6] == .table(header: [[.text("a")], [.text("b")]], rows: [[[.text("1")], [.strong([.text("2")])]]]))
        #expect(blocks[7] == .code(language: "swift", text: "let x = 1\n\nprint(x)"))
    }

    @Test("Model text can never become Pango markup", arguments: [
        ("<span foreground=\"red\">x</span>", "&lt;span foreground=&quot;red&quot;&gt;x&lt;/span&gt;",
         "&lt;span foreground=&quot;red&quot;&gt;x&lt;/span&gt;"),
        ("Tom & Jerry's <b>", "Tom &amp; Jerry&#39;s &lt;b&gt;", "Tom &amp; Jerry&#39;s &lt;b&gt;"),
        // Markdown reads entities as the characters they name; the result is escaped again.
        ("&amp; &#x3C;i&#x3E;", "&amp;amp; &amp;#x3C;i&amp;#x3E;", "&amp; &lt;i&gt;"),
    ])
    func hostileText(input: String, escaped: String, expected: String) {
        let blocks = MarkdownParser.parse(input)
        let inlines: [MarkdownInline]
        switch blocks.first {
        case .paragraph(let runs): inlines = runs
        case .html(let html): inlines = [.html(html)]
        default: inlines = [.text(input)]
        }
        #expect(PangoMarkup.markup(inlines) == expected)
        #expect(PangoMarkup.escape(input) == escaped)
    }

    @Test func linksOnlyForWebAndMail() {
        #expect(PangoMarkup.markup([.link(url: "https://a.b/?x=1&y=\"2\"", [.text("ok")])])
                == "<a href=\"https://a.b/?x=1&amp;y=&quot;2&quot;\">ok</a>")
        #expect(PangoMarkup.markup([.link(url: "javascript:alert(1)", [.text("no")])]) == "no")
        #expect(PangoMarkup.markup([.link(url: "file:///etc/passwd", [.text("no")])]) == "no")
    }

    @Test("Raw HTML from the model is kept as text")
    func rawHTML() {
        #expect(MarkdownParser.parse("<div onclick=x>hi</div>") == [.html("<div onclick=x>hi</div>")])
    }

    @Test("Streaming: blocks end at blank lines, but not inside a code fence")
    func splitter() {
        var splitter = MarkdownBlockSplitter()
        #expect(splitter.advance("First para") == 0)
        #expect(splitter.advance("First para\n\nSecond") == "First para\n\n".utf8.count)
        let fenced = "First para\n\n```\ncode\n\nmore code\n"
        #expect(splitter.advance(fenced) == "First para\n\n".utf8.count, "a blank line inside a fence ends nothing")
        let closed = fenced + "```\n\nAfter"
        #expect(splitter.advance(closed) == (fenced + "```\n\n").utf8.count)
    }

    @Test("Growing the text a character at a time finds the same boundary as all at once")
    func splitterIncremental() {
        let text = "# H\n\nPara one.\n\n~~~py\nx = 1\n\ny = 2\n~~~\n\n- a\n- b\n\n\nEnd 👋 of it\n\nTail"
        var whole = MarkdownBlockSplitter()
        let expected = whole.advance(text)
        var step = MarkdownBlockSplitter()
        var prefix = ""
        var last = 0
        for character in text {
            prefix.append(character)
            let boundary = step.advance(prefix)
            #expect(boundary >= last)
            last = boundary
        }
        #expect(last == expected)
        #expect(String(decoding: Array(text.utf8)[expected...], as: UTF8.self) == "Tail")
    }
}
