import FontModel
import FontXML
import LuaBridge

/// Lua views of the TrueType hinting tables and DSIG: `face.cvt` (a list of the control values,
/// `face.cvt[k + 1]` being value k), `face.fpgm` and `face.prep` (assembly text, as dumps write
/// it), `face.DSIG`, `face.hdmx` (`face.hdmx.records[12].widths.a`: glyph a's width at 12 ppem,
/// with each record's `maxWidth`), `face.TTFA` (ttfautohint's options, text); and the setters `face:setCvt(list)` and `face:setProgram(tag, assembly)`.
enum HintingValues {
    /// The Face fields these tables answer, by name.
    static let fields: [(name: String, push: @Sendable (LuaStack, Face) throws -> Void)] =
        [
            ("cvt", pushCvt), ("fpgm", { try pushProgram($0, $1, FpgmTable.self) }), ("prep", { try pushProgram($0, $1, PrepTable.self) }),
            ("DSIG", pushDSIG), ("hdmx", pushHdmx), ("VDMX", pushVDMX), ("TTFA", pushTTFA),
            ("TSI1", { try pushVTTPrograms($0, $1, "TSI1") }), ("TSI3", { try pushVTTPrograms($0, $1, "TSI3") }), ("TSI5", pushTSI5),
        ] + ["TSIV", "TSIB", "TSID", "TSIJ", "TSIP", "TSIS"].map { tag in (tag, { try pushVTTText($0, $1, Tag(text: tag)) }) }

    /// face.TSI1, face.TSI3: VTT's glyph programs, {glyphPrograms = {A = text, ...},
    /// extraPrograms = {fpgm = text, ...}}, lines ending in newlines (carriage returns in the font).
    static func pushVTTPrograms(_ s: LuaStack, _ face: Face, _ tag: Tag) throws {
        guard let table = try face.decodedTable(tag) as? VTTProgramsTable else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(fieldCount: 2)
        s.pushTable(fieldCount: Int32(table.programs.count))
        for (id, text) in table.programs { s.push(VTTProgramsTable.withNewlines(text)); s.setField(glyphName(id, in: names), in: -2) }
        s.setField("glyphPrograms", in: -2)
        s.pushTable(fieldCount: Int32(table.extraPrograms.count))
        for (name, text) in table.extraPrograms { s.push(VTTProgramsTable.withNewlines(text)); s.setField(name, in: -2) }
        s.setField("extraPrograms", in: -2)
    }

    /// face.TSI5: VTT's character group of each glyph, {A = 1, ...}.
    static func pushTSI5(_ s: LuaStack, _ face: Face) throws {
        guard let table = try face.table(TSI5Table.self) else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(fieldCount: Int32(table.groups.count))
        for (id, group) in table.groups.enumerated() { s.push(group); s.setField(glyphName(id, in: names), in: -2) }
    }

    /// face.TSIV … face.TSIS: VTT's source text for a table, lines ending in newlines.
    static func pushVTTText(_ s: LuaStack, _ face: Face, _ tag: Tag) throws {
        guard let table = try face.decodedTable(tag) as? VTTTextTable else { s.pushNil(); return }
        if let text = table.text { s.push(text) } else { s.push(bytes: table.bytes) }
    }

    /// face.TTFA: ttfautohint's options as text ("hinting-range-min: 8" …); nil without the table.
    static func pushTTFA(_ s: LuaStack, _ face: Face) throws {
        guard let ttfa = try face.table(TTFATable.self) else { s.pushNil(); return }
        if let text = ttfa.text { s.push(text) } else { s.push(bytes: ttfa.bytes) }
    }

    /// face.VDMX: {version, ratios = {{charSet, xRatio, yStartRatio, yEndRatio, group}},
    /// groups = {{[yPelHeight] = {yMax, yMin}}}} (groups numbered from 1 in Lua, as `group` is).
    static func pushVDMX(_ s: LuaStack, _ face: Face) throws {
        guard let vdmx = try face.table(VDMXTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 3)
        s.push(Int(vdmx.version)); s.setField("version", in: -2)
        s.pushTable(arrayCount: Int32(vdmx.ratios.count))
        for (k, r) in vdmx.ratios.enumerated() {
            s.pushTable(fieldCount: 5)
            for (name, v) in [("charSet", r.charSet), ("xRatio", r.xRatio), ("yStartRatio", r.yStartRatio), ("yEndRatio", r.yEndRatio)] {
                s.push(Int(v)); s.setField(name, in: -2)
            }
            s.push(r.group + 1); s.setField("group", in: -2)
            s.setIndex(k + 1, in: -2)
        }
        s.setField("ratios", in: -2)
        s.pushTable(arrayCount: Int32(vdmx.groups.count))
        for (k, g) in vdmx.groups.enumerated() {
            _ = s.reserve(4)
            s.pushTable(fieldCount: Int32(g.count))
            for h in g {
                s.pushTable(fieldCount: 2)
                s.push(Int(h.yMax)); s.setField("yMax", in: -2)
                s.push(Int(h.yMin)); s.setField("yMin", in: -2)
                s.setIndex(Int(h.yPelHeight), in: -2)
            }
            s.setIndex(k + 1, in: -2)
        }
        s.setField("groups", in: -2)
    }

    static func pushHdmx(_ s: LuaStack, _ face: Face) throws {
        guard let hdmx = try face.table(HdmxTable.self) else { s.pushNil(); return }
        let names = try face.glyphNames()
        s.pushTable(fieldCount: 2)
        s.push(Int(hdmx.version)); s.setField("version", in: -2)
        s.pushTable(fieldCount: Int32(hdmx.records.count))
        for record in hdmx.records {
            _ = s.reserve(6)
            s.pushTable(fieldCount: 2)
            s.push(Int(record.maxWidth)); s.setField("maxWidth", in: -2)
            s.pushTable(fieldCount: Int32(record.widths.count))
            for (g, w) in record.widths.enumerated() { s.push(Int(w)); s.setField(glyphName(g, in: names), in: -2) }
            s.setField("widths", in: -2)
            s.setIndex(Int(record.ppem), in: -2)
        }
        s.setField("records", in: -2)
    }

    static func pushCvt(_ s: LuaStack, _ face: Face) throws {
        guard let cvt = try face.table(CvtTable.self) else { s.pushNil(); return }
        s.pushTable(arrayCount: Int32(clamping: cvt.values.count))
        for (k, v) in cvt.values.enumerated() { s.push(v); s.setIndex(k + 1, in: -2) }
    }

    static func pushProgram(_ s: LuaStack, _ face: Face, _ type: InstructionTable.Type) throws {
        guard let program = try face.decodedTable(type.tableTag) as? InstructionTable else { s.pushNil(); return }
        guard let text = TTX.assembly(program.bytecode) else {
            throw FontError(
                "\(type.tableTag.trimmed) ends inside a push instruction; read its bytes with face:rawTable('\(type.tableTag.trimmed)')")
        }
        s.push(text)
    }

    static func pushDSIG(_ s: LuaStack, _ face: Face) throws {
        guard let dsig = try face.table(DSIGTable.self) else { s.pushNil(); return }
        s.pushTable(fieldCount: 3)
        s.push(Int(dsig.version)); s.setField("version", in: -2)
        s.push(Int(dsig.flags)); s.setField("flags", in: -2)
        s.pushTable(arrayCount: Int32(clamping: dsig.signatures.count))
        for (k, signature) in dsig.signatures.enumerated() {
            _ = s.reserve(4)
            s.pushTable(fieldCount: 2)
            s.push(Int(signature.format)); s.setField("format", in: -2)
            s.push(bytes: signature.pkcs7); s.setField("pkcs7", in: -2)
            s.setIndex(k + 1, in: -2)
        }
        s.setField("signatures", in: -2)
    }

    /// face:setCvt{v0, v1, ...}: replaces the control values (FWORDs); adds a cvt when there is none.
    static let setCvt: LuaFunction = { L in
        LuaCall.run(L, "setCvt") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            _ = try call.table(2)
            let values = try call.stack.items(ofListAt: 2) { k -> Int in
                guard let v = call.stack.integer(at: -1) else {
                    throw LuaArgumentError(2, "item \(k) is \(call.stack.describedType(at: -1)), not an integer")
                }
                return v
            }
            face.setRawTable("cvt ", try CvtTable(values: values).encode())
            return 0
        }
    }

    /// face:setProgram("fpgm" or "prep", assembly): replaces a program with assembled text (as
    /// face.fpgm reads, or fontTools writes); adds the table when there is none.
    static let setProgram: LuaFunction = { L in
        LuaCall.run(L, "setProgram") { call in
            let face = try call.methodSelf(FaceObject.className, as: FaceRef.self).get()
            let tag = try call.string(2)
            guard tag == "fpgm" || tag == "prep" else { throw LuaArgumentError(2, "'\(tag)' is not a program table (fpgm or prep)") }
            face.setRawTable(Tag(text: tag), try TTX.assemble(try call.string(3)))
            return 0
        }
    }
}
