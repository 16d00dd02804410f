import Foundation
import TestSupport

/// The desktop's default app for text files, in this test session's own XDG folders: a
/// script that records the file it was asked to open. Registered before GTK starts
/// (GtkTestHarness), so GIO's first look at the installed apps finds it.
enum TestOpener {
    static let record: URL = {
        let data = URL(filePath: ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? NSTemporaryDirectory())
        let config = URL(filePath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSTemporaryDirectory())
        let record = data.appending(path: "opened-\(UUID().uuidString)")
        let script = data.appending(path: "agent-test-opener")
        let applications = data.appending(path: "applications")
        try? FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try? ExecutableScript.write("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(record.path)'\n", to: script)
        try? "[Desktop Entry]\nType=Application\nName=Test Opener\nExec=\(script.path) %f\nMimeType=text/plain;text/markdown;\n"
            .write(to: applications.appending(path: "agent-test-opener.desktop"), atomically: true, encoding: .utf8)
        try? FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try? "[Default Applications]\ntext/plain=agent-test-opener.desktop;\ntext/markdown=agent-test-opener.desktop;\n"
            .write(to: config.appending(path: "mimeapps.list"), atomically: true, encoding: .utf8)
        return record
    }()

    /// The files opened so far.
    static func opened() -> [String] {
        ((try? String(contentsOf: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
