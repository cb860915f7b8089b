/// An Encodable value as the plain values `JSONText.write` takes (objects as `[String: Any]`,
/// arrays as `[Any]`), so Codable types (the registry's records, the manifest) are written by
/// the same writer as everything else.
extension JSONText {
    public static func write<T: Encodable>(encoding value: T, pretty: Bool = false) throws -> String {
        write(try plainValue(of: value), pretty: pretty)
    }

    public static func plainValue<T: Encodable>(of value: T) throws -> Any {
        let encoder = PlainValueEncoder()
        try value.encode(to: encoder)
        return encoder.root?.value ?? JSONNull()
    }
}

/// A node of the value being built: containers are shared boxes, filled in place as Codable
/// encodes (each member or item added without copying the others).
private final class Node {
    enum Kind { case object, array, leaf }
    let kind: Kind
    var members: [String: Node] = [:]
    var items: [Node] = []
    var leaf: Any = JSONNull()

    private init(_ kind: Kind) { self.kind = kind }
    static func object() -> Node { Node(.object) }
    static func array() -> Node { Node(.array) }
    static func leaf(_ value: Any) -> Node {
        let node = Node(.leaf)
        node.leaf = value
        return node
    }

    var value: Any {
        switch kind {
        case .object: members.mapValues(\.value)
        case .array: items.map(\.value)
        case .leaf: leaf
        }
    }
}

private final class PlainValueEncoder: Encoder {
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var root: Node?

    init(root: Node? = nil) { self.root = root }

    private func node(_ fresh: () -> Node) -> Node {
        if let root { return root }
        let made = fresh()
        root = made
        return made
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(node: node(Node.object)))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer { Unkeyed(node: node(Node.array)) }

    func singleValueContainer() -> SingleValueEncodingContainer { Single(encoder: self) }

    /// A value encoded through its own `encode(to:)` (nested Codable types).
    static func encode(_ value: Encodable) throws -> Node {
        switch value {
        case let v as String: return Node.leaf(v)
        case let v as Bool: return Node.leaf(v)
        case let v as Int: return Node.leaf(v)
        case let v as Double: return Node.leaf(v)
        // Every other number type encodes itself as itself: taken here, or it would recurse.
        case let v as any BinaryInteger: return Node.leaf(Int(exactly: v) ?? Double(v))
        case let v as any BinaryFloatingPoint: return Node.leaf(Double(v))
        default:
            let encoder = PlainValueEncoder()
            try value.encode(to: encoder)
            return encoder.root ?? Node.leaf(JSONNull())
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [CodingKey] = []

        private func set(_ key: Key, _ child: Node) { node.members[key.stringValue] = child }

        mutating func encodeNil(forKey key: Key) throws { set(key, Node.leaf(JSONNull())) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(key, try PlainValueEncoder.encode(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
            NestedKey
        > {
            let child = Node.object()
            set(key, child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            let child = Node.array()
            set(key, child)
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> Encoder { PlainValueEncoder(root: node) }
        mutating func superEncoder(forKey key: Key) -> Encoder {
            let child = Node.object()
            set(key, child)
            return PlainValueEncoder(root: child)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [CodingKey] = []
        var count: Int { node.items.count }

        private func append(_ child: Node) { node.items.append(child) }

        mutating func encodeNil() throws { append(Node.leaf(JSONNull())) }
        mutating func encode<T: Encodable>(_ value: T) throws { append(try PlainValueEncoder.encode(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node.object()
            append(child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            let child = Node.array()
            append(child)
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> Encoder {
            let child = Node.object()
            append(child)
            return PlainValueEncoder(root: child)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: PlainValueEncoder
        var codingPath: [CodingKey] = []

        mutating func encodeNil() throws { encoder.root = Node.leaf(JSONNull()) }
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.root = try PlainValueEncoder.encode(value) }
    }
}
