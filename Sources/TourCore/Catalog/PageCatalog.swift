import Foundation

/// One page of the tutorial: its place in the order, its title, its source and the program that runs it.
public struct Page: Sendable, Equatable {
    /// 1-based position, from the `NN` of `Lessons/NN-Name/`.
    public var number: Int
    /// The folder under `Lessons/`, such as `05-InPractice`.
    public var folder: String
    /// The title shown to learners, from the page's first heading.
    public var title: String
    /// A one-sentence summary, from the page's first paragraph.
    public var summary: String
    /// The executable product, such as `Lesson05InPractice`.
    public var product: String
    /// `main.swift` of the page.
    public var source: URL
    /// The part the page belongs to: the one it opens, or else the one the page before it belongs to; nil before the
    /// first page that opens one.
    public var part: PagePart? = nil

    public init(number: Int, folder: String, title: String, summary: String, product: String, source: URL, part: PagePart? = nil) {
        self.number = number
        self.folder = folder
        self.title = title
        self.summary = summary
        self.product = product
        self.source = source
        self.part = part
    }

    /// The page's Swift files as they are on disk now: its `main.swift` and the helper files beside it, by name.
    /// A method, not a property: it lists the folder each time, so callers see it is file work.
    public func listSourceFiles() -> [URL] {
        Self.sourceFiles(main: source)
    }

    /// Reads the page's `main.swift` and helper files now, for what is learnt from them: the document, the knobs, the live view.
    public func readSourceTexts() -> SourceTexts {
        Self.sourceTexts(main: source)
    }

    /// The Swift files in the folder of `main`, by name.
    public static func sourceFiles(main: URL) -> [URL] {
        let folder = main.deletingLastPathComponent()
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".swift") }
            .sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// The text of a page's `main.swift` and of its helper files, read once for what is learnt from all of them.
    public struct SourceTexts: Sendable, Equatable {
        /// `main.swift`, empty when it cannot be read.
        public var main: String
        /// The helper files that could be read, by name.
        public var helpers: [String]

        public init(main: String, helpers: [String] = []) {
            self.main = main
            self.helpers = helpers
        }

        /// The knobs declared in `main.swift`, with choices a helper file may declare.
        public var declaredKnobs: [KnobDeclaration] {
            LiterateParser.knobs(in: main, helperSources: helpers)
        }

        /// Whether any of the files draws in the live view: the interface makes room for the view before the page
        /// first runs.
        public var drawsLiveView: Bool {
            ([main] + helpers).contains { Self.holds("LiveView.", in: $0) }
        }

        /// Whether `text` holds `word`, searched in the UTF-8 bytes (`firstOffset`): the standard library's
        /// `utf8.contains(_:)` took two thirds of the time `ParsedPageSource` takes in a debug build.
        static func holds(_ word: String, in text: String) -> Bool {
            var text = text
            var word = word
            return text.withUTF8 { haystack in
                word.withUTF8 { needle in firstOffset(of: UnsafeRawBufferPointer(needle), in: UnsafeRawBufferPointer(haystack)) != nil }
            }
        }
    }

    /// The page's files as they are on disk now, parsed: what the interface shows of it. File and parsing work, which
    /// the interface does before a page's first frame, or ahead of time off its queue.
    public func readParsedSource() -> ParsedPageSource {
        ParsedPageSource(readSourceTexts())
    }

    /// The texts of the page whose `main.swift` is `main`.
    public static func sourceTexts(main: URL) -> SourceTexts {
        let helpers = sourceFiles(main: main)
            .filter { $0.lastPathComponent != main.lastPathComponent }
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }
        return SourceTexts(main: (try? String(contentsOf: main, encoding: .utf8)) ?? "", helpers: helpers)
    }

    /// The name a learner types: the folder's name in lowercase words, such as `in-practice`.
    public var slug: String { Self.slug(ofFolder: folder) }

    /// `slug` of the page in `folder`.
    static func slug(ofFolder folder: String) -> String {
        let name = folder.drop { $0.isNumber || $0 == "-" }
        // A new word starts where a capital follows a small letter: InPractice → in-practice, GCD → gcd.
        var slug = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, previous?.isLowercase == true { slug.append("-") }
            slug.append(contentsOf: character.lowercased())
            previous = character
        }
        return slug
    }
}

/// A page's files as read, parsed into what the interface shows: made where the files are read, so the interface's
/// update never parses, and a page read ahead of time is parsed off the interface's queue.
public struct ParsedPageSource: Sendable, Equatable {
    public let texts: Page.SourceTexts
    public let document: PageDocument
    /// The knobs `main.swift` declares, with choices a helper file may declare.
    public let knobs: [KnobDeclaration]
    public let drawsLiveView: Bool
    /// The hash of every file's text, to tell a read of the same text from a change.
    public let hash: UInt64

    public init(_ texts: Page.SourceTexts) {
        self.texts = texts
        (document, knobs) = LiterateParser.parse(main: texts.main, helpers: texts.helpers)
        drawsLiveView = texts.drawsLiveView
        // A NUL between files: no Swift source holds one, so two splits of the same bytes hash apart.
        hash = contentHash(Data(([texts.main] + texts.helpers).joined(separator: "\0").utf8))
    }
}

/// The pages under `Lessons/`, in order, found on disk so a page added there needs no other registration.
public struct PageCatalog: Sendable {
    public var pages: [Page]
    public var root: URL

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The package's root folder: `TOUR_ROOT` if set, else the checkout this program was built from.
    public static var defaultRoot: URL {
        // One variable, read as it is: `ProcessInfo`'s dictionary of them all would cost `tour run` more before its page starts.
        if let variable = getenv("TOUR_ROOT"), case let root = String(cString: variable), !root.isEmpty {
            return URL(fileURLWithPath: root)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // Catalog
            .deletingLastPathComponent()   // TourCore
            .deletingLastPathComponent()   // Sources
            .deletingLastPathComponent()
    }

    public static func load(root: URL = defaultRoot) throws -> PageCatalog {
        let lessons = root.appendingPathComponent("Lessons")
        var folders: [String] = []
        guard FolderNames.forEach(in: lessons.path, { folders.append($0) }) else {
            throw Problem(description: "no Lessons folder at \(lessons.path); set TOUR_ROOT to the ConcurrencyTour checkout")
        }
        var part: PagePart?
        let pages = pages(inFolders: folders, of: lessons).map { unread -> Page in
            var page = unread
            // Only the opening prose is read: the rest of the page is parsed when it is shown.
            let header = LiterateParser.header((try? String(contentsOf: page.source, encoding: .utf8)) ?? "")
            part = header.part ?? part
            page.title = header.title ?? page.title
            page.summary = Self.firstSentence(of: header.firstParagraph ?? [])
            page.part = part
            return page
        }
        return PageCatalog(pages: pages, root: root)
    }

    /// A page's program and the folder of its sources, found from the folder names alone.
    public struct Program: Equatable, Sendable {
        public var product: String
        public var sourceFolder: String
    }

    /// The program of the page `query` names by its number, slug, folder or product name, found from the folder
    /// names under `Lessons/` alone, no page read: what `tour run` starts before it reads the catalog. Nil for a
    /// title (only the page's text has it) and for no such page. Only the names are compared: making each page's
    /// `Page`, with its file's URL, would cost the page's start more.
    public static func program(named query: String, root: URL = defaultRoot) -> Program? {
        var folders: [(number: Int, folder: String)] = []
        guard FolderNames.forEach(in: root.path + "/Lessons", { name in
            if let number = pageNumber(ofFolder: name) { folders.append((number, name)) }
        }) else { return nil }
        let named = first(of: folders.sorted { $0.folder < $1.folder }, named: query, number: \.number) {
            [Page.slug(ofFolder: $0.folder), product(ofFolder: $0.folder), $0.folder]
        }
        return named.map { Program(product: product(ofFolder: $0.folder), sourceFolder: root.path + "/Lessons/" + $0.folder) }
    }

    /// The page number of an `NN-Name` folder (a level's too); nil for any other name.
    static func pageNumber(ofFolder folder: String) -> Int? {
        folder.contains("-") ? Int(folder.prefix { $0.isNumber }) : nil
    }

    /// The program of the page in `folder`: `05-InPractice` → `Lesson05InPractice`.
    private static func product(ofFolder folder: String) -> String {
        "Lesson" + folder.filter { $0 != "-" }
    }

    /// The pages of the `NN-Name` folders among `folders`, in order, with what their folder names tell: the title
    /// is the name's words until the page's heading is read, with no summary or part.
    private static func pages(inFolders folders: [String], of lessons: URL) -> [Page] {
        folders.sorted().compactMap { folder -> Page? in
            guard let number = pageNumber(ofFolder: folder) else { return nil }
            return Page(number: number, folder: folder, title: String(folder.drop { $0.isNumber || $0 == "-" }),
                        summary: "", product: product(ofFolder: folder),
                        // Named as what they are: a URL left to find out asks the file system, a `stat` for each.
                        source: lessons.appending(path: folder, directoryHint: .isDirectory)
                            .appending(path: "main.swift", directoryHint: .notDirectory))
        }
    }

    /// The page a learner meant by its number (`3`), its slug (`async`) or its title, ignoring case.
    public func page(named query: String) -> Page? {
        page(named: query, byTitle: true)
    }

    /// The page `query` names; by its title too when `byTitle`.
    private func page(named query: String, byTitle: Bool) -> Page? {
        Self.first(of: pages, named: query, number: \.number) { page in
            [page.slug, page.product, page.folder] + (byTitle ? [page.title] : [])
        }
    }

    /// The first of `candidates` that `query` names: by number when the query is one, else by any of `names`,
    /// ignoring case, spaces, dashes and underscores (a level's names too).
    static func first<Candidate>(of candidates: [Candidate], named query: String, number: (Candidate) -> Int,
                                         names: (Candidate) -> [String]) -> Candidate? {
        let key = { (text: String) in text.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" } }
        let wanted = key(query)
        if let wantedNumber = Int(wanted) { return candidates.first { number($0) == wantedNumber } }
        return candidates.first { names($0).contains { key($0) == wanted } }
    }

    /// What `tour list` prints: a line a page (number, slug, title and summary), with a part's heading above the first
    /// page of each part.
    public var listing: [String] {
        var lines: [String] = []
        // Numbers left-aligned in a column as wide as the widest, so the slugs line up past page 9.
        let numberWidth = pages.map { String($0.number).count }.max() ?? 1
        for (index, page) in pages.enumerated() {
            if let part = page.part, index == 0 || pages[index - 1].part != part {
                lines.append((lines.isEmpty ? "" : "\n") + part.heading)
            }
            let number = String(page.number).padding(toLength: numberWidth, withPad: " ", startingAt: 0)
            lines.append("\(number)  \(page.slug.padding(toLength: 13, withPad: " ", startingAt: 0)) \(page.title): \(page.summary)")
        }
        return lines
    }

    /// "Pages are: 1 operation, 2 queue, …", for messages about a page that does not exist.
    public var choices: String {
        pages.map { "\($0.number) \($0.slug)" }.joined(separator: ", ")
    }

    private static func firstSentence(of paragraph: [InlineSpan]) -> String {
        let text = paragraph.plainText
        if let end = text.range(of: ". ") { return String(text[..<end.lowerBound]) + "." }
        return text
    }
}
