// A host for the fault tests: runs RunnerFixture as the tutorial would, in a process a test can put on a terminal
// of its own or kill with SIGKILL.
//
// RunnerFixture's scenario comes from FIXTURE, which the page inherits. HOST_TERMINAL picks how the page stands
// towards the host's terminal: `shared` (plain mode on a terminal) or `none` (the interface; the default).
// Prints one line per thing it hears, "page: <output line>", "mark: <name>", then "ended: <headline>", and on a
// terminal the state of its echo and line editing after the run.
@preconcurrency import Glibc
import Foundation
import TourCore
import PageProtocol

setvbuf(stdout, nil, _IOLBF, 0)
LiveProcessGroups.stopAllOnExit(beforeExit: { SharedTerminal.restore() })
let terminal: TerminalAccess = ProcessInfo.processInfo.environment["HOST_TERMINAL"] == "shared" ? .shared : .none
let run = PageRun.start(RunRequest(executable: BuildProducts.executable(named: "RunnerFixture"),
                                   stuckAfter: 300, silentLimit: 300, terminal: terminal)) { event in
    switch event {
    case .output(let line): print("page: \(line.text)")
    case .trace(let trace):
        if case .mark(let name) = trace.kind { print("mark: \(name)") }
    case .ended(let ending, _): print("ended: \(ending.headline)")
    default: break
    }
}
run.waitUntilEnded()
var modes = termios()
if tcgetattr(STDIN_FILENO, &modes) == 0 {
    let echo = modes.c_lflag & tcflag_t(ECHO) != 0
    let canonical = modes.c_lflag & tcflag_t(ICANON) != 0
    print("terminal after the run: echo \(echo ? "on" : "off"), canonical \(canonical ? "on" : "off")")
}
LiveProcessGroups.exitHost(0)
