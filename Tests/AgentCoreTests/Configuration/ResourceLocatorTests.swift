@testable import AgentCore
import Foundation
import Testing

/// A build run from the tree shows its icons through the desktop's data path, which GTK reads
/// once at start (the icon theme, on a background thread).
@Suite("Resources of a build run from the tree")
struct ResourceLocatorTests {
    @Test("The icons' data folder holds the app's icon where GTK's hicolor theme looks for it")
    func iconDataFolder() throws {
        let folder = try #require(ResourceLocator.sourceTreeIconData)
        let icon = folder.appending(path: "icons/hicolor/scalable/apps/\(AppIdentity.applicationID).svg")
        #expect(FileManager.default.fileExists(atPath: icon.path), "no \(icon.path)")
    }

    @Test("XDG_DATA_DIRS gets the folder first, before what it had or the XDG default")
    func dataDirectories() {
        let folder = URL(filePath: "/src/agent/.build/share", directoryHint: .isDirectory)
        #expect(ResourceLocator.dataDirectories("/opt/share:/usr/share", prepending: folder) == "/src/agent/.build/share:/opt/share:/usr/share")
        #expect(ResourceLocator.dataDirectories(nil, prepending: folder) == "/src/agent/.build/share:/usr/local/share:/usr/share")
        #expect(ResourceLocator.dataDirectories("", prepending: folder) == "/src/agent/.build/share:/usr/local/share:/usr/share")
    }
}
