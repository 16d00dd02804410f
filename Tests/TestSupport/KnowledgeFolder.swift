import Foundation

/// A generated folder of notes to ask about (Tests/Servers/make_knowledge_folder.py): the
/// same words every run, one fact in one file.
public enum KnowledgeFolder {
    /// Writes `count` files of about `size` bytes into `folder`; the file holding the fact.
    public static func make(_ folder: URL, count: Int = 1000, size: Int = 100_000) throws -> URL {
        let script = TiedProcess.serversDirectory.appending(path: "make_knowledge_folder.py")
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/python3")
        process.arguments = [script.path, folder.path, String(count), String(size)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        return URL(filePath: path)
    }
}
