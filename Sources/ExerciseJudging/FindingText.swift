/// Names listed as a finding writes them: "a", "a and b", "a, b and c"; past `limit` items, "a, b, c and 2 more".
func listed(_ items: [String], with conjunction: String = "and", limit: Int = .max) -> String {
    let shown = items.count > limit ? Array(items.prefix(limit)) + ["\(items.count - limit) more"] : items
    guard let last = shown.last, shown.count > 1 else { return shown.first ?? "" }
    return shown.dropLast().joined(separator: ", ") + " \(conjunction) " + last
}
