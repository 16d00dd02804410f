import AgentCore
import Testing

@Suite("MCP tool names the model sees")
struct MCPToolNamesTests {
    @Test("Own names where unique and valid; server prefix on a clash or a taken name; dots and length made valid")
    func names() {
        let long = "a.tool.with.dots.and.a.very.long.name.that.goes.past.sixty.four.characters.for.sure"
        let names = MCPToolNames.assign([("git", "status"), ("time", "status"), ("fs", "read.file"), ("fs", "get_location"),
                                         ("weird server!", long)], reserved: ["get_location"])
        #expect(names[0] == "git__status" && names[1] == "time__status")
        #expect(names[2] == "read_file")
        #expect(names[3] == "fs__get_location")
        #expect(names[4].count == 64 && names[4].hasPrefix("weird_server___a_tool_with_dots"))
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } })
    }
}
