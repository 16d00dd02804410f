@testable import AgentCore
import Foundation
import Testing

@Suite("Read aloud: words, their places and the SSML with marks")
struct SpokenTextTests {
    @Test("Words are the runs between white space, placed by segment in UTF-8 bytes and in scalars")
    func wordsAndRanges() {
        let text = SpokenText(segments: ["  Grüße, Welt!\n", "", "naïve\tcafé — ok"])
        #expect(text.words.map(text.text(of:)) == ["Grüße,", "Welt!", "naïve", "café", "—", "ok"])
        #expect(text.words.map(\.segment) == [0, 0, 2, 2, 2, 2])
        #expect(text.words[0].bytes == 2..<10, "ü and ß take two bytes each")
        #expect(text.words[0].scalars == 2..<8)
        #expect(text.words[1].bytes == 11..<16 && text.words[1].scalars == 9..<14)
        #expect(text.words[4].bytes == 13..<16 && text.words[4].scalars == 11..<12, "the dash is three bytes, one scalar")
        #expect(SpokenText(segments: [" \n\t", ""]).isEmpty)
    }

    @Test("The SSML has a mark before every word, a paragraph per segment, and the text escaped for XML")
    func ssml() {
        let text = SpokenText(segments: ["Salt & pepper", "", "a<b> \u{7}bell"])
        #expect(text.ssml == """
            <speak><p><mark name="w0"/>Salt <mark name="w1"/>&amp; <mark name="w2"/>pepper</p>\
            <p><mark name="w3"/>a&lt;b&gt; <mark name="w4"/>bell</p></speak>
            """)
        #expect(text.wordIndex(forMark: "w4") == 4)
        #expect(text.wordIndex(forMark: "w5") == nil && text.wordIndex(forMark: "x1") == nil && text.wordIndex(forMark: "w") == nil)
    }

    @Test("A reply's language is the user's, as gettext picks it: LANGUAGE first, unless the locale is C")
    func language() {
        #expect(SpeechLanguage.code(messagesLocale: "de_DE.UTF-8", languageList: nil) == "de-DE")
        #expect(SpeechLanguage.code(messagesLocale: "pt_BR.UTF-8@latin", languageList: "") == "pt-BR")
        #expect(SpeechLanguage.code(messagesLocale: "fr_FR.UTF-8", languageList: "sv:en") == "sv")
        #expect(SpeechLanguage.code(messagesLocale: "C.UTF-8", languageList: "de") == "en", "gettext ignores LANGUAGE in the C locale")
        #expect(SpeechLanguage.code(messagesLocale: nil, languageList: nil) == "en")
        #expect(SpeechLanguage.code(messagesLocale: "es", languageList: nil) == "es")
    }
}

@Suite("Read aloud: which reply and which word, from the speech service's reports")
struct ReadingProgressTests {
    let text = SpokenText(segments: ["one two three"])
    let reply = UUID()

    @Test("Marks move the word; reports that come before the service named its message wait for it; the end stops")
    func marksMoveTheWord() {
        var progress = ReadingProgress()
        let request = progress.start(text, messageID: reply)
        #expect(progress.state == .reading(messageID: reply, word: nil))
        progress.take(.begin(message: 7))
        progress.take(.mark(message: 7, name: "w0"))
        #expect(progress.state == .reading(messageID: reply, word: nil), "not yet known to be this request's")
        progress.take(.queued(request: request, message: 7))
        #expect(progress.state == .reading(messageID: reply, word: 0))
        progress.take(.mark(message: 7, name: "w2"))
        #expect(progress.state == .reading(messageID: reply, word: 2))
        progress.take(.mark(message: 7, name: "w9"))
        #expect(progress.state == .reading(messageID: reply, word: 2), "not one of this text's marks")
        progress.take(.end(message: 7))
        #expect(progress.state == .idle && progress.text == nil)
    }

    @Test("Reading another reply leaves the first one's reports behind, its cancel included")
    func anotherReplyStopsTheFirst() {
        var progress = ReadingProgress()
        let first = progress.start(text, messageID: UUID())
        progress.take(.queued(request: first, message: 1))
        progress.take(.mark(message: 1, name: "w1"))
        let second = UUID()
        let request = progress.start(text, messageID: second)
        progress.take(.cancel(message: 1))
        progress.take(.queued(request: first, message: 1))
        #expect(progress.state == .reading(messageID: second, word: nil))
        progress.take(.queued(request: request, message: 2))
        progress.take(.mark(message: 1, name: "w2"))
        progress.take(.mark(message: 2, name: "w1"))
        #expect(progress.state == .reading(messageID: second, word: 1))
        progress.take(.cancel(message: 2))
        #expect(progress.state == .idle)
    }

    @Test("A request the service could not take makes the state unavailable, with why; an earlier one's failure does not")
    func unavailable() {
        var progress = ReadingProgress()
        let first = progress.start(text, messageID: reply)
        let second = progress.start(text, messageID: reply)
        progress.take(.failed(request: first, reason: "old"))
        #expect(progress.state == .reading(messageID: reply, word: nil))
        progress.take(.failed(request: second, reason: "no socket"))
        #expect(progress.state == .unavailable(reason: "no socket"))
        progress.stop()
        #expect(progress.state == .idle)
    }
}
