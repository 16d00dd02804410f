import AgentCore
import TextLayout
import Testing

@Suite("Line groups: no label gets more than a few lines")
struct LineGroupsTests {
    @Test func textIsCutEveryThirtyTwoLines() {
        let lines = (1...70).map { "line \($0)" }
        let groups = LineGroups.split(lines.joined(separator: "\n"))
        #expect(groups.count == 3)
        #expect(groups.map { $0.split(separator: "\n").count } == [32, 32, 6])
        #expect(groups.joined(separator: "\n") == lines.joined(separator: "\n"), "nothing lost but the breaks between groups")
        #expect(LineGroups.split("one line") == ["one line"])
        #expect(LineGroups.split("") == [""])
        #expect(LineGroups.split("a\nb\nc", maxLines: 2) == ["a\nb", "c"])
    }

    @Test func paragraphRunsAreCutAtTopLevelBreaks() {
        let inlines: [MarkdownInline] = [.text("a"), .softBreak, .strong([.text("b")]), .lineBreak, .text("c")]
        let groups = LineGroups.split(inlines, maxLines: 2)
        #expect(groups == [[.text("a"), .softBreak, .strong([.text("b")])], [.text("c")]])
        #expect(LineGroups.split(inlines) == [inlines])
    }
}
