// swift-tools-version:6.0
import PackageDescription

/// The pages, in order: part one (1–8) and part two (9 on). Each is an executable target under `Lessons/NN-Name/`.
/// (The manifest does not list `Lessons/` itself: SwiftPM keeps a manifest's result until the manifest changes, so a
/// page folder added later would go unseen.)
let pages = [
    "01-Operation",
    "02-Queue",
    "03-Async",
    "04-Dependencies",
    "05-InPractice",
    "06-GCD",
    "07-Groups",
    "08-Barrier",
    "09-Tasks",
    "10-TaskGroups",
    "11-Actors",
    "12-Isolation",
    "13-Streams",
    "14-Starvation",
]

/// The levels of "be the scheduler", in order: each an executable target under `Levels/NN-Name/` that runs its real
/// code on real threads under LessonKit's scheduler (`docs/level-format.md`).
let levels = [
    "01-LostUpdate",
    "02-CheckThenAct",
    "03-LockOrder",
    "04-SyncOnOwnQueue",
    "05-ResumedTwice",
    "06-ActorReentrancy",
    "07-GlobalBarrier",
    "08-PoolStarvation",
]

/// What a page's events and text pass through on their way to the screen is optimised even in a debug build: the page
/// writing them (LessonKit), the protocol decoding them (PageProtocol), the run's record they build (RunModel), the
/// page's parsed text (PageText), and the terminal's screen (TourTerminal). Unoptimised, they cost several microseconds
/// an event, enough to slow a page and bend its timings: a key pressed while a page streamed 50,000 events a second
/// took 146–294 ms to reach the screen, against 60 ms now, and the first frame 77 ms, against 45. The rest is not
/// (TourCommandLine's commands, TourCore's builds and progress, the exercise judges, the talks, and TourInterface): optimised with the rest, a fresh
/// `swift build --product tour` took 193 s of CPU against 57 s (load 9), and with TourInterface optimised too a fresh
/// clone's first frame came after 78 s instead of about 40, all of it spent before anything appears. Pages themselves
/// stay unoptimised, so a learner's edit rebuilds in about half a second. Figures in `docs/benchmarks.md`.
let optimisedEvenInDebug: [SwiftSetting] = [.unsafeFlags(["-O"])]

/// `tour` carries the Swift runtime and Foundation inside it (`-static-stdlib`), at a fixed address (`-no-pie`): linked
/// to them as shared libraries, the dynamic loader binding Foundation's symbols was most of its own start-up (`tour
/// --version` 6.7–9.3 ms of CPU against 2.2–3.7 ms), paid before its first frame and before `tour run` could start a
/// page. glibc, libstdc++ and ncurses stay shared libraries.
///
/// It was one fully static program (`-static-executable`) until the twelfth session, about 1.5 ms of CPU faster to
/// start (`tour --version` 0.8–1.6 ms, `tour list` 2.3–4.3 against 3.8–6.2 ms; `perf stat`, 200 runs, in
/// `docs/benchmarks.md`), but with glibc inside, every fresh build printed 18 linker warnings that `dlopen`,
/// `getpwuid`, `getaddrinfo` and their kin (called in Foundation, CoreFoundation, ICU, the Swift runtime and LessonKit)
/// need, at run time, the shared libraries of the glibc they were linked with (glibc's NSS). That caveat is real, and a
/// newcomer reads the warnings as "something is broken": with glibc shared, the caveat and its warnings are gone. Under
/// load the price is larger in wall time (`BENCH=launch` at load 4.5: `tour --version` 8.5 against 1.9 ms, `tour run
/// 1 --plain`'s lead over the page alone about 7 ms more).
///
/// It is linked with the toolchain's `ld.lld` (as page rebuilds are), which prints none of glibc's link-time notes. The
/// one left for this link, which GNU gold prints, is that `mktemp` "is dangerous": Foundation's `createTemporaryFile`
/// calls it, then opens the name with `O_CREAT|O_EXCL` and retries, as `mkstemp` does, and its authors silence the same
/// warning in their compiler.
///
/// The compiler names only some of the static libraries Foundation needs (its objects were compiled for the shared
/// ones); the rest are named here. A test bundle cannot be linked so (XCTest and Swift Testing are shared libraries on
/// Foundation's shared library), so no test target depends on `tour`: the tests run the program SwiftPM builds beside
/// them.
let linkedWithItsRuntime: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie", "-use-ld=lld"]),
    .linkedLibrary("CoreFoundation"),
    .linkedLibrary("_FoundationCShims"),
    .linkedLibrary("_FoundationCollections"),
    .linkedLibrary("swiftSynchronization"),
    // Last: the linker reads each archive once, in order, and CoreFoundation calls into ICU.
    .linkedLibrary("_FoundationICU"),
]

/// `01-Operation` → `Lesson01Operation`: a valid module name that keeps the order.
func productName(_ folder: String) -> String {
    "Lesson" + folder.filter { $0 != "-" }
}

/// `01-LostUpdate` → `Level01LostUpdate`.
func levelName(_ folder: String) -> String {
    "Level" + folder.filter { $0 != "-" }
}

let levelTargets: [Target] = levels.map { folder in
    .executableTarget(name: levelName(folder), dependencies: ["LessonKit", "PageProtocol"], path: "Levels/\(folder)")
}

let pageTargets: [Target] = pages.map { folder in
    .executableTarget(name: productName(folder), dependencies: ["LessonKit"], path: "Lessons/\(folder)")
}

/// Every page has a code challenge, judged in `Sources/ExerciseJudging/`. For each, three one-file programs: the learner's
/// `Exercises/NN-Name/main.swift`, the reference `Solutions/NN-Name/main.swift`, and, for the tests, the exercise with
/// its body deleted and one that prints what a solution prints without doing the work. `PageRegistryTests` fails when
/// `pages`, the page folders, the exercises, the solutions, their variants and the exercise catalog disagree.
let exercisePages = pages

let exerciseVariants = ["Emptied", "Faked", "FirstStep"]

func exerciseName(_ folder: String) -> String { "Exercise" + folder.filter { $0 != "-" } }
func solutionName(_ folder: String) -> String { "Solution" + folder.filter { $0 != "-" } }
func variantName(_ folder: String, _ variant: String) -> String { "ExerciseVariant" + folder.filter { $0 != "-" } + variant }

let exerciseTargets: [Target] = exercisePages.flatMap { folder -> [Target] in
    [
        .executableTarget(name: exerciseName(folder), dependencies: ["LessonKit"], path: "Exercises/\(folder)"),
        .executableTarget(name: solutionName(folder), dependencies: ["LessonKit"], path: "Solutions/\(folder)"),
    ] + exerciseVariants.map { variant in
        .executableTarget(name: variantName(folder, variant), dependencies: ["LessonKit"],
                          path: "Tests/Fixtures/ExerciseVariants/\(folder)/\(variant)")
    }
}

let package = Package(
    name: "ConcurrencyTour",
    products: [
        .executable(name: "tour", targets: ["tour"]),
        .library(name: "LessonKit", targets: ["LessonKit"]),
    ] + pages.map { .executable(name: productName($0), targets: [productName($0)]) }
      + exercisePages.map { .executable(name: exerciseName($0), targets: [exerciseName($0)]) }
      + levels.map { .executable(name: levelName($0), targets: [levelName($0)]) },
    targets: [
        .target(name: "PageProtocol", swiftSettings: optimisedEvenInDebug),
        // glibc's Linux calls and GNU extensions, which Swift's `Glibc` leaves out (`_GNU_SOURCE`): a header and a
        // module map, nothing compiled or linked, so a page's direct rebuild finds it by the flags SwiftPM's plan gives.
        .systemLibrary(name: "CLinuxSystem"),
        .target(name: "LessonKit", dependencies: ["PageProtocol", "CLinuxSystem"], swiftSettings: optimisedEvenInDebug),
        .target(name: "RunModel", dependencies: ["PageProtocol"], swiftSettings: optimisedEvenInDebug),
        .target(name: "PageText", dependencies: ["PageProtocol"], swiftSettings: optimisedEvenInDebug),
        .target(name: "TourCore", dependencies: ["RunModel", "PageText", "PageProtocol", "CLinuxSystem"]),
        // Each page's prediction and challenge, and the judges of a challenge's run: the checks the interface and
        // `tour check` run. Above the host, which builds and runs what they judge, and knows nothing of them.
        .target(name: "ExerciseJudging", dependencies: ["TourCore", "PageProtocol"]),
        // Talks: their scripts and plans, the presenter's notes channel and what it shows. Above the host, which they
        // read pages through; beside the exercises, which they do not use.
        .target(name: "Presenting", dependencies: ["TourCore", "PageProtocol"]),
        // A room's words: its topics, messages, addresses and what a link to it offers, with no network in them. The
        // interface and the commands use these; the MQTT links implement them.
        .target(name: "RoomProtocol", dependencies: ["TourCore", "PageProtocol"]),
        // MQTT 3.1.1 as the standard has it, knowing nothing of rooms: packets, a pure session and a socket shell. The
        // host's clock (`HostClock`) is the one thing it takes from TourCore, so keep-alive and retries run on a test's clock.
        .target(name: "MQTT", dependencies: ["TourCore"]),
        // The room's links over MQTT (a participant's, the leader's) and the mosquitto broker `tour room` starts.
        .target(name: "RoomLink", dependencies: ["RoomProtocol", "MQTT", "TourCore", "CLinuxSystem"]),
        // No `pkgConfig`: ncursesw's only compiler flags (`-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600`) are ones SwiftPM
        // refuses with a warning on every build, and its libraries are the module map's `link` lines. The defines the
        // wide-character API needs are in the shim; the headers come from Debian's libncurses-dev.
        .systemLibrary(name: "CNcursesw"),
        .target(name: "TourInterface", dependencies: ["TourCore", "ExerciseJudging", "Presenting", "PageProtocol", "RoomProtocol"]),
        .target(name: "TourTerminal", dependencies: ["TourInterface", "ExerciseJudging", "Presenting", "PageProtocol", "RoomProtocol", "CNcursesw"],
                swiftSettings: optimisedEvenInDebug),
        // The command line: one option table, parsing, usage, plain mode and every command `tour` runs. Only `tour`
        // depends on it.
        .target(name: "TourCommandLine", dependencies: ["TourCore", "ExerciseJudging", "Presenting", "TourTerminal", "PageProtocol", "RoomProtocol",
                                                 "RoomLink"]),
        .executableTarget(
            name: "tour",
            // No page or exercise: `swift run tour` compiles the tutorial alone, and tour builds each page and exercise
            // itself, one at a time, so a page that does not compile never keeps the tutorial or its commands from starting.
            dependencies: ["TourCommandLine"],
            linkerSettings: linkedWithItsRuntime
        ),
        .executableTarget(name: "TourBenchmarks", dependencies: ["LessonKit", "TourCore", "PageProtocol", "RoomLink", "RoomProtocol"]),
        .target(name: "TourTestSupport", dependencies: ["TourCore", "TourInterface", "PageProtocol", "CLinuxSystem", "RoomLink"], path: "Tests/TourTestSupport"),
        .executableTarget(name: "RunnerFixture", dependencies: ["LessonKit"], path: "Tests/Fixtures/RunnerFixture"),
        // A level program for the host's tests of levels: the protocol over a model of a lost update, and misbehaviours.
        .executableTarget(name: "LevelFixture", dependencies: ["PageProtocol"], path: "Tests/Fixtures/LevelFixture"),
        .executableTarget(name: "HostFixture", dependencies: ["TourCore", "PageProtocol"], path: "Tests/Fixtures/HostFixture"),
        .executableTarget(name: "WarningFaults", dependencies: ["LessonKit"], path: "Tests/Fixtures/WarningFaults"),
        .testTarget(name: "PageProtocolTests", dependencies: ["PageProtocol", "TourTestSupport"]),
        .testTarget(name: "LessonKitTests", dependencies: ["LessonKit", "PageProtocol", "TourTestSupport"]),
        .testTarget(name: "TourCoreTests", dependencies: ["TourCore", "ExerciseJudging", "Presenting", "TourCommandLine", "PageProtocol",
                                                   "CLinuxSystem", "TourTestSupport", "RunnerFixture", "HostFixture", "WarningFaults"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "RoomProtocolTests", dependencies: ["RoomProtocol", "TourCore", "TourTestSupport"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "TourCore", "TourTestSupport", "LessonKit"]),
        // The links and the broker, against the real mosquitto (`TestBroker`).
        .testTarget(name: "RoomLinkTests", dependencies: ["RoomLink", "RoomProtocol", "MQTT", "TourCore", "TourTestSupport"]),
        .testTarget(name: "PresentingTests", dependencies: ["Presenting", "TourCore", "TourCommandLine", "PageProtocol", "TourTestSupport"]),
        .testTarget(
            name: "TourCommandLineTests",
            // The pages and the fixture its runs start.
            dependencies: ["TourCommandLine", "TourCore", "ExerciseJudging", "Presenting", "PageProtocol", "TourTestSupport", "RunnerFixture",
                           "LevelFixture", "RoomProtocol", "TourInterface"]
                + ["01-Operation", "03-Async", "07-Groups"].map { .target(name: productName($0)) }
        ),
        .testTarget(name: "TourInterfaceTests",
                    dependencies: ["TourInterface", "ExerciseJudging", "Presenting", "PageProtocol", "RoomProtocol", "TourTestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "EndToEndTests", dependencies: ["ExerciseJudging", "Presenting", "TourCommandLine", "TourTestSupport", "CLinuxSystem",
                                                      "RoomLink", "RoomProtocol", "TourCore"]),
        // The effect loop driven without a terminal: a test screen, typed keys, a test clock and stand-in workers.
        .testTarget(name: "TourTerminalTests", dependencies: ["TourTerminal", "TourInterface", "TourCore", "PageProtocol", "RoomProtocol",
                                                       "TourTestSupport"]),
        .testTarget(
            name: "LessonTests",
            dependencies: ["TourCore", "ExerciseJudging", "TourCommandLine", "PageProtocol", "CLinuxSystem", "TourTestSupport", "LessonKit"]
                + pages.map { .target(name: productName($0)) }
        ),
        .testTarget(
            name: "ExerciseJudgingTests",
            // The judges, against real runs of each exercise, its solution and its variants; the pages too: a
            // prediction is graded from a real run of its page's demo.
            dependencies: ["ExerciseJudging", "TourCore", "TourCommandLine", "PageProtocol", "TourTestSupport"] + exercisePages.flatMap { folder in
                [exerciseName(folder), solutionName(folder)] + exerciseVariants.map { variantName(folder, $0) }
            }.map { .target(name: $0) } + pages.map { .target(name: productName($0)) }
        ),
        // Every level's program, run as the host runs it: its search finds the failure, its fix's finds none, and its
        // shortest failing schedule replays to the same failure.
        .testTarget(name: "LevelTests", dependencies: ["TourCore", "PageProtocol", "TourTestSupport"] + levels.map { .target(name: levelName($0)) }),
    ] + pageTargets + exerciseTargets + levelTargets
)
