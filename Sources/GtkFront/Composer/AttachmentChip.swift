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
        gtk_widget_set_halign(card, GTK_ALIGN_START)
        gtk_box_append(card.cast(), content(file))
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("window-close-symbolic")
        GtkText.addClasses(button, "flat", "circular", "attachment-remove")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(button, tr("Remove"))
        agent_accessible_set_label(button, tr("Remove %s", file.name))
        Signals.connect(button.raw, "clicked") { remove() }
        gtk_box_append(card.cast(), button)
        return card
    }

    /// A card that opens the file when clicked (a sent message's).
    static func openable(_ file: AttachedFile, open: @escaping @MainActor (UnsafeMutablePointer<GtkWidget>) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new()
        GtkText.addClasses(button, "attachment-chip", "attachment-open")
        gtk_widget_set_halign(button, GTK_ALIGN_END)
        gtk_button_set_child(button.cast(), content(file))
        agent_widget_set_tooltip_text(button, tr("Open “%s”", file.name))
        agent_accessible_set_label(button, tr("%1$s, %2$s", file.name, ByteCountText.describe(file.byteCount)))
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
        gtk_box_append(card.cast(), gtk_label_new(trn("Reading a file…", "Reading %d files…", count)))
        return card
    }

    private static func content(_ file: AttachedFile) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_box_append(box.cast(), preview(file))
        let labels: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_set_valign(labels, GTK_ALIGN_CENTER)
        let name: UnsafeMutablePointer<GtkWidget> = gtk_label_new(file.name)
        gtk_label_set_ellipsize(name.opaque, PANGO_ELLIPSIZE_MIDDLE)
        // As wide as the name up to 22 characters, also where space is short (a bubble).
        gtk_label_set_max_width_chars(name.opaque, 22)
        gtk_label_set_width_chars(name.opaque, Int32(min(file.name.count, 22)))
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
        if file.kind == .image, let texture = texture(for: file) {
            // An image of a paintable is drawn at its pixel size, the picture scaled into it.
            let thumbnail: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_paintable(OpaquePointer(texture))
            gtk_image_set_pixel_size(thumbnail.opaque, 32)
            GtkText.addClasses(thumbnail, "attachment-thumbnail")
            gtk_widget_set_overflow(thumbnail, GTK_OVERFLOW_HIDDEN)
            return thumbnail
        }
        let icon = file.mediaType == "application/pdf" ? "x-office-document-symbolic"
            : file.kind == .image ? "image-x-generic-symbolic" : "text-x-generic-symbolic"
        let image: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name(icon)
        gtk_image_set_pixel_size(image.opaque, 24)
        gtk_widget_set_size_request(image, 32, 32)
        return image
    }

    /// Decoded images by digest, so that a row shown again does not decode its images
    /// again; a few dozen are kept (the cache holds a reference to each).
    private static var textures: [String: UnsafeMutableRawPointer] = [:]

    private static func texture(for file: AttachedFile) -> UnsafeMutableRawPointer? {
        if let cached = textures[file.digest] { return cached }
        let bytes = file.data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        let made = gdk_texture_new_from_bytes(bytes, &error)
        g_clear_error(&error)
        guard let texture = made.map({ UnsafeMutableRawPointer($0) }) else { return nil }
        if textures.count >= 48 {
            for old in textures.values { g_object_unref(old) }
            textures.removeAll()
        }
        textures[file.digest] = texture
        return texture
    }
}
