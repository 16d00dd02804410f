/// The main window's state, restored at the next start.
extension SettingsStore {
    /// The main window's size when it was last closed.
    public var windowSize: (width: Int, height: Int)? {
        get {
            guard let width = string("window", "width").flatMap(Int.init), let height = string("window", "height").flatMap(Int.init),
                  width >= 360, height >= 300 else { return nil }
            return (width, height)
        }
        set {
            set(newValue.map { String($0.width) }, "window", "width")
            set(newValue.map { String($0.height) }, "window", "height")
        }
    }

    public var windowMaximized: Bool {
        get { string("window", "maximized") == "true" }
        set { set(newValue ? "true" : nil, "window", "maximized") }
    }
}
