// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Agent",
    products: [
        .executable(name: "agent", targets: ["agent"]),
        .executable(name: "agent-cli", targets: ["agent-cli"]),
        // For the fuzz targets in Fuzz/ (a package of their own, built instrumented).
        .library(name: "AgentCore", targets: ["AgentCore"]),
    ],
    targets: [
        // GTK 4 and libadwaita (which brings GTK with it).
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]
        ),
        // libcurl's headers (libcurl4-openssl-dev) and a table of its functions: the library
        // itself is loaded on first use (see CCurl.h).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CMarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .systemLibrary(
            name: "CGtkSourceView",
            pkgConfig: "gtksourceview-5",
            providers: [.apt(["libgtksourceview-5-dev"])]
        ),
        .systemLibrary(
            name: "CSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // poppler-glib's headers are not needed: the library is loaded on first use (see its shim).
        .systemLibrary(
            name: "CPoppler",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libpoppler-glib-dev"])]
        ),
        // gdk-pixbuf, for attached images, is likewise loaded on first use (see its shim).
        .systemLibrary(
            name: "CPixbuf",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev", "webp-pixbuf-loader"])]
        ),
        // speech-dispatcher's client, for reading replies aloud: its header only, the library is
        // loaded on first use (see its shim).
        .systemLibrary(
            name: "CSpeech",
            providers: [.apt(["libspeechd-dev"])]
        ),
        // gettext (glibc's libintl) for the translations in po/.
        .systemLibrary(name: "CIntl"),
        .target(name: "CProcess"),
        .target(
            name: "AgentCore",
            dependencies: ["CCurl", "CProcess", "CIntl", "CGLib", "CSQLite", "CMarkGFM", "CSecret", "CPoppler", "CPixbuf",
                           "CSpeech"]
        ),
        // How the transcript lays long text out (label-sized groups, limits): GTK-free.
        .target(name: "TextLayout", dependencies: ["AgentCore"]),
        .target(
            name: "GtkFront",
            dependencies: ["AgentCore", "TextLayout", "CGtk", "CGtkSourceView"]
        ),
        .executableTarget(name: "agent", dependencies: ["GtkFront", "AgentCore"]),
        .executableTarget(name: "agent-cli", dependencies: ["AgentCore", "CProcess"]),
        .target(name: "TestSupport", dependencies: ["AgentCore"], path: "Tests/TestSupport"),
        .testTarget(name: "AgentCoreTests", dependencies: ["AgentCore", "TextLayout", "TestSupport"]),
        .testTarget(name: "GtkFrontTests", dependencies: ["GtkFront", "AgentCore", "TextLayout", "CGtk", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
