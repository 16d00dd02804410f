import Testing

/// Every window test, one at a time: they share one X display, its keyboard focus, the
/// clipboard and GTK's settings.
@Suite("GTK under Xvfb", .serialized)
enum GtkSuites {}
