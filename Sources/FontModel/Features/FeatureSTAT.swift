/// A feature file's `table STAT { … } STAT;` block as read, and the STAT table and name records
/// it makes, as feaLib's build_STAT makes them: every name a block gives gets a new name ID,
/// one past the highest the name table uses (after the file's own `table name` and feature
/// names), in the order elided fallback name, then each axis's name followed by the names of
/// its values, then the values on several axes (format 4), which come first in the table.
struct STATSyntax {
    enum ElidedFallback {
        case names([FeatureNameRecord])
        case id(Int)
    }

    struct Axis {
        var tag: String
        var ordering: Int
        var names: [FeatureNameRecord]
    }

    /// An AxisValue: one location with one value (format 1), two (value and linked value:
    /// format 3) or three (nominal, minimum, maximum: format 2); or several locations of one
    /// value each (format 4).
    struct Value {
        var names: [FeatureNameRecord]
        var locations: [(tag: String, values: [Double])]
        var flags: Int
    }

    static let flags = ["OlderSiblingFontAttribute": 1, "ElidableAxisValueName": 2]

    private(set) var elidedFallback: ElidedFallback?
    private(set) var axes: [Axis] = []
    private(set) var values: [Value] = []
    /// Where the block starts (errors found when it is built name it).
    private(set) var location: FeatureLocation?

    var isEmpty: Bool { location == nil }

    mutating func setElidedFallback(_ value: ElidedFallback, at: FeatureLocation) throws {
        location = location ?? at
        switch elidedFallback {
        case .names?: throw FeatureFileError("ElidedFallbackName is already set", at)
        case .id?: throw FeatureFileError("ElidedFallbackNameID is already set", at)
        case nil: elidedFallback = value
        }
    }

    mutating func addAxis(_ axis: Axis, at: FeatureLocation) throws {
        location = location ?? at
        if axes.contains(where: { $0.tag == axis.tag }) {
            throw FeatureFileError("a DesignAxis is already defined for '\(axis.tag.trimmingSpaces)'", at)
        }
        if axes.contains(where: { $0.ordering == axis.ordering }) {
            throw FeatureFileError("a DesignAxis is already defined with ordering \(axis.ordering)", at)
        }
        axes.append(axis)
    }

    mutating func addValue(_ value: Value, at: FeatureLocation) throws {
        location = location ?? at
        func key(_ v: Value) -> (Set<FeatureNameRecord>, Set<String>, Int) {
            (Set(v.names), Set(v.locations.map { "\($0.tag) \($0.values)" }), v.flags)
        }
        let new = key(value)
        if values.contains(where: { key($0) == new }) { throw FeatureFileError("an AxisValue with these values is already defined", at) }
        values.append(value)
    }

    /// The STAT table and the name records to add (name ID, record). `usedNameIDs`: every ID
    /// the name table will have without them.
    func build(usedNameIDs: Set<Int>) throws -> (table: StructFields, names: [(Int, FeatureNameRecord)]) {
        guard !axes.isEmpty else { throw FeatureFileError("table STAT needs at least one DesignAxis", location) }
        var nextID = max(usedNameIDs.max() ?? 0, 255) + 1
        var names: [(Int, FeatureNameRecord)] = []
        func newName(_ records: [FeatureNameRecord]) -> Int64 {
            defer { nextID += 1 }
            names += records.map { (nextID, $0) }
            return Int64(nextID)
        }
        func fixed(_ v: Double) -> StructValue { .int(Int64(Fixed(clamping: v).raw)) }

        let elidedID: Int64
        switch elidedFallback {
        case .names(let records)?: elidedID = newName(records)
        case .id(let id)?:
            guard usedNameIDs.contains(id) else {
                throw FeatureFileError("ElidedFallbackNameID \(id) names no record of the name table", location)
            }
            elidedID = Int64(id)
        case nil: throw FeatureFileError("table STAT needs an ElidedFallbackName or ElidedFallbackNameID", location)
        }

        var axisRecords: [StructValue] = []
        var singleAxisValues: [StructValue] = []
        for (index, axis) in axes.enumerated() {
            axisRecords.append(
                .record(
                    StructFieldsBuilder.make([
                        ("AxisTag", .int(Int64(Tag(text: axis.tag).rawValue))), ("AxisNameID", .int(newName(axis.names))),
                        ("AxisOrdering", .int(Int64(axis.ordering))),
                    ])))
            for value in values where value.locations.count == 1 && value.locations[0].tag == axis.tag {
                var f = StructFields()
                f["AxisIndex"] = .int(Int64(index))
                f["Flags"] = .int(Int64(value.flags))
                f["ValueNameID"] = .int(newName(value.names))
                let v = value.locations[0].values
                switch v.count {
                case 1:
                    f["Value"] = fixed(v[0])
                    singleAxisValues.append(.formatted(1, f))
                case 2:
                    f["Value"] = fixed(v[0])
                    f["LinkedValue"] = fixed(v[1])
                    singleAxisValues.append(.formatted(3, f))
                default:
                    f["NominalValue"] = fixed(v[0])
                    f["RangeMinValue"] = fixed(v[1])
                    f["RangeMaxValue"] = fixed(v[2])
                    singleAxisValues.append(.formatted(2, f))
                }
            }
        }
        var multiAxisValues: [StructValue] = []
        for value in values where value.locations.count > 1 {
            let records = value.locations.map { l in (axes.firstIndex { $0.tag == l.tag }!, l.values[0]) }.sorted { $0.0 < $1.0 }
            multiAxisValues.append(
                .formatted(
                    4,
                    StructFieldsBuilder.make([
                        ("Flags", .int(Int64(value.flags))), ("ValueNameID", .int(newName(value.names))),
                        (
                            "AxisValueRecord",
                            .list(
                                records.map {
                                    .record(StructFieldsBuilder.make([("AxisIndex", .int(Int64($0.0))), ("Value", fixed($0.1))]))
                                })
                        ),
                    ])))
        }
        let axisValues = multiAxisValues + singleAxisValues
        var root = StructFields()
        root["Version"] = .int(multiAxisValues.isEmpty ? 0x0001_0001 : 0x0001_0002)
        root["DesignAxisRecordSize"] = .int(8)
        root["DesignAxisRecord"] = .record(StructFieldsBuilder.make(["Axis": .list(axisRecords)]))
        root["AxisValueArray"] = axisValues.isEmpty ? StructValue.none : .record(StructFieldsBuilder.make(["AxisValue": .list(axisValues)]))
        root["ElidedFallbackNameID"] = .int(elidedID)
        return (root, names)
    }
}
