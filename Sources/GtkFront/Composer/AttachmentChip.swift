import AgentCore
import CGtk
import FoundationEssentials

/// One attached file as a small card: a thumbnail for an image, an icon for text and PDF,
/// the name and size. In the composer it has a button that removes it; on a sent message
/// the whole card is a button that opens the file.
@MainActor
enum AttachmentChip {
    /// A card with a Remove button (the composer's).
    static func removable(_ file: AttachedFile, remove: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let card: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        GtkText.addClasses(card, "attachment-chip")
        gtk_box_append(card.cast(), content(file))
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("window-close-symbolic")
        GtkText.addClasses(button, "flat", "circular", "attachment-remove")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(button, "Remove")
        agent_accessible_set_label(button, "Remove \(file.name)")
        Signals.connect(button.raw, "clicked") { remove() }
        gtk_box_append(card.cast(), button)
        return card
    }

    /// A card that opens the file when clicked (a sent message's).
    static func openable(_ file: AttachedFile, open: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new()
        GtkText.addClasses(button, "attachment-chip", "attachment-open")
        gtk_button_set_child(button.cast(), content(file))
        gtk_widget_set_tooltip_text(button, "Open “\(file.name)”")
        agent_accessible_set_label(button, "\(file.name), \(ByteCountText.describe(file.byteCount))")
        Signals.connect(button.raw, "clicked") { open(button) }
        return button
    }

    /// A card saying files are still being read.
    static func reading(_ count: Int) -> UnsafeMutablePointer<GtkWidget> {
        let card: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        GtkText.addClasses(card, "attachment-chip")
        let spinner: UnsafeMutablePointer<GtkWidget> = gtk_spinner_new()
        gtk_spinner_start(spinner.opaque)
        gtk_box_append(card.cast(), spinner)
        gtk_box_append(card.cast(), gtk_label_new(count == 1 ? "Reading a file…" : "Reading \(count) files…"))
        return card
    }

    private static func content(_ file: AttachedFile) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_box_append(box.cast(), preview(file))
        let labels: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_set_valign(labels, GTK_ALIGN_CENTER)
        let name: UnsafeMutablePointer<GtkWidget> = gtk_label_new(file.name)
        gtk_label_set_ellipsize(name.opaque, PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(name.opaque, 22)
        gtk_label_set_xalign(name.opaque, 0)
        GtkText.addClasses(name, "attachment-name")
        let size: UnsafeMutablePointer<GtkWidget> = gtk_label_new(ByteCountText.describe(file.byteCount))
        gtk_label_set_xalign(size.opaque, 0)
        GtkText.addClasses(size, "dim-label", "caption")
        gtk_box_append(labels.cast(), name)
        gtk_box_append(labels.cast(), size)
        gtk_box_append(box.cast(), labels)
        return box
    }

    /// The image itself, small; an icon for other files (and an image GTK cannot show).
    private static func preview(_ file: AttachedFile) -> UnsafeMutablePointer<GtkWidget> {
        if file.kind == .image, let texture = texture(file.data) {
            let picture: UnsafeMutablePointer<GtkWidget> = gtk_picture_new_for_paintable(OpaquePointer(texture))
            g_object_unref(texture)
            gtk_picture_set_content_fit(picture.opaque, GTK_CONTENT_FIT_COVER)
            gtk_widget_set_size_request(picture, 32, 32)
            GtkText.addClasses(picture, "attachment-thumbnail")
            gtk_widget_set_overflow(picture, GTK_OVERFLOW_HIDDEN)
            return picture
        }
        let icon = file.mediaType == "application/pdf" ? "x-office-document-symbolic"
            : file.kind == .image ? "image-x-generic-symbolic" : "text-x-generic-symbolic"
        let image: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name(icon)
        gtk_image_set_pixel_size(image.opaque, 24)
        gtk_widget_set_size_request(image, 32, 32)
        return image
    }

    private static func texture(_ data: Data) -> UnsafeMutableRawPointer? {
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        let texture = gdk_texture_new_from_bytes(bytes, &error)
        g_clear_error(&error)
        return texture.map { UnsafeMutableRawPointer($0) }
    }
}
