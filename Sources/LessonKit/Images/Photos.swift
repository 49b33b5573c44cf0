import Foundation
import PageProtocol

/// The real photos shipped in `assets/photos`, which the image pages load, filter and pass between operations.
///
/// The folder is `$TOUR_ASSETS/photos` when that variable is set, so a page binary moved away from its
/// checkout still finds them; otherwise it is `assets/photos` in the package this file was compiled from.
public enum Photos {
    /// Why a photo could not be loaded.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        /// No photo of that name is in `folder`; `valid` lists those that are.
        case unknownName(String, valid: [String], folder: String)
        /// The file is listed but could not be read.
        case unreadable(path: String)
        /// The file is not a PPM image this package can decode.
        case badFile(path: String, PPMError)

        public var description: String {
            switch self {
            case .unknownName(let name, let valid, let folder) where valid.isEmpty:
                return "no photo named '\(name)': \(folder) holds no photos; set TOUR_ASSETS to the tutorial's assets folder"
            case .unknownName(let name, let valid, _):
                return "no photo named '\(name)'; the photos are \(valid.joined(separator: ", "))"
            case .unreadable(let path):
                return "could not read the photo at \(path)"
            case .badFile(let path, let problem):
                return "\(path): \(problem)"
            }
        }
    }

    /// The names of the shipped photos, sorted, as `load` takes them: `coffee` for `coffee.ppm`.
    public static var names: [String] {
        names(in: folder)
    }

    /// Reads and decodes the photo called `name`, one of `names`.
    public static func load(_ name: String) throws(LoadError) -> RGBImage {
        let folder = self.folder
        // Matching against the listing also keeps a name like "../secret" from leaving the folder.
        let valid = names(in: folder)
        guard valid.contains(name) else {
            throw .unknownName(name, valid: valid, folder: folder.path)
        }
        let path = folder.appendingPathComponent(name + ".ppm").path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path)
        }
        do {
            return try RGBImage(ppm: [UInt8](data))
        } catch {
            throw .badFile(path: path, error)
        }
    }

    static var folder: URL {
        folder(environment: ProcessInfo.processInfo.environment)
    }

    /// The photos folder that `environment` points to; taking it as a parameter lets tests try both ways.
    static func folder(environment: [String: String]) -> URL {
        if let assets = environment[PageEnvironment.assets], !assets.isEmpty {
            return URL(fileURLWithPath: assets, isDirectory: true).appendingPathComponent("photos", isDirectory: true)
        }
        // …/Sources/LessonKit/Images/Photos.swift: four levels up is the package root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 {
            root.deleteLastPathComponent()
        }
        return root.appendingPathComponent("assets/photos", isDirectory: true)
    }

    private static func names(in folder: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".ppm") }.map { String($0.dropLast(".ppm".count)) }.sorted()
    }
}
