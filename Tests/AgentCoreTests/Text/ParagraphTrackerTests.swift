import AgentCore
import Testing

@Suite("Paragraphs of a growing reply")
struct ParagraphTrackerTests {
    @Test func splitsAtBlankLines() {
        var tracker = ParagraphTracker()
        #expect(tracker.update(with: "one\n\ntwo\nlines\n\n\nthree") == 0)
        #expect(tracker.paragraphs == ["one", "two\nlines", "three"])
    }

    @Test func growingTextChangesOnlyTheLastParagraphs() {
        var tracker = ParagraphTracker()
        _ = tracker.update(with: "first para")
        #expect(tracker.update(with: "first paragraph\n") == 0)
        #expect(tracker.update(with: "first paragraph\n\nsec") == 0, "the blank line completes at the first")
        #expect(tracker.paragraphs == ["first paragraph", "sec"])
        #expect(tracker.update(with: "first paragraph\n\nsecond") == 1)
        #expect(tracker.update(with: "first paragraph\n\nsecond") == nil, "no change, no work")
        #expect(tracker.paragraphs == ["first paragraph", "second"])
    }

    @Test func incrementalAndWholeAgree() {
        let text = "Intro line.\n\n- a\n- b\n\n\n```\ncode\n\nmore\n```\nend 👋\n"
        var incremental = ParagraphTracker()
        var prefix = ""
        for character in text {
            prefix.append(character)
            _ = incremental.update(with: prefix)
        }
        var whole = ParagraphTracker()
        _ = whole.update(with: text)
        #expect(incremental.paragraphs == whole.paragraphs)
    }

    @Test func shorterTextStartsOver() {
        var tracker = ParagraphTracker()
        _ = tracker.update(with: "a long first message\n\nwith two paragraphs")
        #expect(tracker.update(with: "new") == 0)
        #expect(tracker.paragraphs == ["new"])
    }
}

@Suite("Wrappable display text")
struct WrappableTextTests {
    @Test func shortWordsAreUntouched() {
        let text = "A normal sentence with ordinary words."
        #expect(WrappableText.make(text) == text)
    }

    @Test func longRunsGetBreakOpportunitiesAndNothingElseChanges() {
        let url = "https://example.com/" + String(repeating: "abcdef", count: 20)
        let shown = WrappableText.make("see \(url) now", limit: 32)
        #expect(shown.filter { $0 != WrappableText.zeroWidthSpace } == "see \(url) now")
        let runs = shown.split(whereSeparator: { $0 == " " || $0 == WrappableText.zeroWidthSpace })
        #expect(runs.allSatisfy { $0.count <= 32 })
    }
}
