import Foundation

/// One level of "Be the scheduler": a program under `Levels/NN-Name/`, built like a page into the build folder.
public struct Level: Sendable, Equatable {
    /// From the `NN` of `Levels/NN-Name/`.
    public var number: Int
    /// The folder under `Levels/`, such as `01-LostUpdate`.
    public var folder: String
    /// The executable product, such as `Level01LostUpdate`.
    public var product: String
    /// The folder of the level's `.swift` files.
    public var sourceFolder: URL

    public init(number: Int, folder: String, product: String, sourceFolder: URL) {
        self.number = number
        self.folder = folder
        self.product = product
        self.sourceFolder = sourceFolder
    }

    /// The name its folder gives (`01-LostUpdate` → `lost-update`), as a page's folder gives its slug: what the commands
    /// take before the level's own description is read.
    public var folderName: String { Page.slug(ofFolder: folder) }

    /// The page its description names (`page: 8,` in its `main.swift`, as `docs/level-format.md` writes it), read from
    /// the source: the tutorial says which page has a level before any level is built or run. `LevelProgramTests` holds
    /// it to what each built level describes.
    public func pageInSource() -> Int? {
        guard let text = try? String(contentsOf: sourceFolder.appendingPathComponent("main.swift"), encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix("page:") else { continue }
            return Int(words.dropFirst("page:".count).trimmingCharacters(in: CharacterSet(charactersIn: " ,")))
        }
        return nil
    }

    /// The level's Swift files as they are on disk now, by name.
    public func listSourceFiles() -> [URL] {
        Page.sourceFiles(main: sourceFolder.appendingPathComponent("main.swift"))
    }

    /// The level's program is missing or older than one of its files, so it is built before it runs.
    public func programIsStale(in productsDirectory: String = BuildProducts.directory.path) -> Bool {
        ProgramFreshness.isStale(program: productsDirectory + "/" + product, sourceFolder: sourceFolder.path)
    }
}

/// The levels under `Levels/`, in order, found on disk as `PageCatalog` finds the pages under `Lessons/`.
public struct LevelCatalog: Sendable {
    public var levels: [Level]
    public var root: URL

    public init(levels: [Level], root: URL) {
        self.levels = levels
        self.root = root
    }

    /// The `NN-Name` folders of `root`'s `Levels/`; none when there is no such folder (a checkout from before the levels).
    public static func load(root: URL = PageCatalog.defaultRoot) -> LevelCatalog {
        let folder = root.appendingPathComponent("Levels")
        var names: [String] = []
        FolderNames.forEach(in: folder.path) { names.append($0) }
        let levels = names.sorted().compactMap { name -> Level? in
            guard let number = PageCatalog.pageNumber(ofFolder: name) else { return nil }
            return Level(number: number, folder: name, product: "Level" + name.filter { $0 != "-" },
                         sourceFolder: folder.appending(path: name, directoryHint: .isDirectory))
        }
        return LevelCatalog(levels: levels, root: root)
    }

    /// Each level drawn from a page, by the name its folder gives (which the commands take) and that page's number.
    public var levelsOnPages: [(name: String, page: Int)] {
        levels.compactMap { level in level.pageInSource().map { (level.folderName, $0) } }
    }

    /// The level `query` names by its number, its folder, its product or the name its folder gives, ignoring case;
    /// nil when none does (its described name is `LevelPrograms.level(named:)`'s to try).
    public func level(namedByFolder query: String) -> Level? {
        PageCatalog.first(of: levels, named: query, number: \.number) { [$0.folderName, $0.folder, $0.product] }
    }
}
