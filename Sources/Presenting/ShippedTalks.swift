/// The talks the tour ships, one for each part, as paths from the checkout's root. Messages and the help name them
/// from here; `TalkScriptTests` fails when `assets/talks/` holds another.
public enum ShippedTalks {
    public static let partOne = "assets/talks/part-one.talk"
    public static let partTwo = "assets/talks/part-two.talk"
    public static let all = [partOne, partTwo]

    /// "assets/talks/part-one.talk and assets/talks/part-two.talk", for a message.
    public static var named: String { all.joined(separator: " and ") }
}
