import AgentCore
import FuzzSupport

/// The Markdown side never crashes on any reply: cmark-gfm's parse, the markup the window
/// gets, and the splitter that finds finished blocks while a reply streams — which must find
/// the same boundary whether the text grew piece by piece or arrived at once.
func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let text = input.text
    for block in MarkdownParser.parse(text) { render(block) }

    let escaped = PangoMarkup.escape(text)
    fuzzRequire(!escaped.contains("<") && !escaped.contains(">"), "escaped text still holds markup")

    var atOnce = MarkdownBlockSplitter()
    let boundary = atOnce.advance(text)
    // The reply grows by whole characters, as the decoders deliver it; piece sizes as the input's.
    let scalars = Array(text.unicodeScalars)
    var growing = MarkdownBlockSplitter()
    var grown = String.UnicodeScalarView()
    var consumed = 0
    var last = 0
    for piece in input.pieces where consumed < scalars.count {
        let end = min(scalars.count, consumed + piece.count)
        grown.append(contentsOf: scalars[consumed..<end])
        consumed = end
        let next = growing.advance(String(grown))
        fuzzRequire(next >= last, "the boundary moved back")
        last = next
    }
    if !input.bytes.isEmpty {
        fuzzRequire(last == boundary, "the boundary depends on how the text grew")
    }
    fuzzRequire(boundary <= text.utf8.count, "the boundary is past the end")
    return 0
}

private func render(_ block: MarkdownBlock) {
    switch block {
    case .paragraph(let inlines), .heading(_, let inlines):
        _ = PangoMarkup.markup(inlines)
    case .list(_, _, let items):
        for item in items { item.blocks.forEach(render) }
    case .quote(let blocks):
        blocks.forEach(render)
    case .table(let header, let rows):
        for cell in header + rows.flatMap({ $0 }) { _ = PangoMarkup.markup(cell) }
    case .code, .rule, .html:
        break
    }
}
