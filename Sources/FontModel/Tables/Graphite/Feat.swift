/// `Feat`, Graphite's features: each feature's ID (a number or a tag), its UI name ID, flags
/// and the settings a user can pick (value and name ID), the first being the default.
/// Version 1 has 16-bit feature IDs, version 2 32-bit ones.
public final class FeatTable: DecodableTable, DiffableTable, Equatable {
    public static let tableTag: Tag = "Feat"

    public struct Setting: Hashable, Sendable {
        public var value: UInt16
        public var label: UInt16
        public init(value: UInt16, label: UInt16) { self.value = value; self.label = label }
    }

    public struct Feature: Equatable, Sendable {
        public var id: UInt32
        public var flags: UInt16
        public var label: UInt16
        /// In table order; the first is the default.
        public var settings: [Setting]
        public init(id: UInt32, flags: UInt16, label: UInt16, settings: [Setting]) {
            self.id = id; self.flags = flags; self.label = label; self.settings = settings
        }
        /// The default setting's value (0 without settings).
        public var defaultValue: UInt16 { settings.first?.value ?? 0 }
    }

    /// 16.16 fixed (0x00020000 is 2.0).
    public let version: UInt32
    public let features: [Feature]
    public let isEdited = false

    public static func == (a: FeatTable, b: FeatTable) -> Bool { a.version == b.version && a.features == b.features }

    public init(version: UInt32, features: [Feature]) { self.version = version; self.features = features }

    public static func decode(_ reader: BinaryReader, face: Face) throws -> FeatTable {
        var r = reader
        let version = try r.u32()
        let count = Int(try r.u16())
        try r.skip(6)
        let wide = version >= 0x0002_0000
        guard count <= r.remaining / (wide ? 16 : 12) else { throw r.error("Feat claims \(count) features, more than the table holds") }
        let features: [Feature] = try (0..<count).map { k in
            let id = wide ? try r.u32() : UInt32(try r.u16())
            let settingCount = Int(try r.u16())
            if wide { try r.skip(2) }
            let offset = Int(try r.u32()), flags = try r.u16(), label = try r.u16()
            guard offset <= reader.count, settingCount <= (reader.count - offset) / 4 else {
                throw reader.error(
                    "Feat feature \(k): \(settingCount) settings at \(offset) run past the end of the table (\(reader.count) bytes)",
                    at: r.offset - 8)
            }
            var s = try reader.sub(offset, 4 * settingCount)
            let settings = try (0..<settingCount).map { _ in Setting(value: try s.u16(), label: try s.u16()) }
            return Feature(id: id, flags: flags, label: label, settings: settings)
        }
        return FeatTable(version: version, features: features)
    }

    public func encode() throws -> [UInt8] {
        // A feature ID past 16 bits needs version 2, as fontTools decides too.
        let wide = version >= 0x0002_0000 || features.contains { $0.id > 0xFFFF }
        var w = BinaryWriter()
        w.u32(wide && version < 0x0002_0000 ? 0x0002_0000 : version)
        try w.u16(features.count, "Feat feature count"); w.u16(0); w.u32(0)
        // Features with the same settings (aliases such as cv01 and its tag) share one list,
        // as the Graphite compiler writes them.
        var settingsAt = 12 + features.count * (wide ? 16 : 12)
        var written: [[Setting]: Int] = [:]
        var lists: [[Setting]] = []
        for f in features {
            if wide { w.u32(f.id) } else { w.u16(UInt16(f.id)) }
            try w.u16(f.settings.count, "Feat setting count")
            if wide { w.u16(0) }
            if let shared = written[f.settings], !f.settings.isEmpty {
                try w.u32(shared, "Feat settings offset")
            } else {
                try w.u32(settingsAt, "Feat settings offset")
                written[f.settings] = settingsAt
                lists.append(f.settings)
                settingsAt += 4 * f.settings.count
            }
            w.u16(f.flags); w.u16(f.label)
        }
        for list in lists { for s in list { w.u16(s.value); w.u16(s.label) } }
        return w.bytes
    }

    public func differences(to other: FontTable) -> [Difference]? {
        guard let other = other as? FeatTable else { return nil }
        func items(_ t: FeatTable) -> [(String, String)] {
            [("version", Graphite.versionText(t.version))]
                + t.features.map { f in
                    (
                        "feature \(Graphite.featureIDText(f.id))",
                        "label \(f.label), flags \(f.flags), default \(f.defaultValue), settings "
                            + f.settings.map { "\($0.value):\($0.label)" }.joined(separator: " ")
                    )
                }
        }
        return Difference.keyed(table: "Feat", items(self), items(other))
    }
}
