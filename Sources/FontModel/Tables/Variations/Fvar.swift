/// `fvar`, font variations: the design axes (tag, range, default, name) and the named instances
/// (a subfamily name and a coordinate on every axis). Written by hand rather than described:
/// records are `axisSize`/`instanceSize` bytes apart and an instance's PostScript name id is
/// there only when its size says so, which the structure description cannot say.
public final class FvarTable: DecodableTable, DiffableTable {
    public static let tableTag: Tag = "fvar"

    public struct Axis: Equatable, Sendable {
        public var tag: Tag
        public var minimum: Double
        public var defaultValue: Double
        public var maximum: Double
        /// 0x0001: hidden from user interfaces.
        public var flags: UInt16
        public var nameID: Int
        public init(tag: Tag, minimum: Double, defaultValue: Double, maximum: Double, flags: UInt16 = 0, nameID: Int) {
            self.tag = tag; self.minimum = minimum; self.defaultValue = defaultValue; self.maximum = maximum
            self.flags = flags; self.nameID = nameID
        }
        public var isHidden: Bool { flags & 1 != 0 }
    }

    public struct Instance: Equatable, Sendable {
        public var subfamilyNameID: Int
        public var flags: UInt16
        /// User coordinates, one per axis in axis order.
        public var coordinates: [Double]
        /// nil when the table's instance records have no PostScript name id (or it is 0xFFFF).
        public var postScriptNameID: Int?

        public init(subfamilyNameID: Int, flags: UInt16 = 0, coordinates: [Double], postScriptNameID: Int? = nil) {
            self.subfamilyNameID = subfamilyNameID; self.flags = flags; self.coordinates = coordinates;
            self.postScriptNameID = postScriptNameID
        }
    }

    public private(set) var axes: [Axis]
    public private(set) var instances: [Instance]
    /// Whether instance records carry a PostScript name id (even where it is 0xFFFF).
    public let hasPostScriptNameIDs: Bool
    public private(set) var isEdited = false

    public init(axes: [Axis], instances: [Instance], hasPostScriptNameIDs: Bool) {
        self.axes = axes; self.instances = instances; self.hasPostScriptNameIDs = hasPostScriptNameIDs
    }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> FvarTable {
        var r = reader
        let major = try r.u16()
        _ = try r.u16()
        guard major == 1 else { throw r.error("fvar major version \(major) is not 1", at: 0) }
        let axesOffset = Int(try r.u16())
        try r.skip(2)
        let axisCount = Int(try r.u16()), axisSize = Int(try r.u16())
        let instanceCount = Int(try r.u16()), instanceSize = Int(try r.u16())
        guard axisSize >= 20 else { throw r.error("fvar axis records are \(axisSize) bytes; at least 20 expected", at: 10) }
        let plain = 4 + 4 * axisCount
        guard instanceSize == plain || instanceSize == plain + 2 else {
            throw r.error(
                "fvar instance records are \(instanceSize) bytes; \(plain) or \(plain + 2) expected for \(axisCount) axes", at: 14)
        }
        // Check the whole extent before reading, so counts past the data fail with one message.
        _ = try reader.sub(axesOffset, axisCount * axisSize + instanceCount * instanceSize)
        var axes: [Axis] = []
        for i in 0..<axisCount {
            var a = try reader.sub(axesOffset + i * axisSize, axisSize)
            let tag = try a.tag()
            let lo = try a.fixed().value, def = try a.fixed().value, hi = try a.fixed().value
            let flags = try a.u16(), nameID = Int(try a.u16())
            guard lo <= def, def <= hi else {
                throw a.error("fvar axis '\(tag)' has min \(lo), default \(def), max \(hi): not in order", at: 4)
            }
            axes.append(Axis(tag: tag, minimum: lo, defaultValue: def, maximum: hi, flags: flags, nameID: nameID))
        }
        var instances: [Instance] = []
        let instancesStart = axesOffset + axisCount * axisSize
        for i in 0..<instanceCount {
            var a = try reader.sub(instancesStart + i * instanceSize, instanceSize)
            let nameID = Int(try a.u16()), flags = try a.u16()
            var coordinates: [Double] = []
            for _ in 0..<axisCount { coordinates.append(try a.fixed().value) }
            var psID: Int?
            if instanceSize == plain + 2 { let v = Int(try a.u16()); psID = v == 0xFFFF ? nil : v }
            instances.append(Instance(subfamilyNameID: nameID, flags: flags, coordinates: coordinates, postScriptNameID: psID))
        }
        return FvarTable(axes: axes, instances: instances, hasPostScriptNameIDs: instanceSize == plain + 2)
    }

    public func axisIndex(_ tag: Tag) -> Int? { axes.firstIndex { $0.tag == tag } }

    public func encode() throws -> [UInt8] {
        var w = BinaryWriter()
        let instanceSize = 4 + 4 * axes.count + (hasPostScriptNameIDs ? 2 : 0)
        w.u16(1); w.u16(0); w.u16(16); w.u16(2)
        try w.u16(axes.count, "fvar axis count"); w.u16(20)
        try w.u16(instances.count, "fvar instance count"); try w.u16(instanceSize, "fvar instance size")
        for a in axes {
            w.tag(a.tag)
            for v in [a.minimum, a.defaultValue, a.maximum] { w.fixed(try fixed(v)) }
            w.u16(a.flags); try w.u16(a.nameID, "fvar axis name id")
        }
        for i in instances {
            try w.u16(i.subfamilyNameID, "fvar instance name id"); w.u16(i.flags)
            for v in i.coordinates { w.fixed(try fixed(v)) }
            if hasPostScriptNameIDs { try w.u16(i.postScriptNameID ?? 0xFFFF, "fvar PostScript name id") }
        }
        return w.bytes
    }

    private func fixed(_ v: Double) throws -> Fixed {
        guard let fixed = Fixed(rounding: v) else { throw FontError("fvar value \(v) does not fit Fixed", table: "fvar") }
        return fixed
    }
}

extension FvarTable {
    /// Axes by tag (range, default, flags, name ID), instances by index (name ID, coordinates).
    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? FvarTable else { return nil }
        var out: [Difference] = []
        func text(_ a: Axis) -> String { "\(a.minimum)…\(a.defaultValue)…\(a.maximum)\(a.isHidden ? " hidden" : "") name \(a.nameID)" }
        let before = Dictionary(axes.map { ($0.tag.description, $0) }, uniquingKeysWith: { x, _ in x })
        let after = Dictionary(other.axes.map { ($0.tag.description, $0) }, uniquingKeysWith: { x, _ in x })
        for tag in axes.map(\.tag.description) + other.axes.map(\.tag.description).filter({ before[$0] == nil }) {
            switch (before[tag], after[tag]) {
            case let (a?, b?) where a != b:
                out.append(Difference(kind: .changed, table: "fvar", item: "axis \(tag)", old: text(a), new: text(b)))
            case let (a?, nil): out.append(Difference(kind: .removed, table: "fvar", item: "axis \(tag)", old: text(a), new: nil))
            case let (nil, b?): out.append(Difference(kind: .added, table: "fvar", item: "axis \(tag)", old: nil, new: text(b)))
            default: break
            }
        }
        func text(_ i: Instance) -> String {
            "name \(i.subfamilyNameID) at " + i.coordinates.map { "\($0)" }.joined(separator: ", ")
                + (i.postScriptNameID.map { " PostScript name \($0)" } ?? "")
        }
        for k in 0..<max(instances.count, other.instances.count) {
            let a = k < instances.count ? instances[k] : nil, b = k < other.instances.count ? other.instances[k] : nil
            guard a != b else { continue }
            out.append(
                Difference(
                    kind: a == nil ? .added : b == nil ? .removed : .changed, table: "fvar", item: "instance \(k)", old: a.map(text),
                    new: b.map(text)))
        }
        return out
    }
}
