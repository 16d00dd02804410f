import CMarkGFM

/// Parses Markdown with cmark-gfm (CommonMark plus GitHub's tables, strikethrough,
/// autolinks and task lists) into `MarkdownBlock`s.
public enum MarkdownParser {
    public static func parse(_ text: String) -> [MarkdownBlock] {
        var copy = text
        return copy.withUTF8 { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
            guard let document = agent_markdown_parse(base, bytes.count) else { return [] }
            defer { cmark_node_free(document) }
            return blocks(under: document)
        }
    }

    private static func children(of node: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            result.append(current)
            child = cmark_node_next(current)
        }
        return result
    }

    private static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    private static func typeName(_ node: OpaquePointer) -> String {
        cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }

    private static func blocks(under node: OpaquePointer) -> [MarkdownBlock] {
        children(of: node).compactMap(block)
    }

    private static func block(_ node: OpaquePointer) -> MarkdownBlock? {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_PARAGRAPH:
            return .paragraph(inlines(under: node))
        case CMARK_NODE_HEADING:
            return .heading(level: Int(cmark_node_get_heading_level(node)), inlines(under: node))
        case CMARK_NODE_CODE_BLOCK:
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            let language = info.split(separator: " ").first.map(String.init)
            var code = literal(node)
            if code.hasSuffix("\n") { code.removeLast() }
            return .code(language: language?.isEmpty == false ? language : nil, text: code)
        case CMARK_NODE_LIST:
            let items = children(of: node).map { item in
                MarkdownListItem(blocks: blocks(under: item),
                                 checked: typeName(item) == "tasklist" ? agent_markdown_task_checked(item) != 0 : nil)
            }
            return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                         start: Int(cmark_node_get_list_start(node)), items: items)
        case CMARK_NODE_BLOCK_QUOTE:
            return .quote(blocks(under: node))
        case CMARK_NODE_THEMATIC_BREAK:
            return .rule
        case CMARK_NODE_HTML_BLOCK:
            var html = literal(node)
            if html.hasSuffix("\n") { html.removeLast() }
            return .html(html)
        default:
            if typeName(node) == "table" { return table(node) }
            let nested = blocks(under: node)
            return nested.isEmpty ? nil : .quote(nested)
        }
    }

    private static func table(_ node: OpaquePointer) -> MarkdownBlock {
        var header: [[MarkdownInline]] = []
        var rows: [[[MarkdownInline]]] = []
        for row in children(of: node) {
            let cells = children(of: row).map { inlines(under: $0) }
            if typeName(row) == "table_header" || (header.isEmpty && rows.isEmpty && cmark_gfm_extensions_get_table_row_is_header(row) != 0) {
                header = cells
            } else {
                rows.append(cells)
            }
        }
        return .table(header: header, rows: rows)
    }

    private static func inlines(under node: OpaquePointer) -> [MarkdownInline] {
        children(of: node).compactMap(inline)
    }

    private static func inline(_ node: OpaquePointer) -> MarkdownInline? {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT: return .text(literal(node))
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code(literal(node))
        case CMARK_NODE_HTML_INLINE: return .html(literal(node))
        case CMARK_NODE_EMPH: return .emphasis(inlines(under: node))
        case CMARK_NODE_STRONG: return .strong(inlines(under: node))
        case CMARK_NODE_LINK:
            return .link(url: cmark_node_get_url(node).map { String(cString: $0) } ?? "", inlines(under: node))
        case CMARK_NODE_IMAGE:
            return .image(url: cmark_node_get_url(node).map { String(cString: $0) } ?? "", alt: inlines(under: node).plainText)
        default:
            if typeName(node) == "strikethrough" { return .strikethrough(inlines(under: node)) }
            let nested = inlines(under: node)
            return nested.isEmpty ? nil : .text(nested.plainText)
        }
    }
}
