import AgentCore
import CGtk

/// Which of its versions a message is, under it: `‹ 2/3 ›`. The buttons run the row's
/// `row.previous-version` and `row.next-version` actions, so they are off whenever those
/// are (at the ends, while a reply streams). Hidden when the message has no other version.
@MainActor
final class VersionSwitcher {
    /// Where a message is among its versions (from 1), and how many there are.
    struct Place: Equatable {
        let position: Int
        let count: Int
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    let previousButton: UnsafeMutablePointer<GtkWidget>
    let nextButton: UnsafeMutablePointer<GtkWidget>
    /// "2/3".
    let label: UnsafeMutablePointer<GtkWidget>
    private var shown: Place?

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        GtkText.addClasses(widget, "version-switcher")
        previousButton = Self.button(icon: "go-previous-symbolic", name: tr("Previous Version"), action: "row.previous-version")
        nextButton = Self.button(icon: "go-next-symbolic", name: tr("Next Version"), action: "row.next-version")
        label = gtk_label_new(nil)
        GtkText.addClasses(label, "version-position", "dim-label")
        for child in [previousButton, label, nextButton] { gtk_box_append(widget.cast(), child) }
        gtk_widget_set_visible(widget, 0)
    }

    private static func button(icon: String, name: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name(icon)
        GtkText.addClasses(button, "flat", "copy-button")
        agent_widget_set_tooltip_text(button, name)
        agent_accessible_set_label(button, name)
        gtk_actionable_set_action_name(button.opaque, action)
        return button
    }

    /// The text shown ("2/3"; empty when hidden).
    var text: String { String(cString: gtk_label_get_text(label.opaque)) }

    /// Shows `place`, or hides the switcher when nil.
    func show(_ place: Place?) {
        guard place != shown else { return }
        shown = place
        gtk_widget_set_visible(widget, place == nil ? 0 : 1)
        guard let place else {
            gtk_label_set_text(label.opaque, "")
            return
        }
        gtk_label_set_text(label.opaque, "\(place.position)/\(place.count)")
        let spoken = tr("Version %1$s of %2$s", UserLocale.number(place.position), UserLocale.number(place.count))
        agent_widget_set_tooltip_text(label, spoken)
        agent_accessible_set_description(label, spoken)
    }
}
