import FoundationEssentials

/// The files attached in the composer and not sent yet: each read off the main actor (a
/// PDF's text and an image's scaling take time), shown as chips in the order added,
/// removable until Send takes them. A file that cannot be attached is refused with the
/// reason, and the others stay.
@MainActor
public final class ComposerFiles {
    public private(set) var items: [AttachedFile] = []
    /// How many files are still being read; Send waits for them.
    public private(set) var reading = 0
    /// Told when `items` or `reading` changed.
    var onChange: (() -> Void)?
    /// Told why a file was refused.
    var onRefusal: ((String) -> Void)?

    /// Reads and adds the files at `urls`.
    public func add(_ urls: [URL]) {
        for url in urls {
            read { () throws(AttachedFile.Refusal) in try AttachedFile.read(url) }
        }
    }

    /// Adds `data` under `name` (an image pasted from the clipboard).
    public func add(data: Data, name: String) {
        read { () throws(AttachedFile.Refusal) in try AttachedFile.make(name: name, data: data) }
    }

    public func remove(at index: Int) {
        guard items.indices.contains(index) else { return }
        items.remove(at: index)
        onChange?()
    }

    /// Replaces the files (a message put back in the composer to edit or resend).
    func replace(with files: [AttachedFile]) {
        guard files != items else { return }
        items = files
        onChange?()
    }

    private typealias Reading = @Sendable () throws(AttachedFile.Refusal) -> AttachedFile

    /// Files waiting to be read, in the order they were added.
    private var queue: [Reading] = []
    private var worker: Task<Void, Never>?

    /// Reads files one after another off the main actor, so they join in the order added.
    private func read(_ work: @escaping Reading) {
        queue.append(work)
        reading += 1
        onChange?()
        guard worker == nil else { return }
        worker = Task {
            while !queue.isEmpty {
                let next = queue.removeFirst()
                let result = await Task.detached { () -> Result<AttachedFile, AttachedFile.Refusal> in
                    do throws(AttachedFile.Refusal) {
                        return .success(try next())
                    } catch {
                        return .failure(error)
                    }
                }.value
                reading -= 1
                switch result {
                case .success(let file): items.append(file)
                // TRANSLATORS: %s is why a file is not attached.
                case .failure(let refusal): onRefusal?(tr("Cannot attach: %s", refusal.description))
                }
                onChange?()
            }
            worker = nil
        }
    }
}
