@testable import AgentCore
import Testing

@Suite("Placeholders of translated messages")
struct PlaceholdersTests {
    @Test("%s takes the arguments in order; %N$s by number, so a translation may reorder them")
    func strings() {
        #expect(Placeholders.fill("Run “%s”?", with: ["date"]) == "Run “date”?")
        #expect(Placeholders.fill("%s and %s", with: ["a", "b"]) == "a and b")
        #expect(Placeholders.fill("%2$s vor %1$s", with: ["a", "b"]) == "b vor a")
    }

    @Test("In a plural message %d is the count and, as in C, the first argument: %2$s is the first string")
    func plurals() {
        #expect(Placeholders.fill("%d chats", with: [], count: 3) == "3 chats")
        #expect(Placeholders.fill("Indexing “%2$s”: %3$s of %1$d files", with: ["notes", "4"], count: 12)
            == "Indexing “notes”: 4 of 12 files")
        #expect(Placeholders.fill("%s (%d)", with: ["x"], count: 2) == "x (2)")
        // A plural message without %d has its strings from %1$s on, as msgfmt checks it.
        #expect(Placeholders.fill("Variablen %1$s", with: ["A, B"], count: 2, countIsArgument: false) == "Variablen A, B")
        #expect(trn("It sets the variable %s.", "It sets the variables %s.", 2, "A, B") == "It sets the variables A, B.")
        #expect(Placeholders.writesCount("%1$d of %2$s") && !Placeholders.writesCount("%s (values not shown)"))
    }

    @Test("%% is a percent sign; a stray % or a missing argument leaves no garbage")
    func edges() {
        #expect(Placeholders.fill("%s%%", with: ["45"]) == "45%")
        #expect(Placeholders.fill("100 % sure", with: []) == "100 % sure")
        #expect(Placeholders.fill("%s and %s", with: ["a"]) == "a and ")
        #expect(Placeholders.fill("no placeholders", with: ["unused"]) == "no placeholders")
    }

    @Test("Without a catalog for the locale, tr and trn give the English, filled")
    func english() {
        #expect(tr("Delete “%s”?", "Notes") == "Delete “Notes”?")
        #expect(trn("%d tool", "%d tools", 1) == "1 tool")
        #expect(trn("%d tool", "%d tools", 5) == "5 tools")
    }
}
