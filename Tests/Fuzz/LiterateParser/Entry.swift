// libFuzzer entry for the literate page parser, the knob reader and the Swift lexer under them: what a learner's
// edited `main.swift` feeds the tour. Built and run by `scripts/fuzz.sh`, never by `swift build`.
@testable import TourCore
@testable import RunModel
@testable import PageText

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLiterateParser(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lineCount = PageSource(source).lines.reduce(0) { highest, line in
        switch line {
        case .prose(_, let number), .code(_, let number): max(highest, number)
        case .proseBreak: highest
        }
    }
    let document = LiterateParser.parse(source)
    // Results, diagnostics and the editor are placed by these numbers: each must be a line of the file.
    for line in document.codeLines {
        precondition((1...max(lineCount, 1)).contains(line.number), "code line \(line.number) of \(lineCount)")
    }
    _ = document.title
    _ = document.deepDives
    _ = LiterateParser.knobs(in: source, helperSources: [source])
    // The highlighter paints each token's columns: they must lie inside the token's line.
    var lexer = SwiftLexer()
    for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let text = String(line)
        for token in lexer.tokens(in: text, number: index + 1) {
            precondition(token.columns.lowerBound >= 0 && token.columns.upperBound <= text.count,
                         "token columns \(token.columns) in a line of \(text.count) characters")
        }
    }
    return 0
}
