import PageProtocol

/// A `knob(...)` call found in a page's code, so the host can list knobs and check `--set` before a run.
public struct KnobDeclaration: Sendable, Equatable {
    /// The knob as declared: the spec whose `value(from:)` checks a setting, as the page will.
    public var spec: KnobSpec
    /// The line of `main.swift` where the call starts.
    public var line: Int

    public init(name: String, kind: KnobKind, line: Int) {
        self.spec = KnobSpec(name: name, kind: kind)
        self.line = line
    }

    public var name: String { spec.name }
    public var kind: KnobKind { spec.kind }
}

extension LiterateParser {
    /// The knobs `source` declares, in source order; calls in prose, comments or strings don't count,
    /// and a call this cannot read, such as one whose name is a variable, is left out.
    ///
    /// A choice knob's enumeration may live in a helper file beside `main.swift`; pass those files'
    /// sources as `helperSources` so its choices are known too.
    public static func knobs(in source: String, helperSources: [String] = []) -> [KnobDeclaration] {
        knobs(in: PageSource(source), helperSources: helperSources)
    }

    /// The knobs of a `main.swift` already read, for a caller that also wants its lines.
    static func knobs(in source: PageSource, helperSources: [String]) -> [KnobDeclaration] {
        let helperTokens = helperSources.flatMap { PageSource($0).codeTokens }
        return KnobScanner(tokens: source.codeTokens, helperTokens: helperTokens).declarations()
    }
}

private struct KnobScanner {
    let tokens: [SwiftToken]
    let helperTokens: [SwiftToken]

    /// A `String, CaseIterable` enumeration of the page: its cases' names and raw values, in order.
    private struct ChoiceEnumeration {
        var name: String
        var cases: [(name: String, rawValue: String)]
    }

    func declarations() -> [KnobDeclaration] {
        let enumerations = Self.choiceEnumerations(in: tokens) + Self.choiceEnumerations(in: helperTokens)
        return tokens.indices.compactMap { index in
            guard tokens[index].kind == .identifier("knob"), isCall(at: index) else { return nil }
            return declaration(at: index, enumerations: enumerations)
        }
    }

    /// Leaves out `func knob(` and `something.knob(`, which are not LessonKit's function being called.
    private func isCall(at index: Int) -> Bool {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .punctuation("(") else { return false }
        guard index > 0 else { return true }
        switch tokens[index - 1].kind {
        case .identifier("func"): return false
        case .operator("."): return index >= 2 && tokens[index - 2].kind == .identifier("LessonKit")
        default: return true
        }
    }

    private func declaration(at index: Int, enumerations: [ChoiceEnumeration]) -> KnobDeclaration? {
        var cursor = TokenCursor(tokens: tokens, position: index + 2)
        guard case .string(let name?) = cursor.next(), cursor.take(.punctuation(",")),
              cursor.take(.identifier("default")), cursor.take(.punctuation(":")) else { return nil }
        let start = cursor
        let kind = Self.boolean(&cursor) ?? Self.integer(&cursor)
            ?? { cursor = start; return choice(&cursor, knobAt: index, enumerations: enumerations) }()
        guard let kind, cursor.take(.punctuation(",")) || cursor.take(.punctuation(")")) else { return nil }
        return KnobDeclaration(name: name, kind: kind, line: tokens[index].line)
    }

    private static func boolean(_ cursor: inout TokenCursor) -> KnobKind? {
        switch cursor.peek() {
        case .identifier("true"): cursor.skip(); return .boolean(default: true)
        case .identifier("false"): cursor.skip(); return .boolean(default: false)
        default: return nil
        }
    }

    /// `2, in: 1...8`, where any of the numbers may be negative.
    private static func integer(_ cursor: inout TokenCursor) -> KnobKind? {
        var attempt = cursor
        guard let value = attempt.integer(), attempt.take(.punctuation(",")),
              attempt.take(.identifier("in")), attempt.take(.punctuation(":")),
              let lower = attempt.integer(), attempt.take(.operator("...")),
              let upper = attempt.integer(), lower <= upper else { return nil }
        cursor = attempt
        return .integer(default: value, range: lower...upper)
    }

    /// `Mode.serial` or `.serial`; the latter takes its type from `let mode: Mode = knob(…)`, or else
    /// from the one enumeration of the page that has such a case.
    private func choice(_ cursor: inout TokenCursor, knobAt knobIndex: Int, enumerations: [ChoiceEnumeration]) -> KnobKind? {
        var path: [String] = []
        if cursor.take(.operator(".")) {
            path.append("")
        }
        repeat {
            guard case .identifier(let component) = cursor.next() else { return nil }
            path.append(component)
        } while cursor.take(.operator("."))
        guard path.count >= 2, let caseName = path.last else { return nil }
        let typeName = path[path.count - 2].isEmpty ? annotatedType(beforeKnobAt: knobIndex) : path[path.count - 2]
        let candidates = enumerations.filter { enumeration in
            typeName.map { enumeration.name == $0 } ?? enumeration.cases.contains { $0.name == caseName }
        }
        guard candidates.count == 1, let enumeration = candidates.first else {
            return .choice(default: caseName, choices: nil)
        }
        let rawValue = enumeration.cases.first { $0.name == caseName }?.rawValue ?? caseName
        return .choice(default: rawValue, choices: enumeration.cases.map(\.rawValue))
    }

    /// `Mode` in `let mode: Mode = knob(…)`.
    private func annotatedType(beforeKnobAt index: Int) -> String? {
        guard index >= 3, tokens[index - 1].kind == .operator("="), tokens[index - 3].kind == .punctuation(":"),
              case .identifier(let type) = tokens[index - 2].kind else { return nil }
        return type
    }

    /// Every `enum Name: String, …, CaseIterable, … { case … }` in the code, with the cases declared directly in its body.
    private static func choiceEnumerations(in tokens: [SwiftToken]) -> [ChoiceEnumeration] {
        tokens.indices.compactMap { index in
            guard tokens[index].kind == .identifier("enum") else { return nil }
            var cursor = TokenCursor(tokens: tokens, position: index + 1)
            guard case .identifier(let name) = cursor.next(), cursor.take(.punctuation(":")),
                  cursor.take(.identifier("String")) else { return nil }
            var conformances: [String] = []
            while cursor.take(.punctuation(",")) {
                guard case .identifier(let conformance) = cursor.next() else { return nil }
                conformances.append(conformance)
            }
            guard conformances.contains("CaseIterable"), cursor.take(.punctuation("{")) else { return nil }
            return ChoiceEnumeration(name: name, cases: cases(&cursor))
        }
    }

    /// The cases of the body the cursor is in, up to its closing brace; `case a, b = "bee"` gives `a` and `bee`.
    private static func cases(_ cursor: inout TokenCursor) -> [(name: String, rawValue: String)] {
        var cases: [(name: String, rawValue: String)] = []
        var depth = 1
        while let kind = cursor.next() {
            switch kind {
            case .punctuation("{"): depth += 1
            case .punctuation("}"):
                depth -= 1
                if depth == 0 { return cases }
            case .identifier("case") where depth == 1:
                repeat {
                    guard case .identifier(let name) = cursor.peek() else { break }
                    cursor.skip()
                    var rawValue = name
                    if cursor.take(.operator("=")), case .string(let value?) = cursor.next() { rawValue = value }
                    cases.append((name, rawValue))
                } while cursor.take(.punctuation(","))
            default: break
            }
        }
        return cases
    }
}

/// Walks a token list, matching one expected token at a time.
private struct TokenCursor {
    let tokens: [SwiftToken]
    var position: Int

    func peek() -> SwiftToken.Kind? {
        position < tokens.count ? tokens[position].kind : nil
    }

    mutating func skip() {
        position += 1
    }

    mutating func next() -> SwiftToken.Kind? {
        defer { position += 1 }
        return peek()
    }

    /// Moves past the next token if it is `kind`.
    mutating func take(_ kind: SwiftToken.Kind) -> Bool {
        guard peek() == kind else { return false }
        position += 1
        return true
    }

    /// A whole number written as digits, with an optional minus sign and `_` separators.
    mutating func integer() -> Int? {
        var attempt = self
        let sign = attempt.take(.operator("-")) ? "-" : ""
        guard case .number(let digits) = attempt.next(),
              let value = Int(sign + digits.filter { $0 != "_" }) else { return nil }
        self = attempt
        return value
    }
}
