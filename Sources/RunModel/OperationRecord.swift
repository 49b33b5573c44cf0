import PageProtocol

/// The states one operation went through, in order.
public struct OperationRecord: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var state: OperationState
        public var time: UInt64
        public var thread: Int32
        public var queue: String
    }

    public var id: Int
    public var name: String
    public var changes: [Change]

    public func firstTime(of state: OperationState) -> UInt64? {
        changes.first { $0.state == state }?.time
    }
}

/// `operation` waits for `dependsOn`.
public struct Dependency: Sendable, Equatable {
    public var operation: Int
    public var operationName: String
    public var dependsOn: Int
    public var dependencyName: String
    public var time: UInt64
    /// The thread that added the dependency.
    public var thread: Int32 = 0
}
