/// What GSUB and GPOS share, described once (OpenType's "common table formats"): the script
/// and feature lists, the lookup list, and the contextual subtables whose rules call lookups.
/// Names are fontTools' (its otData), so TTX interoperates.
enum LayoutCommon {
    /// The header both tables start with (1.1 adds FeatureVariations).
    // swift-format-ignore
    static func header(_ name: String, lookups: [Int: SwitchCase]) -> Shape {
        .record(Record(name, [
            Member("Version", .scalar(.version32), ttx: .hex8),
            Member("ScriptList", .offset16(.record(scriptList))),
            Member("FeatureList", .offset16(.record(featureList))),
            Member("LookupList", .offset16(lookupList(lookups))),
            Member("FeatureVariations", .offset32(.record(featureVariations)), since: 0x0001_0001),
        ]))
    }

    // swift-format-ignore
    static let langSys = Record("LangSys", [
        Member("LookupOrder", .offset16(.undescribed("a LookupOrder (reserved, always null)"))),
        Member("ReqFeatureIndex", .scalar(.uint16)),
        Member("FeatureCount", .scalar(.uint16)),
        Member("FeatureIndex", .scalar(.uint16), count: "FeatureCount"),
    ])

    // swift-format-ignore
    static let scriptList = Record("ScriptList", [
        Member("ScriptCount", .scalar(.uint16)),
        Member("ScriptRecord", .record(Record("ScriptRecord", [
            Member("ScriptTag", .scalar(.tag)),
            Member("Script", .offset16(.record(Record("Script", [
                Member("DefaultLangSys", .offset16(.record(langSys))),
                Member("LangSysCount", .scalar(.uint16)),
                Member("LangSysRecord", .record(Record("LangSysRecord", [
                    Member("LangSysTag", .scalar(.tag)),
                    Member("LangSys", .offset16(.record(langSys))),
                ])), count: "LangSysCount"),
            ])))),
        ])), count: "ScriptCount"),
    ])

    // swift-format-ignore
    static let feature = Record("Feature", [
        Member("FeatureParams", .offset16(featureParams)),
        Member("LookupCount", .scalar(.uint16)),
        Member("LookupListIndex", .scalar(.uint16), count: "LookupCount"),
    ])

    /// A feature's parameters, whose layout its tag (the enclosing FeatureRecord's) chooses:
    /// 'size' the optical size range, ss01–ss20 a stylistic set's name, cv01–cv99 a character
    /// variant's names and characters. Element names are fontTools'.
    static let featureParams: Shape = .switched(
        on: "FeatureTag",
        {
            var cases = [Int(Tag(text: "size").rawValue): SwitchCase("FeatureParamsSize", .record(sizeParams))]
            for n in 1...99 {
                let digits = n < 10 ? "0\(n)" : "\(n)"
                if n <= 20 {
                    cases[Int(Tag(text: "ss" + digits).rawValue)] = SwitchCase("FeatureParamsStylisticSet", .record(stylisticSetParams))
                }
                cases[Int(Tag(text: "cv" + digits).rawValue)] = SwitchCase(
                    "FeatureParamsCharacterVariants", .record(characterVariantParams))
            }
            return cases
        }())

    /// Sizes in decipoints (TTX writes points: 12.0); the range is where this design is meant.
    // swift-format-ignore
    static let sizeParams = Record("FeatureParamsSize", [
        Member("DesignSize", .scalar(.uint16), ttx: .deciPoints),
        Member("SubfamilyID", .scalar(.uint16)),
        Member("SubfamilyNameID", .scalar(.uint16), ttx: .nameID),
        Member("RangeStart", .scalar(.uint16), ttx: .deciPoints),
        Member("RangeEnd", .scalar(.uint16), ttx: .deciPoints),
    ])

    // swift-format-ignore
    static let stylisticSetParams = Record("FeatureParamsStylisticSet", [
        Member("Version", .scalar(.uint16)),
        Member("UINameID", .scalar(.uint16), ttx: .nameID),
    ])

    // swift-format-ignore
    static let characterVariantParams = Record("FeatureParamsCharacterVariants", [
        Member("Format", .scalar(.uint16)),
        Member("FeatUILabelNameID", .scalar(.uint16), ttx: .nameID),
        Member("FeatUITooltipTextNameID", .scalar(.uint16), ttx: .nameID),
        Member("SampleTextNameID", .scalar(.uint16), ttx: .nameID),
        Member("NumNamedParameters", .scalar(.uint16)),
        Member("FirstParamUILabelNameID", .scalar(.uint16), ttx: .nameID),
        Member("CharCount", .scalar(.uint16)),
        Member("Character", .scalar(.uint24), count: "CharCount"),
    ], formatAttribute: "Format")

    /// A feature as FeatureVariations substitutes it: no FeatureRecord encloses it, so no tag
    /// chooses its parameters (fonts give substituted features none).
    // swift-format-ignore
    static let substitutedFeature = Record("Feature", [
        Member("FeatureParams", .offset16(.undescribed("FeatureParams in a FeatureVariations substitute"))),
        Member("LookupCount", .scalar(.uint16)),
        Member("LookupListIndex", .scalar(.uint16), count: "LookupCount"),
    ])

    // swift-format-ignore
    static let featureList = Record("FeatureList", [
        Member("FeatureCount", .scalar(.uint16)),
        Member("FeatureRecord", .record(Record("FeatureRecord", [
            Member("FeatureTag", .scalar(.tag)),
            Member("Feature", .offset16(.record(feature))),
        ])), count: "FeatureCount"),
    ])

    /// Variable fonts: features replaced by others where every condition of a record holds
    /// (an axis within a range), the first matching record winning. Condition format 1 only
    /// (axis ranges); a table with another format is kept as bytes.
    // swift-format-ignore
    static let featureVariations = Record("FeatureVariations", [
        Member("Version", .scalar(.version32), ttx: .hex8),
        Member("FeatureVariationCount", .scalar(.uint32)),
        Member("FeatureVariationRecord", .record(Record("FeatureVariationRecord", [
            Member("ConditionSet", .offset32(.record(Record("ConditionSet", [
                Member("ConditionCount", .scalar(.uint16)),
                Member("ConditionTable", .offset32(.formats(name: "ConditionTable", [1: Record("ConditionTableFormat1", [
                    Member("AxisIndex", .scalar(.uint16)),
                    Member("FilterRangeMinValue", .scalar(.f2dot14)),
                    Member("FilterRangeMaxValue", .scalar(.f2dot14)),
                ])])), count: "ConditionCount"),
            ])))),
            Member("FeatureTableSubstitution", .offset32(.record(Record("FeatureTableSubstitution", [
                Member("Version", .scalar(.version32), ttx: .hex8),
                Member("SubstitutionCount", .scalar(.uint16)),
                Member("SubstitutionRecord", .record(Record("FeatureTableSubstitutionRecord", [
                    Member("FeatureIndex", .scalar(.uint16)),
                    Member("Feature", .offset32(.record(substitutedFeature))),
                ])), count: "SubstitutionCount"),
            ])))),
        ])), count: "FeatureVariationCount"),
    ])

    /// A lookup: its type picks the shape of every subtable; MarkFilteringSet follows when
    /// the flags ask for it.
    // swift-format-ignore
    static func lookupList(_ types: [Int: SwitchCase]) -> Shape {
        .record(Record("LookupList", [
            Member("LookupCount", .scalar(.uint16)),
            Member("Lookup", .offset16(.record(lookup(types))), count: "LookupCount"),
        ]))
    }

    /// One lookup: its type, flags and subtables (also what JSTF's JstfMax points at).
    // swift-format-ignore
    static func lookup(_ types: [Int: SwitchCase]) -> Record {
        Record("Lookup", [
            Member("LookupType", .scalar(.uint16)),
            Member("LookupFlag", .scalar(.uint16), ttx: .lookupFlag),
            Member("SubTableCount", .scalar(.uint16)),
            Member("SubTable", .offset16(.switched(on: "LookupType", types)), count: "SubTableCount", lazy: true),
            Member("MarkFilteringSet", .scalar(.uint16), when: ("LookupFlag", 0x10)),
        ])
    }

    /// The extension subtable (GSUB 7, GPOS 9): the real subtable behind an Offset32.
    // swift-format-ignore
    static func extensionSubtable(_ types: [Int: SwitchCase]) -> Shape {
        .formats(name: "Extension", [1: Record("ExtensionFormat1", [
            Member("ExtensionLookupType", .scalar(.uint16)),
            Member("ExtSubTable", .offset32(.switched(on: "ExtensionLookupType", types)), lazy: true),
        ])])
    }

    /// Contextual and chained contextual subtables, formats 1–3. `prefix` is "Subst" or "Pos"
    /// (fontTools' names: SubRuleSet/PosRuleSet, SubstLookupRecord/PosLookupRecord …).
    // swift-format-ignore
    static func context(_ prefix: String) -> Shape {
        let short = prefix == "Subst" ? "Sub" : "Pos"
        let records = Member("\(prefix)LookupRecord", .record(Record("\(prefix)LookupRecord", [
            Member("SequenceIndex", .scalar(.uint16)), Member("LookupListIndex", .scalar(.uint16)),
        ])), count: "\(prefix)Count")
        let rule = Record("\(short)Rule", [
            Member("GlyphCount", .scalar(.uint16)), Member("\(prefix)Count", .scalar(.uint16)),
            Member("Input", .glyph, count: "GlyphCount", bias: -1), records,
        ])
        let classRule = Record("\(short)ClassRule", [
            Member("GlyphCount", .scalar(.uint16)), Member("\(prefix)Count", .scalar(.uint16)),
            Member("Class", .scalar(.uint16), count: "GlyphCount", bias: -1), records,
        ])
        return .formats(name: "Context\(prefix)", [
            1: Record("Context\(prefix)Format1", [
                Member("Coverage", .offset16(.coverage), parallel: ["\(short)RuleSet"]),
                Member("\(short)RuleSetCount", .scalar(.uint16)),
                Member("\(short)RuleSet", .offset16(.record(Record("\(short)RuleSet", [
                    Member("\(short)RuleCount", .scalar(.uint16)),
                    Member("\(short)Rule", .offset16(.record(rule)), count: "\(short)RuleCount"),
                ]))), count: "\(short)RuleSetCount"),
            ]),
            2: Record("Context\(prefix)Format2", [
                Member("Coverage", .offset16(.coverage)),
                Member("ClassDef", .offset16(.classDef)),
                Member("\(short)ClassSetCount", .scalar(.uint16)),
                Member("\(short)ClassSet", .offset16(.record(Record("\(short)ClassSet", [
                    Member("\(short)ClassRuleCount", .scalar(.uint16)),
                    Member("\(short)ClassRule", .offset16(.record(classRule)), count: "\(short)ClassRuleCount"),
                ]))), count: "\(short)ClassSetCount"),
            ]),
            3: Record("Context\(prefix)Format3", [
                Member("GlyphCount", .scalar(.uint16)), Member("\(prefix)Count", .scalar(.uint16)),
                Member("Coverage", .offset16(.coverage), count: "GlyphCount"), records,
            ]),
        ])
    }

    // swift-format-ignore
    static func chainContext(_ prefix: String) -> Shape {
        let records = Member("\(prefix)LookupRecord", .record(Record("\(prefix)LookupRecord", [
            Member("SequenceIndex", .scalar(.uint16)), Member("LookupListIndex", .scalar(.uint16)),
        ])), count: "\(prefix)Count")
        let short = prefix == "Subst" ? "Sub" : "Pos"
        func sequences(_ item: Shape) -> [Member] {
            [Member("BacktrackGlyphCount", .scalar(.uint16)), Member("Backtrack", item, count: "BacktrackGlyphCount"),
             Member("InputGlyphCount", .scalar(.uint16)), Member("Input", item, count: "InputGlyphCount", bias: -1),
             Member("LookAheadGlyphCount", .scalar(.uint16)), Member("LookAhead", item, count: "LookAheadGlyphCount"),
             Member("\(prefix)Count", .scalar(.uint16)), records]
        }
        return .formats(name: "ChainContext\(prefix)", [
            1: Record("ChainContext\(prefix)Format1", [
                Member("Coverage", .offset16(.coverage), parallel: ["Chain\(short)RuleSet"]),
                Member("Chain\(short)RuleSetCount", .scalar(.uint16)),
                Member("Chain\(short)RuleSet", .offset16(.record(Record("Chain\(short)RuleSet", [
                    Member("Chain\(short)RuleCount", .scalar(.uint16)),
                    Member("Chain\(short)Rule", .offset16(.record(Record("Chain\(short)Rule", sequences(.glyph)))), count: "Chain\(short)RuleCount"),
                ]))), count: "Chain\(short)RuleSetCount"),
            ]),
            2: Record("ChainContext\(prefix)Format2", [
                Member("Coverage", .offset16(.coverage)),
                Member("BacktrackClassDef", .offset16(.classDef)),
                Member("InputClassDef", .offset16(.classDef)),
                Member("LookAheadClassDef", .offset16(.classDef)),
                Member("Chain\(short)ClassSetCount", .scalar(.uint16)),
                Member("Chain\(short)ClassSet", .offset16(.record(Record("Chain\(short)ClassSet", [
                    Member("Chain\(short)ClassRuleCount", .scalar(.uint16)),
                    Member("Chain\(short)ClassRule", .offset16(.record(Record("Chain\(short)ClassRule", sequences(.scalar(.uint16))))), count: "Chain\(short)ClassRuleCount"),
                ]))), count: "Chain\(short)ClassSetCount"),
            ]),
            3: Record("ChainContext\(prefix)Format3", [
                Member("BacktrackGlyphCount", .scalar(.uint16)), Member("BacktrackCoverage", .offset16(.coverage), count: "BacktrackGlyphCount"),
                Member("InputGlyphCount", .scalar(.uint16)), Member("InputCoverage", .offset16(.coverage), count: "InputGlyphCount"),
                Member("LookAheadGlyphCount", .scalar(.uint16)), Member("LookAheadCoverage", .offset16(.coverage), count: "LookAheadGlyphCount"),
                Member("\(prefix)Count", .scalar(.uint16)), records,
            ]),
        ])
    }
}

extension LayoutCommon {
    /// The lookup list with every lookup that is not an extension turned into one (its
    /// subtables behind Offset32s, placed after everything else), as font compilers do when
    /// Offset16s overflow. `extensionType` is 7 (GSUB) or 9 (GPOS).
    static func promotingToExtensions(_ root: StructFields, extensionType: Int) -> StructFields {
        guard case .record(var list)? = root["LookupList"], case .list(let lookups)? = list["Lookup"] else { return root }
        list["Lookup"] = .list(
            lookups.map { lookup in
                guard case .record(var f) = lookup, let type = f["LookupType"]?.int.map(Int.init), type != extensionType,
                    case .list(let subtables)? = f["SubTable"]
                else { return lookup }
                f["LookupType"] = .int(Int64(extensionType))
                f["SubTable"] = .list(
                    subtables.map { subtable in
                        var ext = StructFields()
                        ext["ExtensionLookupType"] = .int(Int64(type))
                        ext["ExtSubTable"] = subtable
                        return .switched(extensionType, .formatted(1, ext))
                    })
                return .record(f)
            })
        var out = root
        out["LookupList"] = .record(list)
        return out
    }
}

extension LayoutCommon {
    /// The lookup list with every extension lookup replaced by the lookup it wraps (its type
    /// and subtables), as fontTools' instancer leaves GPOS; `encodeFitting` wraps them again
    /// only if offsets then overflow. An extension lookup whose subtables do not all wrap the
    /// same type is left as it is.
    static func unwrappingExtensions(_ root: StructFields, extensionType: Int) throws -> StructFields {
        guard case .record(var list)? = root["LookupList"], case .list(let lookups)? = list["Lookup"] else { return root }
        list["Lookup"] = .list(
            try lookups.map { lookup in
                guard case .record(var f) = lookup, f["LookupType"]?.int == Int64(extensionType),
                    case .list(let subtables)? = f["SubTable"]
                else { return lookup }
                var inner: [StructValue] = [], types = Set<Int>()
                for subtable in subtables {
                    guard case .switched(_, let ext) = try subtable.resolved(), case .formatted(1, let e) = try ext.resolved(),
                        case .switched(let type, let wrapped)? = try e["ExtSubTable"]?.resolved()
                    else { return lookup }
                    types.insert(type)
                    inner.append(.switched(type, wrapped))
                }
                guard types.count == 1, let type = types.first else { return lookup }
                f["LookupType"] = .int(Int64(type))
                f["SubTable"] = .list(inner)
                return .record(f)
            })
        var out = root
        out["LookupList"] = .record(list)
        return out
    }
}

extension LayoutCommon {
    /// Encodes GSUB or GPOS so every offset fits: as it is; else with every lookup behind an
    /// extension; else also splitting each subtable whose own offsets overflow into pieces that
    /// fit (single, multiple, alternate and ligature substitutions and glyph pair kerning by
    /// first glyph; class pair kerning by first-glyph class), as fontTools' overflow fixing does.
    static func encodeFitting(_ table: StructuredTable, extensionType: Int, subtables: [Int: SwitchCase]) throws -> [UInt8] {
        let shape = type(of: table).shape, name = table.tag.trimmed
        table.promotedLookups = false
        table.splitSubtables = []
        var root = try table.rootKeepingDamage   // subtables kept as bytes are written back as they were
        do { return try StructureCodec.encode(.record(root), shape, name: name) } catch is OffsetOverflow {}
        root = promotingToExtensions(root, extensionType: extensionType)
        table.promotedLookups = true
        var splits: [String] = []
        // Each pass splits the subtable the overflow is in; a subtable is split once into as
        // many pieces as it needs, so the passes are bounded by the subtables.
        for _ in 0..<256 {
            do {
                let bytes = try StructureCodec.encode(.record(root), shape, name: name)
                table.splitSubtables = splits
                return bytes
            } catch let overflow as OffsetOverflow {
                guard let (l, k) = overflow.lookupSubtable,
                    case .record(var list)? = root["LookupList"], case .list(var lookups)? = list["Lookup"], l < lookups.count,
                    case .record(var lookup) = lookups[l], case .list(var items)? = lookup["SubTable"], k < items.count,
                    case .switched(let wrapper, .formatted(let extFormat, let ext)) = items[k],
                    case .switched(let type, let inner)? = ext["ExtSubTable"],
                    let caseShape = subtables[type]?.shape
                else { throw overflow }
                let pieces = try fitting(inner, caseShape, name: "\(name) lookup \(l) subtable \(k)")
                guard pieces.count > 1 else { throw overflow }
                items.replaceSubrange(
                    k...k,
                    with: pieces.map { piece in
                        var e = ext
                        e["ExtSubTable"] = .switched(type, piece)
                        return .switched(wrapper, .formatted(extFormat, e))
                    })
                lookup["SubTable"] = .list(items)
                lookups[l] = .record(lookup)
                list["Lookup"] = .list(lookups)
                root["LookupList"] = .record(list)
                splits.append("lookup \(l) subtable \(k) into \(pieces.count)")
            }
        }
        throw FontError("\(name): offsets still overflow after splitting 256 subtables")
    }

    /// A subtable as pieces that each encode on their own: itself, or its halves, recursively.
    static func fitting(_ value: StructValue, _ shape: Shape, name: String) throws -> [StructValue] {
        do {
            _ = try StructureCodec.encode(value, shape, name: name)
            return [value]
        } catch let overflow as OffsetOverflow {
            guard let (a, b) = halves(value) else { throw overflow }
            return try fitting(a, shape, name: name) + fitting(b, shape, name: name)
        }
    }

    /// A subtable split in two by first glyph (or first-glyph class), each half doing for its
    /// glyphs exactly what the whole did; nil when it cannot be split.
    static func halves(_ value: StructValue) -> (StructValue, StructValue)? {
        switch value {
        case .substitutions(let subs):
            var firsts: [Int] = []
            for s in subs where firsts.last != s.input[0] { firsts.append(s.input[0]) }
            guard firsts.count > 1 else { return nil }
            let second = Set(firsts[(firsts.count / 2)...])
            return (
                .substitutions(subs.filter { !second.contains($0.input[0]) }), .substitutions(subs.filter { second.contains($0.input[0]) })
            )
        case .formatted(1, let f) where f["PairSet"] != nil:
            guard case .glyphs(let coverage)? = f["Coverage"], case .list(let sets)? = f["PairSet"], coverage.count > 1,
                sets.count == coverage.count
            else { return nil }
            let glyphs = coverage.glyphs, middle = glyphs.count / 2
            var a = f, b = f
            a["Coverage"] = .glyphs(GlyphRuns(glyphs[..<middle])); a["PairSet"] = .list(Array(sets[..<middle]))
            b["Coverage"] = .glyphs(GlyphRuns(glyphs[middle...])); b["PairSet"] = .list(Array(sets[middle...]))
            return (.formatted(1, a), .formatted(1, b))
        case .formatted(2, let f) where f["Class1Record"] != nil:
            // By first-glyph class: each half keeps row 0 (glyphs covered but unclassed stay in the
            // first) and renumbers its classes from 1.
            guard case .glyphs(let coverage)? = f["Coverage"], case .classes(let runs)? = f["ClassDef1"],
                case .list(let rows)? = f["Class1Record"], rows.count > 2
            else { return nil }
            let middle = 1 + (rows.count - 1) / 2
            func half(_ classes: Range<Int>, keepsClassZero: Bool) -> StructValue {
                var g = f
                g["Class1Record"] = .list([rows[0]] + Array(rows[classes]))
                g["ClassDef1"] = .classes(
                    ClassRun.normalized(
                        runs.filter { classes.contains($0.glyphClass) }.map {
                            ClassRun(first: $0.first, last: $0.last, glyphClass: $0.glyphClass - classes.lowerBound + 1)
                        }))
                g["Coverage"] = .glyphs(
                    GlyphRuns(
                        coverage.glyphs.filter { glyph in
                            let c = Face.glyphClass(glyph, f["ClassDef1"])
                            return classes.contains(c) || (keepsClassZero && c == 0)
                        }))
                return .formatted(2, g)
            }
            return (half(1..<middle, keepsClassZero: true), half(middle..<rows.count, keepsClassZero: false))
        default:
            return nil
        }
    }
}
