/// `FFTM`, FontForge's timestamps: when FontForge itself was built, and when the font's source
/// was created and last changed. Fields as fontTools names them.
public final class FFTMTable: FieldTable {
    public override class var tableTag: Tag { "FFTM" }

    // swift-format-ignore
    static let fieldList: [Field] = [
        Field("version", .uint32),
        Field("FFTimeStamp", .longDateTime), Field("sourceCreated", .longDateTime), Field("sourceModified", .longDateTime),
    ]

    public override class func layout(version: UInt32, length: Int) throws -> [Field] {
        try requireLength(length, 28, "FFTM")
        return fieldList
    }
}
