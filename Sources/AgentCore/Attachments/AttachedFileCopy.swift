import FoundationEssentials

extension AttachedFile {
    /// The file written out for the desktop's default app to open (a sent message's file,
    /// clicked): `$XDG_CACHE_HOME/<app>/attachments/<digest>/<name>`, 0600, written once
    /// per content. Names are reduced to their last component, so a stored name cannot
    /// point elsewhere.
    public func openableCopy(in cache: URL = AppIdentity.cacheDirectory) throws -> URL {
        let folder = cache.appending(path: "attachments").appending(path: digest)
        var safeName = URL(filePath: name).lastPathComponent
        if safeName.isEmpty || safeName == "." || safeName == ".." || safeName == "/" { safeName = "attachment" }
        if kind == .image, URL(filePath: safeName).pathExtension.lowercased() != (mediaType == "image/jpeg" ? "jpg" : "png") {
            safeName += mediaType == "image/jpeg" ? ".jpg" : ".png"
        }
        let file = folder.appending(path: safeName)
        if let existing = try? Data(contentsOf: file), existing == data { return file }
        try PrivateFiles.prepareFile(file)
        try data.write(to: file)
        return file
    }
}
