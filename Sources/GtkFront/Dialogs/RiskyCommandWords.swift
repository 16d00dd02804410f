import AgentCore
import CGtk

/// The words of a command line that deserve a second look before it runs with the user's
/// rights: gaining privileges (`sudo`), deleting or overwriting (`rm -rf`, `dd`, `mkfs`),
/// code handed over as text (`bash -c`, `curl … | sh`), and system or private paths
/// (`/etc`, `~/.ssh`). A reading aid for the launch question, not a filter: anything can
/// be harmful, and these are only the words a careful reader would stop at.
enum RiskyCommandWords {
    /// Programs that act with more rights, or destroy or rewrite data or permissions.
    private static let commands: Set<String> = [
        "sudo", "su", "doas", "pkexec", "rm", "dd", "shred", "wipefs", "mkfs", "mkswap", "fdisk", "sfdisk", "parted",
        "chmod", "chown", "chgrp", "eval",
    ]
    /// Shells: `-c` runs the text that follows.
    private static let shells: Set<String> = ["sh", "bash", "zsh", "dash", "ksh", "fish"]
    /// Interpreters and the options that run the text that follows.
    private static let interpreters: [String: Set<String>] = [
        "python": ["-c"], "python3": ["-c"], "python2": ["-c"], "node": ["-e", "--eval", "-p", "--print"],
        "perl": ["-e", "-E"], "ruby": ["-e"], "php": ["-r"], "osascript": ["-e"],
    ]
    private static let downloaders: Set<String> = ["curl", "wget"]
    /// Folders of keys and credentials under a home folder.
    private static let privateFolders = [".ssh", ".gnupg", ".aws", ".kube", ".docker", ".netrc", ".password-store"]
    private static let systemFolders = ["/etc", "/boot", "/root", "/sys"]
    /// The user's home folder.
    static var userHome: String { AppIdentity.homeDirectory.path }

    private static let harmlessDevices: Set<String> = ["/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr",
                                                       "/dev/random", "/dev/urandom", "/dev/tty"]

    /// A word of the command line: where it is, and its text without quotes.
    private struct Word {
        let range: Range<String.Index>
        let text: String
        var isOperator: Bool { text == "|" || text == ";" || text == "&" || text == "&&" || text == "||" }
        /// The program name a path names (`/usr/bin/sudo` → `sudo`; `mkfs.ext4` → `mkfs`).
        var program: String {
            let name = text.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? text
            return name.hasPrefix("mkfs.") ? "mkfs" : name
        }
        var isOption: Bool { text.hasPrefix("-") && text.count > 1 }
    }

    /// The ranges of `commandLine` to highlight, in order, none overlapping. Paths in `home`
    /// (the user's own folder) are theirs to give, but for its folders of keys.
    static func ranges(in commandLine: String, home: String = userHome) -> [Range<String.Index>] {
        let words = split(commandLine)
        var found: [Range<String.Index>] = []
        var pipesToShell: [Int] = []
        for (index, word) in words.enumerated() {
            let program = word.program
            if commands.contains(program) {
                // `rm -rf`, `chmod -R`: the options belong to the warning.
                found.append(word.range.lowerBound..<(options(after: index, in: words).last ?? word).range.upperBound)
            } else if shells.contains(program) || interpreters[program] != nil {
                let runsText = options(after: index, in: words).last { option in
                    if shells.contains(program) { return !option.text.hasPrefix("--") && option.text.contains("c") }
                    return interpreters[program]?.contains(option.text) ?? false
                }
                if let runsText { found.append(word.range.lowerBound..<runsText.range.upperBound) }
            }
            if word.text == "|", index + 1 < words.count {
                let next = words[index + 1].program
                if shells.contains(next) || interpreters[next] != nil {
                    found.append(word.range.lowerBound..<words[index + 1].range.upperBound)
                    pipesToShell.append(index)
                }
            }
            if let path = riskyPath(in: word, of: commandLine, home: home) { found.append(path) }
        }
        // What a download is piped into is run as it arrives: the download is part of it.
        for pipe in pipesToShell {
            for word in words[..<pipe].reversed() {
                if word.isOperator && word.text != "|" { break }
                if downloaders.contains(word.program) { found.append(word.range) }
            }
        }
        return merged(found)
    }

    /// Environment variables that change which code a program loads (`LD_PRELOAD`, …).
    static func isRisky(variable name: String) -> Bool {
        ["LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "PATH", "PYTHONPATH", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT",
         "RUBYOPT", "BASH_ENV", "ENV", "PROMPT_COMMAND"].contains(name)
    }

    /// `commandLine` as Pango markup, escaped, with the risky words wrapped in `<span attributes>`.
    static func markup(_ commandLine: String, spanAttributes: String, home: String = userHome) -> String {
        var markup = ""
        var position = commandLine.startIndex
        for range in ranges(in: commandLine, home: home) {
            markup += PangoMarkup.escape(String(commandLine[position..<range.lowerBound]))
            markup += "<span \(spanAttributes)>" + PangoMarkup.escape(String(commandLine[range])) + "</span>"
            position = range.upperBound
        }
        return markup + PangoMarkup.escape(String(commandLine[position...]))
    }

    /// The options right after word `index` (`-r`, `-f` after `rm`).
    private static func options(after index: Int, in words: [Word]) -> ArraySlice<Word> {
        let start = index + 1
        var end = start
        while end < words.count, words[end].isOption { end += 1 }
        return words[start..<end]
    }

    /// The words of a command line as `ShellQuoting` writes it, without their quotes: split
    /// at blanks and at `|`, `;` and `&` — inside quotes too, so that the words of a quoted
    /// script (`bash -c 'curl … | sh'`) are read as well.
    private static func split(_ text: String) -> [Word] {
        var words: [Word] = []
        var start: String.Index?
        var index = text.startIndex
        func close(at end: String.Index) {
            guard let begin = start else { return }
            start = nil
            var bare = text[begin..<end]
            if bare.hasPrefix("$'") { bare = bare.dropFirst(2) }
            while let first = bare.first, first == "'" || first == "\"" { bare = bare.dropFirst() }
            while let last = bare.last, last == "'" || last == "\"" { bare = bare.dropLast() }
            if !bare.isEmpty { words.append(Word(range: bare.startIndex..<bare.endIndex, text: String(bare))) }
        }
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                close(at: index)
            } else if character == "|" || character == ";" || character == "&" {
                close(at: index)
                var end = text.index(after: index)
                if end < text.endIndex, text[end] == character, character != ";" { end = text.index(after: end) }
                words.append(Word(range: index..<end, text: String(text[index..<end])))
                index = end
                continue
            } else if start == nil {
                start = index
            }
            index = text.index(after: index)
        }
        close(at: text.endIndex)
        return words
    }

    /// The part of `word` that names a system folder, a device or a folder of keys — the
    /// whole word, or the value after `=` in `--root=/etc`.
    private static func riskyPath(in word: Word, of text: String, home: String) -> Range<String.Index>? {
        if let equals = text[word.range].firstIndex(of: "=") {
            let value = text.index(after: equals)..<word.range.upperBound
            return !value.isEmpty && isRisky(path: String(text[value]), home: home) ? value : nil
        }
        return isRisky(path: word.text, home: home) ? word.range : nil
    }

    private static func isRisky(path: String, home: String) -> Bool {
        if path.split(separator: "/").contains(where: { privateFolders.contains(String($0)) }) { return true }
        if !home.isEmpty, home != "/", path == home || path.hasPrefix(home + "/") { return false }
        if path == "/" || path == "/*" { return true }
        if path.hasPrefix("/dev/") { return !harmlessDevices.contains(path) }
        return systemFolders.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// Sorted, with overlapping or touching ranges joined.
    private static func merged(_ ranges: [Range<String.Index>]) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
