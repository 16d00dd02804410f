import AgentCore
import CGtk
import TextLayout

/// Builds widgets for Markdown blocks: labels with escaped Pango markup for text, a
/// highlighted `CodeBlockView` for code, boxes for lists and quotes, a grid for tables.
@MainActor
struct MarkdownWidgets {
    /// Copies a code block's text (the row shows a "Copied" notice).
    let copyCode: @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void
    /// Code blocks made, for tests and the row's accessibility.
    private(set) var codeBlocks: [CodeBlockView] = []

    init(copyCode: @escaping @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void) {
        self.copyCode = copyCode
    }

    mutating func widgets(for blocks: [MarkdownBlock]) -> [UnsafeMutablePointer<GtkWidget>] {
        blocks.map { widget(for: $0) }
    }

    private mutating func widget(for block: MarkdownBlock) -> UnsafeMutablePointer<GtkWidget> {
        switch block {
        case .paragraph(let inlines):
            let groups = LineGroups.split(inlines)
            guard groups.count > 1 else { return Self.label(markup: Self.markup(inlines), classes: ["message-text"]) }
            return StackedLabel.make(markups: groups.map(Self.markup), classes: ["message-text"])
        case .heading(let level, let inlines):
            return Self.label(markup: Self.markup(inlines), classes: ["message-text", "md-heading", "md-h\(min(level, 4))"])
        case .code(let language, let text):
            let view = CodeBlockView(language: language, code: text, onCopy: copyCode)
            codeBlocks.append(view)
            return view.widget
        case .list(let ordered, let start, let items):
            let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
            GtkText.addClasses(box, "md-list")
            for (index, item) in items.enumerated() {
                let row: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
                let marker: String = switch item.checked {
                case .some(true): "☑"
                case .some(false): "☐"
                case .none: ordered ? "\(start + index)." : "•"
                }
                let bullet = Self.label(markup: PangoMarkup.escape(marker), classes: ["md-bullet"], narrowAsText: true)
                gtk_widget_set_valign(bullet, GTK_ALIGN_START)
                let content: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
                gtk_widget_set_hexpand(content, 1)
                for child in widgets(for: item.blocks) { gtk_box_append(content.cast(), child) }
                gtk_box_append(row.cast(), bullet)
                gtk_box_append(row.cast(), content)
                gtk_box_append(box.cast(), row)
            }
            return box
        case .quote(let blocks):
            let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
            GtkText.addClasses(box, "md-quote")
            for child in widgets(for: blocks) { gtk_box_append(box.cast(), child) }
            return box
        case .table(let header, let rows):
            let grid: UnsafeMutablePointer<GtkWidget> = gtk_grid_new()
            GtkText.addClasses(grid, "md-table")
            gtk_grid_set_column_spacing(grid.cast(), 12)
            gtk_grid_set_row_spacing(grid.cast(), 4)
            for (column, cell) in header.enumerated() {
                gtk_grid_attach(grid.cast(), Self.label(markup: "<b>\(Self.markup(cell))</b>", classes: ["md-cell"], narrowAsText: true),
                                Int32(column), 0, 1, 1)
            }
            for (rowIndex, row) in rows.enumerated() {
                for (column, cell) in row.enumerated() {
                    gtk_grid_attach(grid.cast(), Self.label(markup: Self.markup(cell), classes: ["md-cell"], narrowAsText: true),
                                    Int32(column), Int32(rowIndex + 1), 1, 1)
                }
            }
            return grid
        case .rule:
            let separator: UnsafeMutablePointer<GtkWidget> = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)
            GtkText.addClasses(separator, "md-rule")
            return separator
        case .html(let html):
            return Self.label(markup: PangoMarkup.escape(html), classes: ["message-text", "md-html"])
        }
    }

    static func markup(_ inlines: [MarkdownInline]) -> String {
        PangoMarkup.markup(inlines)
    }

    /// A label of message text. `narrowAsText`: a table cell or a list bullet keeps GTK's
    /// own minimum width (its longest word), so a table of several columns still fits a
    /// phone; other text is measured at `StackedLabel.minimumWidthChars`.
    static func label(markup: String, classes: [String], narrowAsText: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
        let label = StackedLabel.makeLabel(classes: classes)
        if narrowAsText {
            gtk_label_set_markup(label.opaque, markup)
        } else {
            StackedLabel.setMarkup(markup, of: label)
        }
        return label
    }
}
