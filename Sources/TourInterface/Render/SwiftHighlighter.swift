/// Colours Swift code line by line: keywords, strings, comments and numbers, which is what a reader needs
/// to find their way in a page; block comments and multi-line strings carry over from line to line.
struct SwiftHighlighter {
    private var commentDepth = 0
    private var inMultilineString = false

    static let keywords: Set<String> = [
        "actor", "any", "as", "associatedtype", "async", "await", "break", "case", "catch", "class", "continue",
        "convenience", "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
        "fileprivate", "final", "for", "func", "guard", "if", "import", "in", "indirect", "init", "inout", "internal",
        "is", "lazy", "let", "mutating", "nil", "nonisolated", "open", "operator", "override", "private", "protocol",
        "public", "repeat", "required", "rethrows", "return", "self", "Self", "some", "static", "struct", "subscript",
        "super", "switch", "throw", "throws", "true", "try", "typealias", "unowned", "var", "weak", "where", "while",
    ]

    /// The colour of each character of `line`, in order.
    mutating func colors(of line: String) -> [PaletteColor?] {
        let characters = Array(line)
        var colors = [PaletteColor?](repeating: nil, count: characters.count)
        var index = 0

        func paint(_ range: Range<Int>, _ color: PaletteColor) {
            for position in range { colors[position] = color }
        }
        func startsWith(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text)
            return position + pattern.count <= characters.count && Array(characters[position..<(position + pattern.count)]) == pattern
        }

        while index < characters.count {
            if commentDepth > 0 {
                let start = index
                while index < characters.count && commentDepth > 0 {
                    if startsWith("/*", at: index) { commentDepth += 1; index += 2 }
                    else if startsWith("*/", at: index) { commentDepth -= 1; index += 2 }
                    else { index += 1 }
                }
                paint(start..<min(index, characters.count), .comment)
                continue
            }
            if inMultilineString {
                let start = index
                while index < characters.count && !startsWith("\"\"\"", at: index) { index += 1 }
                if index < characters.count { index += 3; inMultilineString = false }
                paint(start..<index, .string)
                continue
            }
            let character = characters[index]
            if startsWith("//", at: index) {
                paint(index..<characters.count, .comment)
                break
            } else if startsWith("/*", at: index) {
                commentDepth = 1
                paint(index..<(index + 2), .comment)
                index += 2
            } else if startsWith("\"\"\"", at: index) {
                inMultilineString = true
                paint(index..<(index + 3), .string)
                index += 3
            } else if character == "\"" {
                let start = index
                index += 1
                while index < characters.count && characters[index] != "\"" {
                    index += characters[index] == "\\" ? 2 : 1
                }
                index = min(index + 1, characters.count)
                paint(start..<index, .string)
            } else if character.isNumber {
                let start = index
                while index < characters.count && (characters[index].isNumber || characters[index] == "_" || characters[index] == "."
                                                   && index + 1 < characters.count && characters[index + 1].isNumber) {
                    index += 1
                }
                paint(start..<index, .number)
            } else if character.isLetter || character == "_" || character == "@" || character == "#" {
                let start = index
                index += 1
                while index < characters.count && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_") {
                    index += 1
                }
                let word = String(characters[start..<index])
                if Self.keywords.contains(word) || word.count > 1 && (word.hasPrefix("@") || word.hasPrefix("#")) {
                    paint(start..<index, .keyword)
                }
            } else {
                index += 1
            }
        }
        return colors
    }
}
