import AgentCore
import CGtk

/// `GtkStringList`s — the list models behind the transcript, the chat list and the combo
/// rows — changed a run of strings at a time.
@MainActor
enum StringLists {
    /// A new list holding `strings`.
    static func make(_ strings: [String]) -> OpaquePointer {
        CStringArray.with(strings) { gtk_string_list_new($0) }
    }

    /// Makes `list` hold `strings` with one splice of the run that differs, so the rows of
    /// the items before and after it stay as they are. `beforeRemoving` is told which items
    /// go (their rows with them) just before they do.
    static func replace(_ list: OpaquePointer, with strings: [String], beforeRemoving: ([String]) -> Void = { _ in }) {
        let count = Int(g_list_model_get_n_items(list))
        func item(_ index: Int) -> String? { gtk_string_list_get_string(list, guint(index)).map { String(cString: $0) } }
        var prefix = 0
        while prefix < min(count, strings.count), item(prefix) == strings[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(count, strings.count) - prefix, item(count - 1 - suffix) == strings[strings.count - 1 - suffix] { suffix += 1 }
        guard prefix + suffix < max(count, strings.count) else { return }
        let removed = (prefix..<(count - suffix)).compactMap(item)
        if !removed.isEmpty { beforeRemoving(removed) }
        splice(list, at: prefix, removing: removed.count, Array(strings[prefix..<(strings.count - suffix)]))
    }

    /// Replaces `count` items from `position` with `strings`: one change for the list's views.
    static func splice(_ list: OpaquePointer, at position: Int, removing count: Int, _ strings: [String]) {
        CStringArray.with(strings) { gtk_string_list_splice(list, guint(position), guint(count), $0) }
    }
}
