@preconcurrency import Glibc
import Foundation
import Testing
import TourCore
import TourTestSupport

/// The fault suite's terminal cases, on the real binary: Ctrl-\ in the interface, a terminal that cannot address the
/// cursor, and a page that prints escape sequences and non-ASCII text in plain mode.
///
/// Each test works in a package of stand-in pages of its own (shell and Perl scripts beside a copy of `tour`), so it
/// needs no build and touches nothing in the checkout.
@Suite("Terminal faults", .bodiesBelowTheRunner)
struct TerminalFaultTests {
    static let exitMarker = "TOUR-EXITED"

    @Test("Ctrl-\\ (SIGQUIT) ends the interface as SIGTERM does: terminal restored, no backtrace, no page left behind",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func quitKeyEndsTheTutorialCleanly() async throws {
        let package = try await StandInPackage.make(pages: ["01-Ticker": StandInPackage.ticker])
        defer { package.remove() }
        let marker = "TOUR_FAULT_MARKER"
        let markerValue = UUID().uuidString
        // The shell traps SIGQUIT (Ctrl-\ reaches its whole process group) rather than ignoring it, since an ignored
        // signal would stay ignored in `tour` and hide what the runtime does with it. It then compares the terminal's
        // modes with those from before, and stays alive with no child, so only it carries the marker afterwards.
        let shell = try await package.script(named: "shell.sh", """
            trap 'echo got SIGQUIT' QUIT
            before=$(stty -g)
            \(package.tour)
            status=$?
            [ "$(stty -g)" = "$before" ] && echo TERMINAL-MODES-RESTORED
            echo \(Self.exitMarker) status=$status
            read -r _
            """)
        let tmux = Tmux()
        defer { tmux.stop() }
        try await tmux.start("bash --norc --noprofile \(shell)", width: 120, height: 40,
                       environment: ["TOUR_ROOT": package.root.path, marker: markerValue])
        let shellPID = try await tmux.panePID()
        try await tmux.waitFor("the interface") { $0.contains("Pages") && $0.contains("r run") }
        try await tmux.runSkippingThePrediction()
        try await tmux.waitFor("the stand-in page running") { $0.contains("tick 3") }
        let running = try await Self.waitForProcesses(carrying: marker, markerValue, toBe: "the shell, tour and its page") {
            $0.subtracting([shellPID]).count >= 2
        }
        #expect(running.contains(shellPID))
        #expect(try await tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).hasPrefix("1"),
                "the interface draws on the alternate screen")

        try await tmux.send("C-\\")
        let after = try await tmux.waitFor("the shell after Ctrl-\\", timeout: 20) { $0.contains(Self.exitMarker) }
        #expect(after.contains("\(Self.exitMarker) status=\(128 + SIGQUIT)"), "tour ends by SIGQUIT's conventional status")
        #expect(after.contains("TERMINAL-MODES-RESTORED"), "the terminal's modes are as before")
        #expect(!after.contains("Backtracing") && !after.contains("Press space"), "the Swift backtracer stayed out")
        #expect(!after.contains("Pages") && !after.contains("Timeline"), "the interface is gone from the screen")
        #expect(try await tmux.run(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).hasPrefix("0"),
                "the shell's own screen is back")
        try await Self.waitForProcesses(carrying: marker, markerValue, toBe: "only the shell") { $0 == [shellPID] }
    }

    @Test("A terminal that cannot address the cursor (TERM=dumb, or a terminfo entry without cup) gets the message and status 2 an unknown TERM gets",
          .enabled(if: Tmux.isAvailable, "tmux is not installed; .ci/run installs it"))
    func terminalWithoutCursorAddressingIsRefused() async throws {
        let package = try await StandInPackage.make(pages: ["01-Ticker": StandInPackage.ticker])
        defer { package.remove() }
        // An entry of our own with everything a screen needs but cup, compiled into a private terminfo folder.
        let terminfo = package.root.appendingPathComponent("terminfo")
        let source = package.root.appendingPathComponent("nocup.ti")
        try "nocup|a terminal without cursor addressing,\n\tam, cols#80, lines#24, bel=^G, clear=\\E[H\\E[2J, cr=\\r, cud1=\\n, el=\\E[K, home=\\E[H, ind=\\n,\n"
            .write(to: source, atomically: true, encoding: .utf8)
        let compiled = try await runToEnd("/usr/bin/tic", ["-o", terminfo.path, source.path], environment: [:])
        try #require(compiled.status == 0, "tic failed: \(compiled.errors)")

        // An unknown type is refused the same way, which the two without cursor addressing now follow.
        let cases = [("dumb", "TERM=dumb", "cannot move the cursor"),
                     ("nocup", "TERMINFO=\(terminfo.path) TERM=nocup", "cannot move the cursor"),
                     ("tour-no-such-terminal", "TERM=tour-no-such-terminal", "is unknown to ncurses")]
        for (name, terminal, problem) in cases {
            let shell = try await package.script(named: "\(name).sh", """
                \(terminal) \(package.tour)
                echo \(Self.exitMarker) status=$?
                read -r _
                """)
            let tmux = Tmux()
            defer { tmux.stop() }
            try await tmux.start("bash --norc --noprofile \(shell)", width: 120, height: 40, environment: ["TOUR_ROOT": package.root.path])
            let screen = try await tmux.waitFor("tour refusing TERM \(name)", timeout: 20) { $0.contains(Self.exitMarker) }
            let joined = screen.replacingOccurrences(of: "\n", with: "")
            #expect(screen.contains("\(Self.exitMarker) status=2"), "\(name): \(screen)")
            #expect(joined.contains("the terminal type '\(name)' \(problem)"), "\(name): \(screen)")
            #expect(joined.contains("tour run 1 --plain"), "\(name): the message says what to use instead")
        }
    }

    @Test("Plain mode prints a page's escape sequences and non-ASCII text as ASCII with no ESC; without --plain Unicode stays")
    func plainOutputOfAHostilePageIsASCII() async throws {
        let package = try await StandInPackage.make(pages: ["01-Hostile": StandInPackage.hostile])
        defer { package.remove() }
        let environment = ["TOUR_ROOT": package.root.path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

        let plain = try await runToEnd(package.tour, ["run", "1", "--plain"], environment: environment)
        #expect(plain.status == 0 || plain.status == 1, "the page ran: \(plain.errors)")
        #expect(!plain.output.contains(0x1B), "an ESC byte reached the terminal")
        #expect(plain.output.allSatisfy { $0 < 0x80 }, "a non-ASCII byte in --plain output")
        let text = String(decoding: plain.output, as: UTF8.self)
        #expect(text.contains("cafe - naive ?? 250 us"), "the page's line, transliterated:\n\(text)")
        #expect(text.contains("page 1 of 1: Hostile"), "the report's own header, in ASCII:\n\(text)")
        #expect(text.contains("ended normally - "), "the ending line, in ASCII:\n\(text)")

        // Without --plain, on a pipe: no colour and so no escape at all, but the UTF-8 locale keeps the page's text.
        let unicode = try await runToEnd(package.tour, ["run", "1"], environment: environment)
        #expect(!unicode.output.contains(0x1B))
        let unicodeText = String(decoding: unicode.output, as: UTF8.self)
        #expect(!unicodeText.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "a C1 control reached the terminal")
        #expect(unicodeText.contains("café — naïve 漢字 250 µs"), "the page's own text, kept:\n\(unicodeText)")
    }

    /// Polls the processes whose environment holds `name=value` until `condition` holds of their pids; returns them.
    @discardableResult
    static func waitForProcesses(carrying name: String, _ value: String, toBe what: String, timeout: Double = 20,
                                 _ condition: (Set<pid_t>) -> Bool) async throws -> Set<pid_t> {
        let deadline = Date().addingTimeInterval(timeout)
        var found = Set<pid_t>()
        while Date() < deadline {
            found = processes(carrying: "\(name)=\(value)")
            if condition(found) { return found }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        Issue.record("timed out after \(timeout) s waiting for \(what); the marked processes were \(found.sorted())")
        return found
    }

    /// Every process whose environment holds the entry `entry`, found in /proc (a marker, never a process name).
    static func processes(carrying entry: String) -> Set<pid_t> {
        let wanted = Array(entry.utf8)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return Set(names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ") else { return nil }
            return environment.split(separator: 0).contains { Array($0) == wanted } ? pid : nil
        })
    }
}

/// What a program printed and how it ended.
struct FinishedProgram {
    var status: Int32
    var output: Data
    var errors: String
}

/// Runs `executable` with its output in files (so no pipe can fill and stall it) and waits for it without blocking
/// a thread: the termination handler resumes the test.
func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> FinishedProgram {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tour-run-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outputFile = folder.appendingPathComponent("out")
    let errorFile = folder.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    // What `tour run` records goes to the run's own folder, never the learner's progress.
    process.environment = ProcessInfo.processInfo.environment
        .merging(["XDG_STATE_HOME": folder.appendingPathComponent("state").path]) { $1 }.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    let output = try FileHandle(forWritingTo: outputFile)
    let errors = try FileHandle(forWritingTo: errorFile)
    process.standardOutput = output
    process.standardError = errors
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    try output.close()
    try errors.close()
    return FinishedProgram(status: status, output: try Data(contentsOf: outputFile),
                           errors: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
}

/// A package root of stand-in pages for `tour` (`TOUR_ROOT`): each page a `main.swift` for the catalog and a script
/// named as its product beside a copy of `tour`, where `tour` looks for page programs.
struct StandInPackage {
    let root: URL
    var tour: String { root.appendingPathComponent("tour").path }

    /// Prints a numbered line every 0.2 s until it is stopped: always running, never silent.
    static let ticker = (source: "//: # Ticker\n//: Prints a line every 0.2 s until it is stopped.\nticker()\n",
                         script: "#!/bin/sh\ni=0\nwhile :; do i=$((i+1)); echo \"tick $i\"; sleep 0.2; done\n")

    /// Prints escape sequences (clear screen, cursor home, a window title, C1 CSI), non-ASCII text and a tab, and
    /// sends a span whose name holds an escape, then ends normally.
    static let hostile = (source: "//: # Hostile\n//: Prints what a terminal must not see.\nhostile()\n",
                          script: #"""
        #!/usr/bin/perl
        use strict;
        use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);
        open(my $trace, ">&=", 3) or die "no trace channel";
        $trace->autoflush(1);
        $| = 1;
        sub ns { int(clock_gettime(CLOCK_MONOTONIC) * 1e9) }
        print "\e[2J\e[H\e]0;pwned\a\e[31mcaf\xc3\xa9 \xe2\x80\x94 na\xc3\xafve \xe6\xbc\xa2\xe5\xad\x97 250 \xc2\xb5s\e[0m\n";
        print "c1 \xc2\x9b2J csi\tand a tab\n";
        my $t = ns();
        print $trace "{\"e\":\"begin\",\"t\":$t,\"tid\":$$,\"q\":\"hostile.q\",\"id\":1,\"name\":\"\\u001b[2Jspan \xe2\x80\x94 one\"}\n";
        $t = ns();
        print $trace "{\"e\":\"end\",\"t\":$t,\"tid\":$$,\"q\":\"hostile.q\",\"id\":1,\"name\":\"\\u001b[2Jspan \xe2\x80\x94 one\"}\n";
        """#)

    private init(root: URL) {
        self.root = root
    }

    static func make(pages: [String: (source: String, script: String)]) async throws -> StandInPackage {
        let files = FileManager.default
        let package = StandInPackage(root: files.temporaryDirectory.appendingPathComponent("tour-standin-\(UUID().uuidString.prefix(8))"))
        try files.createDirectory(at: package.root, withIntermediateDirectories: true)
        try await package.writeWithShell(package.tour, copying: BuildProducts.executable(named: "tour"))
        for (folder, page) in pages {
            let lesson = package.root.appendingPathComponent("Lessons/\(folder)")
            try files.createDirectory(at: lesson, withIntermediateDirectories: true)
            let source = lesson.appendingPathComponent("main.swift")
            try page.source.write(to: source, atomically: true, encoding: .utf8)
            let program = try await package.script(named: "Lesson" + folder.filter { $0 != "-" }, page.script)
            // Written in the same tick of the kernel's clock as its source (about 4 ms), the program would count as
            // stale (`ProgramFreshness`: an equal time is stale), and tour would try to build the stand-in and find
            // it does not compile. Dated a minute after its source, it is the page's program as built.
            let written = try #require(try files.attributesOfItem(atPath: source.path)[.modificationDate] as? Date)
            try files.setAttributes([.modificationDate: written.addingTimeInterval(60)], ofItemAtPath: program)
        }
        return package
    }

    /// Writes an executable script into the package and returns its path.
    func script(named name: String, _ text: String) async throws -> String {
        let file = root.appendingPathComponent(name).path
        try await writeWithShell(file, text: text)
        return file
    }

    /// Writes a program from a short-lived `sh`, never from this process: tests run in parallel, and a file this
    /// process had open for writing could be inherited by a child another test is forking, making its exec fail
    /// with ETXTBSY ("Text file busy").
    ///
    /// A program to copy is hard-linked where it can be (`tour` is 86 MB in a debug build, and the temporary folder is
    /// on disk): nothing writes to the link, and a linker replaces its output with a new file rather than write the old
    /// one in place, so the checkout's build is never changed through it. Copied when the two folders are on different
    /// file systems.
    private func writeWithShell(_ path: String, text: String? = nil, copying source: String? = nil) async throws {
        let command = source != nil ? "ln \"$2\" \"$1\" 2>/dev/null || { cp \"$2\" \"$1\" && chmod 755 \"$1\"; }"
            : "printf '%s' \"$2\" > \"$1\" && chmod 755 \"$1\""
        let written = try await runToEnd("/bin/sh", ["-c", command, "sh", path, source ?? text ?? ""], environment: [:])
        guard written.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
